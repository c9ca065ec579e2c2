"""equinox: `eqx.Module` subclasses, static with `eqx.field(static=True)` / `eqx.static_field()`.

Its filter transformations treat non-array leaves as static, so its non-static fields are not judged as
jit leaves, and equinox never runs `__init__` on unflatten."""

from .base import Convention, FlagHelper, PytreeLibrary

_FIELD = FlagHelper("static", "static", False)
LIBRARY = PytreeLibrary(
    "equinox", Convention.STATIC,
    bases=frozenset({"equinox.Module", "equinox._module.Module", "equinox._module._module.Module"}),
    flag_helpers={"equinox.field": _FIELD, "equinox._module.field": _FIELD, "equinox._module._field.field": _FIELD},
    fixed_helpers={name: {"static": True} for name in (
        "equinox.static_field", "equinox._module.static_field", "equinox._module._field.static_field")},
    fields_are_children=False,
    frozen_dataclasses=True,
    compares_leaves=True,  # `Module.__eq__` is `equinox.tree_equal` (equinox 0.13.8)
)
