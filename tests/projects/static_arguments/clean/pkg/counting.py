"""A helper calls a jitted function with its own parameter as the static argument, and each of its callers
gives it a Python int (or what is not known: one caller's own parameter)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def occurrences(values, size):
    return jnp.zeros(size).at[values].add(1)


def counts_of(values, size):
    return occurrences(values, size), size


def count(values):
    size = int(jnp.max(values)) + 1
    counted, _size = counts_of(values, size)
    return counted


def count_within(values, size):
    return counts_of(values, size)[0]
