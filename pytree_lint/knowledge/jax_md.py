"""jax_md: `@jax_md.dataclasses.dataclass` with `dataclasses.static_field()`."""

from .base import Convention, PytreeLibrary

LIBRARY = PytreeLibrary(
    "jax_md", Convention.STATIC,
    decorators=frozenset({"jax_md.dataclasses.dataclass"}),
    makes_dataclasses=True,
    fixed_helpers={"jax_md.dataclasses.static_field": {"static": True, "pytree_node": False}},
    plain_fields=frozenset({"jax_md.dataclasses.field"}),
)
