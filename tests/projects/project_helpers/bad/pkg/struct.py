import dataclasses

import jax


def pytree_dataclass(cls):
    """A frozen dataclass registered with JAX; fields made with `static_field` go to aux_data."""
    return jax.tree_util.register_dataclass(dataclasses.dataclass(frozen=True)(cls))
