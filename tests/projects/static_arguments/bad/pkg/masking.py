import jax.numpy as jnp

from .typing import Array
from .utils import jit_static_mask


@jit_static_mask  # expect: PTL405
def apply_mask(x: Array, mask: Array) -> Array:
    return jnp.where(mask, x, 0.0)


def reproduce():
    from .loss import loss

    return loss(jnp.ones(3), jnp.ones(3))
