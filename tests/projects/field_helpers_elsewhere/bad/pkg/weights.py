"""A mask kept static through the lambda helper of another module: an array in static metadata, so the
second jitted call with a new, equal object raises (`Exception raised while checking equality of metadata
fields`)."""
import dataclasses

import jax
import jax.numpy as jnp

from .fields import static_axes, static_field


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Masked:
    values: jax.Array
    shape: tuple = static_axes()
    mask: jax.Array = static_field()  # expect: PTL101


def masked(values):
    return Masked(values, values.shape, jnp.ones(values.shape, bool))


def examples():
    return [masked(jnp.ones(3)), masked(jnp.ones(3))]
