"""netket: `@nk.utils.struct.dataclass` or `class S(struct.Pytree)`, static with
`struct.field(pytree_node=False)` / `struct.static_field()`; `pytree_ignore=True` fields are neither.
`mutable=True` pytrees are host-side state (drivers, callbacks, loggers, integrators) netket never jits."""

from .base import Convention, FlagHelper, PytreeLibrary

_FIELD = FlagHelper("pytree_node", "pytree_node", True)
IGNORE_KEYWORD = "pytree_ignore"
LIBRARY = PytreeLibrary(
    "netket", Convention.PYTREE_NODE,
    decorators=frozenset({"netket.utils.struct.dataclass", "netket.utils.struct.dataclass.dataclass"}),
    makes_dataclasses=True,
    bases=frozenset({"netket.utils.struct.Pytree", "netket.utils.struct.pytree.Pytree"}),
    flag_helpers={"netket.utils.struct.field": _FIELD, "netket.utils.struct.fields.field": _FIELD},
    fixed_helpers={"netket.utils.struct.static_field": {"pytree_node": False},
                   "netket.utils.struct.fields.static_field": {"pytree_node": False}},
    host_state_keyword="mutable",  # `class Driver(struct.Pytree, mutable=True)`
)
