import jax.numpy as jnp

from .masking import apply_mask
from .train import weighted_sum
from .typing import Array


def loss(x: Array, w: Array) -> Array:
    masked = apply_mask(x, jnp.ones(3) > 0)  # PTL405 in masking.py says it: the declaration is wrong
    return weighted_sum(masked, weights=w)  # PTL405 in train.py: `w` is annotated as an array
