"""A class another module's decorator registers with an unflatten that calls the class: its validating
`__post_init__` runs on every unflatten and, under `jax.jit`, compares tracers and raises."""
import jax
import jax.numpy as jnp

from .trees import pytree


@pytree
class Normal:
    loc: jax.Array
    scale: jax.Array

    def __post_init__(self):  # expect: PTL301
        if jnp.any(self.scale <= 0):
            raise ValueError("scale must be positive")


def examples():
    return [Normal(jnp.zeros(2), jnp.ones(2)), Normal(jnp.zeros(2), jnp.ones(2))]
