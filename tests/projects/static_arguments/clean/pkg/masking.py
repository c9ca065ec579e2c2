import jax.numpy as jnp

from .typing import Array
from .utils import jit_static_mask


@jit_static_mask
def apply_mask(x: Array, mask: tuple[bool, ...]) -> Array:
    return jnp.where(jnp.array(mask), x, 0.0)
