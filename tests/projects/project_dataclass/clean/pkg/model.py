import jax
import jax.numpy as jnp

from .struct import frozen, pytree_dataclass


@pytree_dataclass
class Gaussian:
    mean: jax.Array
    scale: jax.Array


def make_gaussian(mean, scale) -> Gaussian:
    if jnp.shape(scale) != jnp.shape(mean):
        raise ValueError("mean and scale must have the same shape")
    return Gaussian(mean, scale)


@frozen
class Probabilities:
    p: jax.Array
