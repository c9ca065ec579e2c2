import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

from .cast import to_float, to_int


@register_pytree_node_class
class Photons:
    """How many photons (an int when given one) and their fluxes."""

    def __init__(self, count, scale=1.0):
        self.count = to_int(count)
        self.scale = to_float(scale)
        self.flux = jnp.ones(self.count)

    def tree_flatten(self):
        return (self.flux,), (self.count, self.scale)

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.count, obj.scale = aux
        (obj.flux,) = children
        return obj


def examples():
    return [Photons(3), Photons(3, 2.0)]
