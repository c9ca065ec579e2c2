"""A stack of layer sizes kept as aux_data: another module's function grows the list of an existing stack
in place, so jit's cache keeps the trace made with the old sizes."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Stack:
    def __init__(self, x, sizes):
        self.x = x
        self.sizes = list(sizes)

    def tree_flatten(self):
        return (self.x,), self.sizes  # expect: PTL102

    @classmethod
    def tree_unflatten(cls, sizes, children):
        return cls(children[0], sizes)


@jax.jit
def total(stack):
    return jnp.sum(stack.x) * len(stack.sizes)


def reproduce():
    from .grow import deepen

    stack = Stack(jnp.ones(2), [1])
    before = total(stack)
    deepen(stack, 2)
    return before, total(stack)
