"""A None in a later tree only (passed to the function as a leaf), and a map that admits None as a leaf."""
import jax.numpy as jnp

from .trees import add_updates, add_where_given


def run():
    later = add_updates({"w": jnp.ones(3), "b": jnp.zeros(1)}, {"w": jnp.ones(3), "b": None})
    given = add_where_given({"w": jnp.ones(3), "b": None}, {"w": jnp.ones(3), "b": jnp.zeros(1)})
    return later, given
