"""A None in the first tree given to a wrapper (another module's) of a function that maps it first."""
import jax.numpy as jnp

from .optim import apply


def reproduce():
    params = {"w": jnp.ones(3), "b": None}
    return apply(params, {"w": jnp.ones(3), "b": jnp.zeros(1)})  # expect: PTL204
