"""A layer of a third module, registered by the metaclass of its base's: its own flatten puts its array
mask in aux_data, and the second jitted call with a new, equal mask raises."""
import jax.numpy as jnp

from .layer import Layer


class Masked(Layer):
    def __init__(self, weights, keep):
        self.weights = weights
        self.mask = jnp.arange(weights.shape[0]) < keep

    def tree_flatten(self):
        return (self.weights,), self.mask  # expect: PTL101

    @classmethod
    def tree_unflatten(cls, mask, children):
        made = object.__new__(cls)
        made.weights, made.mask = children[0], mask
        return made


def examples():
    return [Masked(jnp.ones(4), 2), Masked(jnp.ones(4), 2)]
