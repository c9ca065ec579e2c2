"""A jitted function with a static parameter, and two classes that keep what they are given for it: one
another module builds with a list passes `self.sizes` on, and every call of it raises."""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="widths")
def pad(x, widths):
    return jnp.pad(x, widths)


@partial(jax.jit, static_argnums=1)
def piecewise(step, boundaries):
    return sum(step > boundary for boundary in boundaries)


@dataclass
class PadConfig:
    widths: list
    value: float = 0.0


class Padder:
    def __init__(self, sizes):
        self.sizes = sizes

    def __call__(self, x):
        return pad(x, widths=self.sizes)  # expect: PTL403


def reproduce():
    from .run import pad_twice

    return pad_twice(jnp.ones(3))
