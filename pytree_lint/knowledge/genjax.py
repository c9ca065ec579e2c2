"""genjax: `class C(genjax.Pytree)` is a penzai `Struct` (`Pytree.dataclass` is `pz.pytree_dataclass`),
static with `Pytree.static()` (`dataclasses.field(metadata={"pytree_node": False})`); `Pytree.field()` is a
plain field (genjax 0.10.3, `_src/core/pytree.py`). Unflatten builds with `object.__new__`: no `__init__`
runs."""

from .base import Convention, PytreeLibrary

_PYTREE = ("genjax.Pytree", "genjax.core.Pytree", "genjax._src.core.pytree.Pytree")
LIBRARY = PytreeLibrary(
    "genjax", Convention.PYTREE_NODE,
    decorators=frozenset(f"{base}.dataclass" for base in _PYTREE),
    bases=frozenset(_PYTREE),
    fixed_helpers={f"{base}.static": {"pytree_node": False} for base in _PYTREE},
    plain_fields=frozenset(f"{base}.field" for base in _PYTREE),
)
# `@Pytree.partial()` on a def makes a `Closure` pytree of it (its function static), not a callable leaf.
PYTREE_MAKING_DECORATORS = frozenset(f"{base}.partial" for base in _PYTREE)
