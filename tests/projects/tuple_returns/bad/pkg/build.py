"""Boxes whose aux_data is the array element of what another module's helpers return: unpacked, indexed,
and through a helper of a helper."""
from .halves import half_mask, halves
from .helpers import split
from .model import Box


def boxed(values, keep):
    mask, _count = split(values, keep)
    return Box(values, mask)


def boxed_in_half(values):
    return Box(values, half_mask(values))


def boxed_by_halves(values):
    mask, _count = halves(values)
    return Box(values, mask)


def examples():
    import jax.numpy as jnp

    return [boxed(jnp.ones(4), 2), boxed(jnp.ones(4), 2)]
