import jax
import jax.numpy as jnp

from .struct import frozen, pytree_dataclass


@pytree_dataclass
class Gaussian:
    mean: jax.Array
    scale: jax.Array

    def __post_init__(self):  # expect: PTL301
        if self.scale.shape != self.mean.shape:
            raise ValueError("mean and scale must have the same shape")


@frozen
class Probabilities:
    p: jax.Array

    def __post_init__(self):  # expect: PTL301
        object.__setattr__(self, "p", jnp.asarray(self.p))
