"""A minimal client of `splatlab rl` (the HTTP JSON protocol in docs/AGENTS.md), standard library
only. For training and evaluation code use the `splatlab` package in python/ (docs/AGENTS.md,
"Python: the splatlab package"): a gymnasium.Env, TRL's environment_factory, Inspect AI tasks.

Start the server first:  splatlab rl --port 8765 --token $SPLATLAB_RL_TOKEN --device cpu
"""
import base64
import json
import os
import time
import urllib.error
import urllib.request
import uuid


class SplatLabRL:
    def __init__(self, url="http://127.0.0.1:8765", token=None):
        self.url = url.rstrip("/")
        self.token = token or os.environ["SPLATLAB_RL_TOKEN"]

    def _post(self, path, body):
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req) as res:
                return json.loads(res.read())
        except urllib.error.HTTPError as e:
            raise RuntimeError(json.loads(e.read()).get("error", str(e))) from None

    def reset(self, task_id, player="trl"):
        return self._post("/reset", {"task_id": task_id, "player": player})

    def step(self, episode_id, tool, args=None, tries=8):
        """One call, charged once: sent with a request id; after a lost reply (a reset
        connection, a timeout, a 503) the stored answer is asked for, and the call is sent again
        with the same id only when it never arrived."""
        body = {"episode_id": episode_id, "tool": tool, "args": args or {}, "request_id": uuid.uuid4().hex}
        for attempt in range(tries):
            try:
                if attempt > 0:
                    known = self._post("/result", {"episode_id": episode_id, "request_id": body["request_id"]})
                    if known.get("found"):
                        return known
                return self._post("/step", body)
            except (OSError, urllib.error.URLError, RuntimeError) as e:
                if isinstance(e, RuntimeError) and "nothing was charged" not in str(e) and "busy" not in str(e):
                    raise
                time.sleep(min(4.0, 0.25 * 2**attempt))
        raise RuntimeError(f"{tool}: no answer after {tries} tries")

    def reward(self, episode_id):
        return self._post("/reward", {"episode_id": episode_id})

    def close(self, episode_id):
        return self._post("/close", {"episode_id": episode_id})


if __name__ == "__main__":
    env = SplatLabRL()
    obs = env.reset("mushroom__sculpt")
    print(obs["text"])
    open("reference.png", "wb").write(base64.b64decode(obs["image_png_base64"]))
    out = env.step(obs["episode_id"], "add_gaussians", {"gaussians": [{"pos": [0, 0, 0], "color": "#b04030", "scale": 0.3}]})
    print(out["text"])
    out = env.step(obs["episode_id"], "submit")
    print(out["text"], "reward", out["reward"], "training reward", out["training_reward"])
    env.close(obs["episode_id"])
