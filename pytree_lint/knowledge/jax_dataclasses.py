"""jax_dataclasses: `@jdc.pytree_dataclass`, static through an outermost `Static[...]` or `static_field()`.
Its unflatten calls the class (`cls(**children, **static)`), so `__init__` and `__post_init__` run."""

from .base import RUNS_INIT, Convention, PytreeLibrary

STATIC_KEY = "__jax_dataclasses_static_field__"
LIBRARY = PytreeLibrary(
    "jax_dataclasses", Convention.JAX_DATACLASSES,
    decorators=frozenset({"jax_dataclasses.pytree_dataclass", "jax_dataclasses._dataclasses.pytree_dataclass"}),
    makes_dataclasses=True,
    fixed_helpers={"jax_dataclasses.static_field": {STATIC_KEY: True},
                   "jax_dataclasses._dataclasses.deprecated_static_field": {STATIC_KEY: True}},
    plain_fields=frozenset({"jax_dataclasses.field"}),
    static_annotations=frozenset({"jax_dataclasses.Static", "jax_dataclasses._dataclasses.Static"}),
    unflatten_runs=RUNS_INIT,
)
