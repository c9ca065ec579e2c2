"""A helper calls a jitted function with its own parameter as the static argument, and its one caller gives
it an array: the call raises (the jitted call moved into a helper, as haiku-geometric's `_count_occurrences`
would be)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def occurrences(values, size):
    return jnp.zeros(size).at[values].add(1)


def counts_of(values, size):
    return occurrences(values, size), size  # expect: PTL403


def count(values):
    size = jnp.max(values) + 1
    counted, _size = counts_of(values, size)
    return counted


def reproduce():
    """The helper's one caller gives it an array for the static argument: the call raises."""
    return [lambda: count(jnp.array([0, 1, 1]))]
