"""Inspect AI's entry point for this package (pyproject's [project.entry-points.inspect_ai];
inspect_ai docs/extensions-components.qmd): importing the tasks registers them as
splatlab/splatbench, splatlab/search and splatlab/relation."""

from .inspect import relation, search, splatbench  # noqa: F401
