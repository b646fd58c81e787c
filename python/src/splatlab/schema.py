"""The plain-Python parts of the Inspect tasks (splatlab/inspect.py), standard library only so
the suite checks them without inspect-ai: the server's JSON Schemas in the subset Inspect's
JSONSchema model holds, the dataset rows of a family, and a sample's score fields."""

import fnmatch


def inspect_schema(schema):
    """The server's JSON Schema (from the lab's zod schemas) in the subset Inspect's JSONSchema
    model holds: tuple arrays (prefixItems) become arrays of their item type (the description
    says the length), `items: false` and the bounds Inspect has no field for are dropped."""
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "prefixItems":
            kinds = [inspect_schema(v) for v in value]
            if "items" not in schema or schema["items"] is False:
                out["items"] = kinds[0] if all(k == kinds[0] for k in kinds) else {"anyOf": kinds}
        elif key == "items":
            if value is not False:
                out["items"] = inspect_schema(value)
        elif key in ("properties",):
            out[key] = {k: inspect_schema(v) for k, v in value.items()}
        elif key == "anyOf":
            out[key] = [inspect_schema(v) for v in value]
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = inspect_schema(value)
        elif key in ("type", "description", "enum", "required", "additionalProperties", "minimum", "maximum", "minLength", "maxLength", "default", "pattern", "format"):
            out[key] = value
    return out



def task_rows(entries, family, tasks="*", split=None):
    """The family's task registry entries as sample rows (a glob on the ids, an optional split),
    sorted by id; ValueError when none matches."""
    rows = [
        {"task_id": e["id"], "kind": e["kind"], "split": e["split"], "content_hash": e["content_hash"]}
        for e in sorted(entries, key=lambda e: e["id"])
        if e["family"] == family and fnmatch.fnmatch(e["id"], tasks) and (not split or e["split"] == split)
    ]
    if not rows:
        raise ValueError(f"no {family} task matches {tasks!r}" + (f" in split {split}" if split else ""))
    return rows


def score_fields(out, family):
    """A sample's Score fields from the episode's final answer: the server's reward (SplatBench:
    clip(SplatScore/100, 0, 1), the training reward in metadata; search: success; relation:
    accuracy)."""
    if out is None:
        return {"value": 0.0, "explanation": "the episode never started"}
    reward = float(out.get("reward") or 0.0)
    return {"value": reward, "explanation": f"{family} reward {reward:.4f}", "metadata": {"training_reward": out.get("training_reward")}}
