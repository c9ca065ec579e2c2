"""Default boxes: the metadata passes through a helper of this module to another module's builder; it is
an array, and the second jitted call with a new, equal box raises."""
import jax.numpy as jnp

from .box_builders import build_box


def with_meta(x, meta):
    return build_box(x, meta)


def default_box(x):
    return with_meta(x, jnp.arange(2))
