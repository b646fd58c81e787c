"""The suite's check of the package's standard-library core (test/main/eval/python-package.test.ts),
run without any extra: the RL client against a live `splatlab rl` (tasks, tools, reset, a step
charged once under a request id, a refused call as an outcome, reward, close), the families, and
the Inspect parts that need no inspect-ai: every tool schema of every kind converted to the keys
Inspect's JSONSchema model holds (inspect_ai src/inspect_ai/util/_json.py), the dataset rows and
the score fields.

    python check_core.py URL TOKEN
"""

import sys

from splatlab import FAMILIES, RLClient, RLError, family_of
from splatlab.families import ENDING_CALL
from splatlab.schema import inspect_schema, score_fields, task_rows

# The fields of inspect_ai.util.JSONSchema (src/inspect_ai/util/_json.py, 2026-08).
INSPECT_KEYS = {"type", "format", "description", "default", "enum", "items", "properties", "additionalProperties", "anyOf", "required", "pattern", "minLength", "maxLength", "minimum", "maximum", "examples"}
JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object", "null"}


def inspect_shaped(schema, where):
    assert isinstance(schema, dict), where
    extra = set(schema) - INSPECT_KEYS
    assert not extra, f"{where}: keys Inspect's JSONSchema has no field for: {extra}"
    t = schema.get("type")
    assert t is None or t in JSON_TYPES or (isinstance(t, list) and set(t) <= JSON_TYPES), f"{where}: type {t}"
    if t == "array":
        assert isinstance(schema.get("items"), dict), f"{where}: an array says its items"
    for k, v in (schema.get("properties") or {}).items():
        inspect_shaped(v, f"{where}.{k}")
    for i, v in enumerate(schema.get("anyOf") or []):
        inspect_shaped(v, f"{where}|{i}")
    if isinstance(schema.get("items"), dict):
        inspect_shaped(schema["items"], f"{where}[]")


url, token = sys.argv[1:3]
client = RLClient(url, token)
entries = client.tasks()
families = {family_of(e["kind"]) for e in entries}
print(f"ok   {len(entries)} tasks of the families {sorted(families)}")
for family, kinds in FAMILIES.items():
    for kind in kinds:
        if not any(e["kind"] == kind for e in entries):
            continue
        tools = client.tools(kind)
        names = {t["name"] for t in tools}
        assert ENDING_CALL[family][0] in names, f"{kind}: the ending call is a tool"
        for t in tools:
            converted = inspect_schema(t["parameters"])
            inspect_shaped(converted, f"{kind}.{t['name']}")
            assert set(converted.get("properties", {})) == set(t["parameters"].get("properties", {})), t["name"]
        print(f"ok   the {kind} tools convert to Inspect's JSON Schema ({len(tools)})")
    if family in families:
        rows = task_rows(entries, family)
        assert rows and all(r["task_id"] for r in rows)
        print(f"ok   {len(rows)} {family} samples")

entry = next(e for e in entries if e["kind"] == "sculpt")
out = client.reset(entry["id"], "python-core", seed=3)
assert out["done"] is False and out["image_png_base64"] and out["text"]
episode = out["episode_id"]
bad = client.step(episode, "add_gaussians", '{"gaussians": [')
assert bad["outcome"] == {"status": "refused", "code": "invalid_json"}, bad["outcome"]
ok = client.step(episode, "add_gaussians", {"gaussians": [{"pos": [0, 0, 0], "color": "#808080", "scale": 0.2}]})
assert ok["outcome"]["status"] == "ok" and ok["budgets"]["callsLeft"] == out["budgets"]["callsLeft"] - 2, ok["budgets"]
try:
    client.reward(episode)
    raise AssertionError("the reward is terminal")
except RLError as e:
    assert e.status == 409
end = client.step(episode, "submit", {})
assert end["done"] and end["terminated"] and 0.0 <= end["reward"] <= 1.0
assert client.reward(episode)["training_reward"] == end["training_reward"]
fields = score_fields(end, "splatbench")
assert fields["value"] == end["reward"] and fields["metadata"]["training_reward"] == end["training_reward"]
client.close(episode)
client.close(episode)
print("ok   reset, a refused call as an outcome, a step, the terminal reward, close (twice)")
print("the standard-library core passes")
