import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Image:
    """An array with its dtype kept apart: the dtype is aux_data, so it survives any leaves."""

    def __init__(self, array):
        self._array = jnp.asarray(array)
        self._dtype = self._array.dtype

    @property
    def array(self):
        return self._array

    @property
    def dtype(self):
        return self._dtype

    def tree_flatten(self):
        return (self._array,), self._dtype

    @classmethod
    def tree_unflatten(cls, dtype, children):
        obj = object.__new__(cls)
        obj._array, obj._dtype = children[0], dtype
        return obj
