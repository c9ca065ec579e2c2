"""A layer of a third module, registered by the metaclass of its base's: its own flatten keeps its array
mask in the children and only the count kept in aux_data."""
import jax.numpy as jnp

from .layer import Layer


class Masked(Layer):
    def __init__(self, weights, keep):
        self.weights = weights
        self.keep = int(keep)
        self.mask = jnp.arange(weights.shape[0]) < keep

    def tree_flatten(self):
        return (self.weights, self.mask), self.keep

    @classmethod
    def tree_unflatten(cls, keep, children):
        made = object.__new__(cls)
        made.weights, made.mask = children
        made.keep = keep
        return made


def examples():
    return [Masked(jnp.ones(4), 2), Masked(jnp.ones(4), 2)]
