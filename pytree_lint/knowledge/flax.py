"""flax.struct (flax.nnx, whose classes are pytrees in another way: knowledge/nnx.py)."""

from .base import RUNS_INIT, Convention, FlagHelper, PytreeLibrary

STRUCT = PytreeLibrary(
    "flax.struct", Convention.PYTREE_NODE,
    decorators=frozenset({"flax.struct.dataclass"}),
    makes_dataclasses=True,
    frozen_dataclasses=True,
    bases=frozenset({"flax.struct.PyTreeNode"}),
    flag_helpers={"flax.struct.field": FlagHelper("pytree_node", "pytree_node", True)},
    unflatten_runs=RUNS_INIT,
)
# `flax.struct.field(init=False)` fields are no constructor arguments, as with dataclasses.field.
INIT_FALSE_FIELDS = frozenset({"dataclasses.field", "flax.struct.field"})
