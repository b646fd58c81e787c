"""A Gymnasium-style environment over `splatlab rl` (docs/AGENTS.md "The Python env"), standard
library only: reset(seed=..., options=...) -> (observation, info) and step(action) ->
(observation, reward, terminated, truncated, info), with described observation and action
spaces. One env plays the tasks of one kind family (SplatBench's sculpt, reassembly and one-shot
share the ten tools; search and relation have their own actions); the action space lists the
family's tools with the JSON Schema of each tool's arguments, as the server's GET /tools gives it.

    env = SplatLabEnv("http://127.0.0.1:8765", token, family="splatbench")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step({"tool": "submit", "args": {}})

Observation: {"text": str, "image_png": bytes (b"" when a call returns no image), "step": int,
"calls_left": int}. Reward: 0.0 until the end, then the benchmark reward clip(score/100, 0, 1)
(reward="training": the training reward). terminated: the task ended (submit, stop, every trial
answered); truncated: the call budget or a cap cut it short. info carries the call's outcome
{status, code}, the budgets, the episode id and the task id.
"""
import json
import random
import struct
import urllib.error
import urllib.request

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Space:
    """What a value may be (Gymnasium's spaces, without numpy)."""

    def contains(self, x):
        raise NotImplementedError

    def sample(self, rng=None):
        raise NotImplementedError

    def __contains__(self, x):
        return self.contains(x)


class Discrete(Space):
    def __init__(self, n, start=0):
        self.n, self.start = n, start

    def contains(self, x):
        return isinstance(x, int) and not isinstance(x, bool) and self.start <= x < self.start + self.n

    def sample(self, rng=None):
        return (rng or random).randrange(self.start, self.start + self.n)

    def __repr__(self):
        return f"Discrete({self.n})"


class Text(Space):
    def __init__(self, max_length=1_000_000):
        self.max_length = max_length

    def contains(self, x):
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, rng=None):
        return "".join((rng or random).choice("abc ") for _ in range(8))

    def __repr__(self):
        return f"Text({self.max_length})"


class PngImage(Space):
    """A PNG file's bytes (b"" allowed: the call returned no image), at most width x height."""

    def __init__(self, width, height):
        self.width, self.height = width, height

    def contains(self, x):
        if x == b"":
            return True
        if not isinstance(x, bytes) or len(x) < 24 or not x.startswith(PNG_SIGNATURE) or x[12:16] != b"IHDR":
            return False
        w, h = struct.unpack(">II", x[16:24])
        return 0 < w <= self.width and 0 < h <= self.height

    def sample(self, rng=None):
        return b""

    def __repr__(self):
        return f"PngImage({self.width}x{self.height})"


class Json(Space):
    """A JSON value valid under a JSON Schema (the subset the lab's zod schemas produce)."""

    def __init__(self, schema):
        self.schema = schema

    def contains(self, x):
        return validate(x, self.schema)

    def sample(self, rng=None):
        return {}

    def __repr__(self):
        return "Json(schema)"


class Dict(Space):
    def __init__(self, spaces):
        self.spaces = spaces

    def contains(self, x):
        return isinstance(x, dict) and set(x) == set(self.spaces) and all(self.spaces[k].contains(x[k]) for k in self.spaces)

    def sample(self, rng=None):
        return {k: s.sample(rng) for k, s in self.spaces.items()}

    def __getitem__(self, key):
        return self.spaces[key]

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k}: {s!r}" for k, s in self.spaces.items()) + ")"


class ToolCall(Space):
    """An action: {"tool": one of the family's tool names, "args": arguments valid for that tool}."""

    def __init__(self, tools):
        self.tools = {t["name"]: t for t in tools}
        self.names = list(self.tools)
        self.tool_index = Discrete(len(self.names))

    def contains(self, x):
        if not isinstance(x, dict) or set(x) != {"tool", "args"} or x["tool"] not in self.tools:
            return False
        return validate(x["args"], self.tools[x["tool"]]["parameters"])

    def sample(self, rng=None):
        """A tool whose arguments may all be left out, with none (the rest need real arguments)."""
        rng = rng or random
        free = [n for n in self.names if not self.tools[n]["parameters"].get("required")]
        return {"tool": rng.choice(free or self.names), "args": {}}

    def __repr__(self):
        return f"ToolCall({', '.join(self.names)})"


_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def validate(x, schema):
    """True when x satisfies the schema (type, enum, const, required, properties,
    additionalProperties, items, prefixItems, min/maxItems, minimum/maximum, anyOf/oneOf)."""
    if schema is True or schema == {}:
        return True
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return any(validate(x, s) for s in schema[key])
    if "const" in schema and x != schema["const"]:
        return False
    if "enum" in schema and x not in schema["enum"]:
        return False
    t = schema.get("type")
    if isinstance(t, list):
        return any(validate(x, {**schema, "type": u}) for u in t)
    if t in ("number", "integer"):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or (t == "integer" and not float(x).is_integer()):
            return False
        if x != x or ("minimum" in schema and x < schema["minimum"]) or ("maximum" in schema and x > schema["maximum"]):
            return False
    elif t == "null":
        if x is not None:
            return False
    elif t is not None and not isinstance(x, _TYPES[t]):
        return False
    if isinstance(x, dict):
        props = schema.get("properties", {})
        if any(k not in x for k in schema.get("required", [])):
            return False
        for k, v in x.items():
            if k in props:
                if not validate(v, props[k]):
                    return False
            elif schema.get("additionalProperties") is False:
                return False
    if isinstance(x, list):
        if len(x) < schema.get("minItems", 0) or len(x) > schema.get("maxItems", len(x)):
            return False
        prefix = schema.get("prefixItems", [])
        if any(not validate(v, s) for v, s in zip(x, prefix)):
            return False
        rest = x[len(prefix):]
        if "items" in schema and any(not validate(v, schema["items"]) for v in rest):
            return False
    return True


FAMILY_KINDS = {"splatbench": ("sculpt", "reassembly", "oneshot"), "search": ("search",), "relation": ("relation",)}
IMAGE_SIZE = {"splatbench": 4096, "search": 512, "relation": 1024}


class SplatLabEnv:
    metadata = {"render_modes": []}
    render_mode = None

    def __init__(self, url, token, family="splatbench", task_ids=None, player="gym", reward="benchmark", caps=None):
        if family not in FAMILY_KINDS:
            raise ValueError(f"family must be one of {', '.join(FAMILY_KINDS)}")
        self.url, self.token, self.family, self.player, self.reward_kind, self.caps = url.rstrip("/"), token, family, player, reward, caps
        entries = self._request("GET", "/tasks")["tasks"]
        self.task_ids = sorted(task_ids or [e["id"] for e in entries if e["family"] == family])
        if not self.task_ids:
            raise ValueError(f"the server has no {family} task")
        tools = self._request("GET", f"/tools?kind={FAMILY_KINDS[family][0]}")["tools"]
        self.action_space = ToolCall(tools)
        max_calls = max(e["budgets"]["max_tool_calls"] for e in entries if e["id"] in self.task_ids)
        size = IMAGE_SIZE[family]
        self.observation_space = Dict({"text": Text(), "image_png": PngImage(size, size), "step": Discrete(max_calls + 1), "calls_left": Discrete(max_calls + 1)})
        self.np_random = random.Random()
        self.episode = None
        self._done = False

    def _request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req) as res:
                return json.loads(res.read())
        except urllib.error.HTTPError as e:
            raise RuntimeError(json.loads(e.read()).get("error", str(e))) from None

    def _observation(self, out):
        import base64

        image = base64.b64decode(out["image_png_base64"]) if out.get("image_png_base64") else b""
        return {"text": out["text"], "image_png": image, "step": out.get("step") or 0, "calls_left": out["budgets"]["callsLeft"]}

    def _info(self, out):
        return {"episode_id": self.episode, "task_id": self.task_id, "outcome": out["outcome"], "end_reason": out.get("end_reason"), "budgets": out["budgets"], "ids": out.get("ids", [])}

    def reset(self, *, seed=None, options=None):
        """Starts an episode. seed seeds the env's own generator (which task, the server-side episode
        seed); options: {"task_id": ...} to pick the task."""
        if seed is not None:
            self.np_random = random.Random(seed)
        options = options or {}
        self.close_episode()
        self.task_id = options.get("task_id") or self.np_random.choice(self.task_ids)
        body = {"task_id": self.task_id, "player": self.player, "seed": self.np_random.randrange(2**32)}
        if self.caps:
            body["caps"] = self.caps
        out = self._request("POST", "/reset", body)
        self.episode = out["episode_id"]
        self._done = bool(out["done"])
        return self._observation(out), self._info(out)

    def step(self, action):
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over (terminated or truncated): call reset()")
        if not isinstance(action, dict) or "tool" not in action:
            raise ValueError('an action is {"tool": name, "args": {...}}')
        out = self._request("POST", "/step", {"episode_id": self.episode, "tool": action["tool"], "args": action.get("args", {})})
        terminated, truncated = bool(out["terminated"]), bool(out["truncated"])
        self._done = bool(out["done"])
        reward = out["training_reward" if self.reward_kind == "training" else "reward"] if self._done else 0.0
        return self._observation(out), float(reward or 0.0), terminated, truncated, self._info(out)

    def close_episode(self):
        if self.episode is not None:
            try:
                self._request("POST", "/close", {"episode_id": self.episode})
            except RuntimeError:
                pass  # already closed by the server (idle timeout)
            self.episode = None

    def close(self):
        self.close_episode()
