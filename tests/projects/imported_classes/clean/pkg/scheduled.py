"""aux_data holds what the methods of a builder object of another module make: a `Settings` that compares
by value and an int."""
import jax
import jax.numpy as jnp

from .settings import SettingsBuilder


@jax.tree_util.register_pytree_node_class
class Scheduled:
    def __init__(self, params, lr):
        self.params = params
        builder = SettingsBuilder(lr)
        self.settings = builder.build()

    def tree_flatten(self):
        return (self.params,), self.settings

    @classmethod
    def tree_unflatten(cls, settings, children):
        obj = object.__new__(cls)
        obj.params, obj.settings = children[0], settings
        return obj


@jax.tree_util.register_pytree_node_class
class Weighted:
    def __init__(self, params, lr):
        self.params = params
        self.table = SettingsBuilder(lr).size()

    def tree_flatten(self):
        return (self.params,), self.table

    @classmethod
    def tree_unflatten(cls, table, children):
        obj = object.__new__(cls)
        obj.params, obj.table = children[0], table
        return obj


def examples():
    return [Scheduled(jnp.ones(2), 0.1), Scheduled(jnp.ones(2), 0.1),
            Weighted(jnp.ones(2), 0.1), Weighted(jnp.ones(2), 0.1)]
