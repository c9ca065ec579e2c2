import jax.numpy as jnp

from .offsets import zero_offsets
from .step import Step


def make_step(x, rate=0.5):
    return Step(x, jnp.full(2, 2.0), shift=zero_offsets(x), rate=rate)
