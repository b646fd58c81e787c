"""`SplatLabEnv`: one task family of the lab as a `gymnasium.Env` over `splatlab rl`
(docs/AGENTS.md, "Python: the splatlab package"). Needs the `gym` extra (gymnasium, numpy, pillow).

    env = gymnasium.make("splatlab/SplatLab-v0", url="http://127.0.0.1:8765", token=token, family="splatbench")
    # or SplatLabEnv(url, token, family=...) directly
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step({"tool": "submit", "args": {}})

Action space: Dict(tool: Discrete(n), args: Text) where `tool` indexes `env.tool_names` (the
family's tools as the server lists them) and `args` is the call's arguments as JSON text ("" means
no arguments). Invalid JSON or arguments the schema refuses are refused by the server and cost a
call, as in the environment. `env.unwrapped.action(name, **args)` builds such an action; step also
takes {"tool": name, "args": {...}} (a dict of arguments), the form `splatlab rl` itself reads.
`env.unwrapped.tools` holds each tool's JSON Schema.

Observation space: Dict(text: Text, image: Box(0, 255, (H, W, 3), uint8), image_size: Box (h, w),
step: Discrete, calls_left: Discrete). The call's image (the reference sheet, a render) is drawn
into the top-left of the H x W canvas, scaled down (aspect kept) only when it is larger; image_size
says how much of the canvas it fills ((0, 0): the call returned no image).

Seeds: `reset(seed=N)` seeds the env's generator, which picks the task (unless
`options={"task_id": ...}`) and the seed sent to the server for the episode. The environment is
deterministic: the server-side seed names the episode in its log but changes nothing in it, so two
seeds that pick the same task give identical episodes.

Reward: 0.0 until the end, then the benchmark reward clip(score/100, 0, 1), or with
reward="training" the seed's shifted reward clip((score + 50)/150, 0, 1). terminated: the task
ended (submit, stop, every trial answered, give-up); truncated: the call budget or a cap cut it.
info: the call's outcome {status, code}, the end reason, budgets, new ids and the task id; the
episode id is `env.episode_id` (not in info, which must be equal for equal seeds and actions).
"""

import base64
import io
import json

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from .client import RLClient
from .families import FAMILIES

# The canvas the observation's image is drawn on, per family (the lab's images: SplatBench's
# reference sheets and render grids are about 1000 px wide, search views 512, relation views 224).
CANVAS = {"splatbench": (1280, 1280), "search": (512, 512), "relation": (512, 512)}
# Every character of the Basic Multilingual Plane but the surrogates: the server's texts; a
# character beyond it is shown as U+FFFD.
TEXT_CHARSET = "".join(chr(c) for c in range(0xD800)) + "".join(chr(c) for c in range(0xE000, 0x10000))
MAX_TEXT = 1_000_000
# The JSON text of an action's arguments (a request body is at most 4 MiB).
ARGS_CHARSET = "".join(chr(c) for c in range(0x20, 0x7F))
MAX_ARGS = 1_000_000


def _bmp(text):
    return "".join(ch if ord(ch) < 0x10000 else "\ufffd" for ch in text)


class SplatLabEnv(gym.Env):
    # render_fps: a rendered frame is one call's image; there is no clock (declared for check_env).
    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(self, url=None, token=None, family="splatbench", task_ids=None, player="gym", reward="benchmark", caps=None, canvas=None, render_mode=None, client=None):
        if family not in FAMILIES:
            raise ValueError(f"family must be one of {', '.join(FAMILIES)}")
        if reward not in ("benchmark", "training"):
            raise ValueError('reward must be "benchmark" or "training"')
        if render_mode not in (None, "rgb_array"):
            raise ValueError('render_mode must be None or "rgb_array"')
        self.client = client or RLClient(url, token)
        self.family, self.player, self.reward_kind, self.caps, self.render_mode = family, player, reward, caps, render_mode
        entries = self.client.tasks()
        known = {e["id"]: e for e in entries if e["family"] == family}
        if task_ids is not None:
            unknown = [t for t in task_ids if t not in known]
            if unknown:
                raise ValueError(f"not {family} tasks of this server: {', '.join(unknown)}")
        self.task_ids = sorted(task_ids or known)
        if not self.task_ids:
            raise ValueError(f"the server has no {family} task")
        self.tools = {t["name"]: t for t in self.client.tools(known[self.task_ids[0]]["kind"])}
        self.tool_names = list(self.tools)
        max_calls = max(known[t]["budgets"]["max_tool_calls"] for t in self.task_ids)
        h, w = canvas or CANVAS[family]
        self.action_space = spaces.Dict({"tool": spaces.Discrete(len(self.tool_names)), "args": spaces.Text(MAX_ARGS, charset=ARGS_CHARSET)})
        self.observation_space = spaces.Dict(
            {
                "text": spaces.Text(MAX_TEXT, charset=TEXT_CHARSET),
                "image": spaces.Box(0, 255, (h, w, 3), np.uint8),
                "image_size": spaces.Box(0, max(h, w), (2,), np.int64),
                "step": spaces.Discrete(max_calls + 1),
                "calls_left": spaces.Discrete(max_calls + 1),
            }
        )
        self.episode_id = None
        self.task_id = None
        self._done = False
        self._last_image = np.zeros((h, w, 3), np.uint8)

    def action(self, tool, **args):
        """The action that calls `tool` with `args` (keyword arguments, JSON-encodable)."""
        if tool not in self.tools:
            raise ValueError(f"{tool!r} is not a {self.family} tool ({', '.join(self.tool_names)})")
        return {"tool": self.tool_names.index(tool), "args": json.dumps(args) if args else ""}

    def _image(self, b64):
        h, w = self.observation_space["image"].shape[:2]
        canvas = np.zeros((h, w, 3), np.uint8)
        if not b64:
            return canvas, np.zeros(2, np.int64)
        img = Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")
        if img.width > w or img.height > h:
            img.thumbnail((w, h), Image.Resampling.LANCZOS)
        pixels = np.asarray(img, dtype=np.uint8)
        canvas[: pixels.shape[0], : pixels.shape[1]] = pixels
        return canvas, np.array(pixels.shape[:2], np.int64)

    def _observation(self, out):
        image, size = self._image(out.get("image_png_base64"))
        if size[0] > 0:
            self._last_image = image
        budgets = out["budgets"]
        return {
            "text": _bmp(out["text"])[:MAX_TEXT],
            "image": image,
            "image_size": size,
            "step": int(out.get("step") or 0),
            "calls_left": int(budgets["callsLeft"]),
        }

    def _info(self, out):
        return {"task_id": self.task_id, "outcome": out["outcome"], "end_reason": out.get("end_reason"), "budgets": out["budgets"], "ids": out.get("ids") or []}

    def reset(self, *, seed=None, options=None):
        """Starts an episode (closing the one before). seed: seeds the env's generator (the task
        and the server-side episode seed; see the module's "Seeds"). options: {"task_id": ...}
        picks the task; {"caps": {...}} overrides the env's caps for this episode."""
        super().reset(seed=seed)
        options = options or {}
        self._close_episode()
        task_id = options.get("task_id")
        if task_id is not None and task_id not in self.task_ids:
            raise ValueError(f"{task_id!r} is not one of this env's {self.family} tasks")
        self.task_id = task_id or self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        server_seed = int(self.np_random.integers(2**31))
        out = self.client.reset(self.task_id, self.player, server_seed, options.get("caps", self.caps))
        self.episode_id = out["episode_id"]
        self._done = bool(out["done"])
        return self._observation(out), self._info(out)

    def step(self, action):
        if self.episode_id is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over (terminated or truncated): call reset()")
        if not isinstance(action, dict) or not set(action) <= {"tool", "args"} or "tool" not in action:
            raise ValueError('an action is {"tool": index into env.tool_names or a name, "args": JSON text or a dict}')
        tool = action["tool"] if isinstance(action["tool"], str) else self.tool_names[int(action["tool"])]
        args = action.get("args")
        out = self.client.step(self.episode_id, tool, {} if args in ("", None) else args)
        terminated, truncated = bool(out["terminated"]), bool(out["truncated"])
        self._done = bool(out["done"])
        reward = out["training_reward" if self.reward_kind == "training" else "reward"] if self._done else 0.0
        return self._observation(out), float(reward or 0.0), terminated, truncated, self._info(out)

    def render(self):
        """The last image the episode returned (the reference sheet, a render), on the canvas."""
        return self._last_image.copy() if self.render_mode == "rgb_array" else None

    def _close_episode(self):
        if self.episode_id is not None:
            self.client.close(self.episode_id)
            self.episode_id = None

    def close(self):
        self._close_episode()


# gymnasium.make("splatlab/SplatLab-v0", url=..., token=..., family=...): a spec lets
# check_env also build the env for its render and close checks.
gym.register(id="splatlab/SplatLab-v0", entry_point="splatlab.gym:SplatLabEnv")
