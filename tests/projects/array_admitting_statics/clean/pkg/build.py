import jax.numpy as jnp

from .offsets import zero_offset
from .step import Step


def make_step(x, scale=2.0, rate=0.5):
    return Step(x, scale, shift=zero_offset(x), rate=rate)


def make_steps(n):
    return [make_step(jnp.ones(2), scale=float(k)) for k in range(n)]
