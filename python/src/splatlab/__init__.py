"""SplatLab for Python: the lab's tasks over its RL protocol (docs/AGENTS.md, "Python: the
splatlab package"). The core (`splatlab.client`, `splatlab.families`) is standard library only;
`splatlab.gym`, `splatlab.trl` and `splatlab.inspect` need their extras (gym, trl, inspect) and
are imported by name so that a missing extra fails only where it is used."""

from .client import RLClient, RLError
from .families import FAMILIES, family_of

__all__ = ["RLClient", "RLError", "FAMILIES", "family_of"]
__version__ = "0.1.0"
