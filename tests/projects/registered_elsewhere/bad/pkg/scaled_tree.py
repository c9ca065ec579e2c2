"""Registers `Scaled` (another module's class): its array-annotated `scale` goes to aux_data."""
import jax.numpy as jnp
import jax.tree_util as jtu

from .model import Scaled


def flatten_scaled(s):
    return (s.values,), (s.scale,)  # expect: PTL101


def unflatten_scaled(aux, children):
    return Scaled(children[0], aux[0])


jtu.register_pytree_node(Scaled, flatten_scaled, unflatten_scaled)


def examples():
    return [Scaled(jnp.ones(3), jnp.array([1.0, 2.0])), Scaled(jnp.ones(3), jnp.array([1.0, 2.0]))]
