"""The lab's task families as the Python package sees them (docs/AGENTS.md, "Python: the splatlab package"):
which task kinds share one set of tools, and the call that ends an episode of each family
without a further choice (SplatBench's submit, search's stop with "I do not know", relation's
give-up answer): each kind's `giveUp` in src/shared/kinds/*/kind.ts, the call the eval runners
make. Standard library only."""

FAMILIES = {
    "splatbench": ("sculpt", "reassembly", "oneshot"),
    "search": ("search",),
    "relation": ("relation",),
}

# The call that ends an episode of the family without a further choice by the player.
ENDING_CALL = {
    "splatbench": ("submit", {}),
    "search": ("stop", {"answer": "I do not know"}),
    "relation": ("answer", {"give_up": True}),
}


def family_of(kind):
    """The family a task kind belongs to (ValueError for a kind the package does not know)."""
    for family, kinds in FAMILIES.items():
        if kind in kinds:
            return family
    raise ValueError(f"unknown task kind {kind!r} (known: {', '.join(k for ks in FAMILIES.values() for k in ks)})")
