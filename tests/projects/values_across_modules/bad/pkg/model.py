from functools import partial

import jax

from . import DEFAULTS
from .helpers import make_mask


@jax.tree_util.register_pytree_node_class
class Masked:
    """Values with a fixed validity mask."""

    def __init__(self, values, k=None):
        self.values = values
        self.mask = make_mask(values.shape[0], k)

    def tree_flatten(self):
        return (self.values,), (self.mask,)  # expect: PTL101

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        (obj.values,), (obj.mask,) = children, aux
        return obj


@partial(jax.jit, static_argnums=1)
def apply(masked, settings):
    return masked.values * settings["width"]


def run(masked):
    return apply(masked, DEFAULTS)  # expect: PTL403


def reproduce():
    import jax.numpy as jnp

    return run(Masked(jnp.ones(4), 2))
