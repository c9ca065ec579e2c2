"""Registers `Box` (another module's class) with every array attribute a child."""
import jax.numpy as jnp
import jax.tree_util as jtu

from .model import Box

jtu.register_pytree_node(
    Box,
    lambda b: ((b.low, b.high), (b.dim,)),
    lambda aux, children: Box(*children, *aux),
)


def run():
    return jtu.tree_map(lambda x: x, Box(jnp.zeros(2), jnp.ones(2), 2))
