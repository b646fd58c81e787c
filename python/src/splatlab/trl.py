"""`SplatTRLEnv`: SplatBench for TRL's GRPO (`GRPOTrainer(environment_factory=...)`), as the seed
describes it (docs/AGENTS.md, "Python: the splatlab package"): one environment per rollout, the
ten tools as methods (their docstrings are the tool schemas transformers' `get_json_schema`
builds), complex arguments as JSON strings (small open models write those more reliably than
nested schemas), images as TRL's multimodal tool results, and the shifted training reward
clip((SplatScore + 50) / 150, 0, 1) as a reward function. Needs the `trl` extra (transformers,
pillow; TRL itself for training).

    from splatlab.trl import SplatTRLEnv, training_reward
    trainer = GRPOTrainer(model=..., train_dataset=Dataset.from_list([
        {"prompt": [{"role": "user", "content": "Rebuild the object."}], "task_path": "tasks/mushroom__sculpt.json"}]),
        environment_factory=SplatTRLEnv, reward_funcs=training_reward, args=GRPOConfig(max_tool_calling_iterations=24))

How TRL drives it (trl/trainer/grpo_trainer.py): it calls the factory with no arguments (the server
comes from $SPLATLAB_RL_URL and $SPLATLAB_RL_TOKEN, or use `env_factory(url, token, ...)`), calls
`reset(**row)` with the dataset row (a `task_path` or `task_id` column names the task), exposes
every public method but `reset` as a tool, calls it with the model's arguments, and passes the
environments to each reward function. A tool's result is a string, or with images a list
[{"type": "image", "image": PIL.Image}, {"type": "text", "text": ...}].
"""

import base64
import functools
import io
import json
import os

from .client import RLClient

try:
    from PIL import Image
except ImportError:  # images=False needs no Pillow
    Image = None


class SplatTRLEnv:
    def __init__(self, url=None, token=None, images=True, player="trl", caps=None):
        if images and Image is None:
            raise ImportError("images=True needs Pillow: pip install 'splatlab[trl]'")
        self._client = RLClient(url, token)
        self._images, self._player, self._caps = images, player, caps
        self._episode = None
        self._done = False
        self._last = None

    def reset(self, task_path=None, task_id=None, **_row):
        """Starts the rollout's episode on the row's task (`task_id`, or `task_path` such as
        "tasks/mushroom__sculpt.json") and returns the first observation (reference sheet and text)."""
        task = task_id or (os.path.basename(task_path)[: -len(".json")] if task_path and task_path.endswith(".json") else task_path)
        if not task:
            raise ValueError("the dataset row names no task: give it a task_id or task_path column")
        self._close()
        out = self._client.reset(task, self._player, caps=self._caps)
        self._episode, self._done, self._last = out["episode_id"], bool(out["done"]), out
        return self._result(out)

    def _result(self, out):
        if self._images and out.get("image_png_base64"):
            image = Image.open(io.BytesIO(base64.b64decode(out["image_png_base64"]))).convert("RGB")
            return [{"type": "image", "image": image}, {"type": "text", "text": out["text"]}]
        return out["text"]

    def _call(self, tool, args):
        if self._episode is None:
            raise RuntimeError("reset() first")
        if self._done:
            return "ERROR: the episode is over."
        out = self._client.step(self._episode, tool, args)
        self._done, self._last = bool(out["done"]), out
        return self._result(out)

    def _call_json(self, tool, json_args, plain=None):
        """Decodes the JSON-string arguments (None: left out) and adds the plain ones; when one is
        not JSON the whole call goes to the server as arguments text, which refuses it
        (invalid_json) and charges it, as the environment does."""
        args = {k: v for k, v in (plain or {}).items() if v is not None}
        for name, value in json_args.items():
            if value is None:
                continue
            if not isinstance(value, str):
                args[name] = value  # a model that wrote the structure itself
                continue
            try:
                args[name] = json.loads(value)
            except ValueError:
                parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in args.items()] + [f"{json.dumps(name)}: {value}"]
                return self._call(tool, "{" + ", ".join(parts) + "}")
        return self._call(tool, args)

    def _reward(self):
        """The training reward clip((SplatScore + 50) / 150, 0, 1), ending the episode first
        (submit) when the rollout did not. A method, not a property: TRL's inspect.getmembers
        reads every attribute of the environment."""
        if self._episode is None:
            return 0.0
        if not self._done:
            self._call("submit", {})
        return float(self._last.get("training_reward") or 0.0)

    def _close(self):
        if self._episode is not None:
            self._client.close(self._episode)
            self._episode = None

    def add_gaussians(self, gaussians: str) -> str:
        """Add Gaussians; atomic: if any item is invalid nothing is added. Returns the new ids. Cost: 1 call.

        Args:
            gaussians: JSON list of objects {"pos": [x, y, z] in [-1.25, 1.25], "color": "#rrggbb" or [r, g, b] in [0, 1], "scale"?: number or [sx, sy, sz] (default 0.05), "rot"?: [rx, ry, rz] degrees or [w, x, y, z], "opacity"?: number in [0.05, 1], "group"?: label}.
        """
        return self._call_json("add_gaussians", {"gaussians": gaussians})

    def edit_gaussians(self, gaussians: str) -> str:
        """Edit existing Gaussians; atomic: an invalid item voids the whole call. Cost: 1 call.

        Args:
            gaussians: JSON list of objects {"id": id, and any of "pos", "color", "scale", "rot", "opacity", "group" (null removes the label)} replacing those fields.
        """
        return self._call_json("edit_gaussians", {"gaussians": gaussians})

    def delete_gaussians(self, ids: str = None, group: str = None) -> str:
        """Delete Gaussians by ids or by group (give at least one; both delete the union). Cost: 1 call.

        Args:
            ids: JSON list of Gaussian ids, e.g. "[3, 4]".
            group: Delete every Gaussian of this group.
        """
        return self._call_json("delete_gaussians", {"ids": ids}, {"group": group})

    def transform_group(self, group: str = None, ids: str = None, translate: str = None, rotate_deg: str = None, scale: str = None) -> str:
        """Move a group (or a list of ids) rigidly about its centroid: scale, then rotate, then translate. Cost: 1 call.

        Args:
            group: The group to move as one rigid piece.
            ids: JSON list of Gaussian ids to move instead of (or with) a group.
            translate: JSON [dx, dy, dz], applied last.
            rotate_deg: JSON number (degrees about the vertical Z axis) or [rx, ry, rz] XYZ Euler degrees.
            scale: JSON number or [kx, ky, kz], positive, about the centroid.
        """
        return self._call_json("transform_group", {"ids": ids, "translate": translate, "rotate_deg": rotate_deg, "scale": scale}, {"group": group})

    def list_gaussians(self, group: str = None) -> str:
        """List Gaussians, one text row each (id, pos, scale, rot, color, opacity, group). Cost: 1 call.

        Args:
            group: Only this group.
        """
        return self._call_json("list_gaussians", {}, {"group": group})

    def describe_groups(self) -> str:
        """Per group: count, centroid, bounding box and mean colour. Cost: 1 call."""
        return self._call("describe_groups", {})

    def view_references(self, views: str = None) -> str:
        """Show the reference photos again as a labelled contact sheet. Cost: 1 call.

        Args:
            views: JSON list of reference views by index or name, e.g. "[0, 1]" or "[\\"V0\\"]". Default: all.
        """
        return self._call_json("view_references", {"views": views})

    def render_views(self, views: str = None, groups: str = None) -> str:
        """Render the scene from reference cameras: photo, render and difference per view, with PSNR, SSIM and silhouette IoU. Cost: 1 call and 1 render.

        Args:
            views: JSON list of reference views by index or name, e.g. "[0, 1, 6, 7]". Default: all.
            groups: JSON list of groups to render alone. Default: the whole scene.
        """
        return self._call_json("render_views", {"views": views, "groups": groups})

    def render_angle(self, azimuth: float, elevation: float, groups: str = None) -> str:
        """Render the scene from any orbit angle (no photo to compare with). Cost: 1 call and 1 render.

        Args:
            azimuth: Degrees in the XY plane from +X towards +Y.
            elevation: Degrees from the XY plane towards +Z, in [-90, 90].
            groups: JSON list of groups to render alone. Default: the whole scene.
        """
        return self._call_json("render_angle", {"groups": groups}, {"azimuth": azimuth, "elevation": elevation})

    def submit(self) -> str:
        """End the episode; the scene is graded. Cost: 1 call."""
        return self._call("submit", {})


def training_reward(environments=None, **_kwargs):
    """TRL reward function: each rollout's training reward clip((SplatScore + 50) / 150, 0, 1)
    (an empty scene earns 1/3), submitting first for a rollout that did not."""
    if environments is None:
        raise ValueError("training_reward reads the rollouts' environments: use it with environment_factory=SplatTRLEnv")
    return [env._reward() for env in environments]


def env_factory(url=None, token=None, images=True, player="trl", caps=None):
    """A zero-argument factory for `environment_factory=` with the server and options given here."""
    return functools.partial(SplatTRLEnv, url=url, token=token, images=images, player=player, caps=caps)
