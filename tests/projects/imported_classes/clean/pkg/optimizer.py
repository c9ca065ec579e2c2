"""aux_data holds a `Settings` of another module, built per instance, which compares by value: one trace."""
import jax
import jax.numpy as jnp

from .settings import Settings


@jax.tree_util.register_pytree_node_class
class Optimizer:
    def __init__(self, params, lr):
        self.params = params
        self.settings = Settings(lr)

    def tree_flatten(self):
        return (self.params,), self.settings

    @classmethod
    def tree_unflatten(cls, settings, children):
        obj = object.__new__(cls)
        obj.params, obj.settings = children[0], settings
        return obj


def examples():
    return [Optimizer(jnp.ones(2), 0.1), Optimizer(jnp.ones(2), 0.1)]
