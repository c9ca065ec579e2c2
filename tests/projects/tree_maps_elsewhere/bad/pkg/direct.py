"""A None in the first tree given to another module's function that maps its parameters as the trees."""
import jax.numpy as jnp

from .trees import add_updates


def reproduce():
    return add_updates({"w": jnp.ones(3), "b": None}, {"w": jnp.ones(3), "b": jnp.zeros(1)})  # expect: PTL204
