"""The suite's TRL check (test/main/eval/python-package.test.ts), driving SplatTRLEnv exactly as
TRL's GRPOTrainer drives an environment_factory (trl/trainer/grpo_trainer.py, TRL 1.13): the
factory is called with no arguments; inspect.getmembers(instance, inspect.ismethod) gives the
tools (every public method but reset and get_reward), each of which transformers'
get_json_schema must accept (it renders them into the chat template); reset(**row) with the
dataset row; tool calls as name(**arguments) with the arguments the model wrote (complex ones as
JSON strings); a result is a string or a list of {"type": "image"|"text"} blocks; the reward
functions get environments=[...].

    SPLATLAB_RL_URL=... SPLATLAB_RL_TOKEN=... python check_trl.py TASK_ID
"""

import inspect
import json
import os
import sys
import urllib.request

from PIL import Image
from transformers.utils import get_json_schema

from splatlab.trl import SplatTRLEnv, training_reward

task_id = sys.argv[1]
req = urllib.request.Request(os.environ["SPLATLAB_RL_URL"] + "/tools?kind=sculpt", headers={"Authorization": "Bearer " + os.environ["SPLATLAB_RL_TOKEN"]})
server_tools = {t["name"]: t["parameters"] for t in json.loads(urllib.request.urlopen(req).read())["tools"]}

factory = SplatTRLEnv
env = factory()
members = dict(inspect.getmembers(env, predicate=inspect.ismethod))
assert "reset" in members, "TRL requires a reset method"
tools = {name: m for name, m in members.items() if name not in ("reset", "get_reward") and not name.startswith("_")}
assert set(tools) == set(server_tools), f"the tools are the server's ten: {sorted(tools)} vs {sorted(server_tools)}"
for name, method in tools.items():
    schema = get_json_schema(method)["function"]
    params = schema["parameters"].get("properties", {})
    want = server_tools[name]
    assert schema["name"] == name and schema["description"], name
    assert set(params) == set(want.get("properties", {})), f"{name}: arguments {sorted(params)} vs the server's {sorted(want.get('properties', {}))}"
    assert set(schema["parameters"].get("required", [])) == set(want.get("required", [])), f"{name}: required arguments differ from the server's"
    assert all(p.get("description") for p in params.values()), f"{name}: every argument is described"
    print(f"ok   get_json_schema accepts {name} ({', '.join(params) or 'no arguments'})")


def is_result(x):
    if isinstance(x, str):
        return True
    return isinstance(x, list) and all(isinstance(p, dict) and (p.get("type") == "text" and isinstance(p["text"], str) or p.get("type") == "image" and isinstance(p["image"], Image.Image)) for p in x)


def has_image(x):
    return isinstance(x, list) and any(p["type"] == "image" for p in x)


# Two rollouts of one GRPO group, each its own environment (TRL's pool).
row = {"prompt": [{"role": "user", "content": "Rebuild the object."}], "task_path": f"tasks/{task_id}.json"}
envs = [env, factory()]
for e in envs:
    first = e.reset(**row)
    assert is_result(first) and has_image(first), "reset returns the reference sheet as an image and the text"

call = lambda e, name, arguments: dict(inspect.getmembers(e, predicate=inspect.ismethod))[name](**arguments)  # noqa: E731
out = call(envs[0], "add_gaussians", {"gaussians": json.dumps([{"pos": [0, 0, 0], "color": "#b04030", "scale": 0.3, "group": "body"}])})
assert is_result(out) and "ERROR" not in str(out), out
out = call(envs[0], "transform_group", {"group": "body", "translate": "[0, 0, 0.05]"})
assert "ERROR" not in str(out), out
out = call(envs[0], "render_views", {"views": "[0, 1]"})
assert is_result(out) and has_image(out), "render_views returns its image as TRL's image block"
out = call(envs[0], "add_gaussians", {"gaussians": "[{\"pos\": [0, 0"})
assert isinstance(out, str) and out.startswith("ERROR") and "not valid JSON" in out, out
out = call(envs[0], "list_gaussians", {})
assert "body" in out, out
print("ok   a scripted rollout's tool calls (JSON-string arguments, images as image blocks, a broken JSON refused)")

# Rollout 0 submits; rollout 1 ends without submitting (the reward function submits for it).
out = call(envs[0], "submit", {})
assert is_result(out)
rewards = training_reward(prompts=[row["prompt"]] * 2, completions=[[], []], environments=envs)
assert all(isinstance(r, float) and 0.0 <= r <= 1.0 for r in rewards), rewards
assert abs(rewards[1] - 1 / 3) < 1e-9, f"an empty scene earns a third of the training reward, got {rewards[1]}"
assert envs[0]._last["training_reward"] == rewards[0]
print(f"ok   the training reward per rollout: {rewards}")
for e in envs:
    assert e.reset(**row) is not None  # the pool reuses an instance: reset closes the old episode
    e._close()
print("the TRL environment passes")
