"""The same stack, its sizes filled by another module's function only while the constructor builds it
(before anything can flatten it), and never changed after: no stale trace (a list in aux_data is only the
opt-in PTL901's concern)."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from .fill import add_size


@jax.tree_util.register_pytree_node_class
class Stack:
    def __init__(self, x, depth):
        self.x = x
        self.sizes = []
        for level in range(depth):
            add_size(self, level)

    def tree_flatten(self):
        return (self.x,), self.sizes  # expect: PTL901

    @classmethod
    def tree_unflatten(cls, sizes, children):
        obj = object.__new__(cls)
        obj.x, obj.sizes = children[0], sizes
        return obj


@jax.jit
def total(stack):
    return jnp.sum(stack.x) * len(stack.sizes)


def reproduce():
    stack = Stack(jnp.ones(2), 3)
    return total(stack), total(Stack(jnp.ones(2), 3))
