"""A class another module's decorator registers with an unflatten that rebuilds it without calling it: its
validating `__post_init__` runs only when the program builds one."""
import jax
import jax.numpy as jnp

from .trees import pytree


@pytree
class Normal:
    loc: jax.Array
    scale: jax.Array

    def __post_init__(self):
        if jnp.any(self.scale <= 0):
            raise ValueError("scale must be positive")


def examples():
    return [Normal(jnp.zeros(2), jnp.ones(2)), Normal(jnp.zeros(2), jnp.ones(2))]
