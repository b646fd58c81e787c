"""A client of `splatlab rl`, the lab's HTTP JSON protocol (docs/AGENTS.md, "RL: the HTTP JSON
protocol"), standard library only. Every /step carries a request id, so a call whose answer was
lost (a reset connection, a timeout, a 503 "busy" or "nothing was charged") is asked for with
/result and sent again only when it never arrived: each call is charged at most once."""

import json
import os
import time
import urllib.error
import urllib.request
import uuid


class RLError(RuntimeError):
    """The server's one-line error (`{"error": ...}`) with the HTTP status."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class RLClient:
    """`RLClient(url, token)`; url defaults to $SPLATLAB_RL_URL (else http://127.0.0.1:8765), token
    to $SPLATLAB_RL_TOKEN."""

    def __init__(self, url=None, token=None, timeout=600.0):
        self.url = (url or os.environ.get("SPLATLAB_RL_URL") or "http://127.0.0.1:8765").rstrip("/")
        self.token = token or os.environ.get("SPLATLAB_RL_TOKEN")
        if not self.token:
            raise ValueError("no token: pass token= or set SPLATLAB_RL_TOKEN (splatlab rl prints it)")
        self.timeout = timeout

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return json.loads(res.read())
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                message = json.loads(text).get("error", str(e))
            except ValueError:
                message = str(e)
            raise RLError(message, e.code) from None

    def tasks(self):
        """The task registry's entries (as `splatlab tasks --json`)."""
        return self.request("GET", "/tasks")["tasks"]

    def tools(self, kind):
        """The tools of a task kind: [{name, description, parameters (JSON Schema)}]."""
        return self.request("GET", f"/tools?kind={kind}")["tools"]

    def reset(self, task_id, player="python", seed=None, caps=None):
        body = {"task_id": task_id, "player": player}
        if seed is not None:
            body["seed"] = int(seed)
        if caps:
            body["caps"] = caps
        return self.request("POST", "/reset", body)

    def step(self, episode_id, tool, args=None, tries=8):
        """One call, charged once. args: a dict, or a string the server reads as the whole
        arguments' JSON (an invalid one is refused and costs a call, as in the environment)."""
        body = {"episode_id": episode_id, "tool": tool, "args": {} if args is None else args, "request_id": uuid.uuid4().hex}
        for attempt in range(tries):
            try:
                if attempt > 0:
                    known = self.request("POST", "/result", {"episode_id": episode_id, "request_id": body["request_id"]})
                    if known.get("found"):
                        return known
                return self.request("POST", "/step", body)
            except (OSError, RLError) as e:
                retry = isinstance(e, OSError) or e.status == 503
                if not retry or attempt == tries - 1:
                    raise
                time.sleep(min(4.0, 0.25 * 2**attempt))
        raise RLError(f"{tool}: no answer after {tries} tries")

    def reward(self, episode_id):
        return self.request("POST", "/reward", {"episode_id": episode_id})

    def close(self, episode_id):
        try:
            return self.request("POST", "/close", {"episode_id": episode_id})
        except RLError as e:
            if e.status == 404:
                return {"closed": True}  # already closed (the server's idle timeout)
            raise
