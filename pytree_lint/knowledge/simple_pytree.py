"""simple_pytree: `class L(Pytree)` with `static_field()` or `field(pytree_node=False)`."""

from .base import Convention, FlagHelper, PytreeLibrary

_FIELD = FlagHelper("pytree_node", "pytree_node", True)
LIBRARY = PytreeLibrary(
    "simple_pytree", Convention.PYTREE_NODE,
    bases=frozenset({"simple_pytree.Pytree", "simple_pytree.pytree.Pytree"}),
    flag_helpers={"simple_pytree.field": _FIELD, "simple_pytree.dataclass.field": _FIELD},
    fixed_helpers={"simple_pytree.static_field": {"pytree_node": False},
                   "simple_pytree.dataclass.static_field": {"pytree_node": False}},
)
