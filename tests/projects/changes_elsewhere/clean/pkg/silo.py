"""Silos whose grains are a tuple in aux_data; a function of a third module, looping over the list of them
a barn declares, changes only their log, which is no part of the pytree."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Silo:
    def __init__(self, levels, grains):
        self.levels = levels
        self.grains = tuple(grains)
        self.log = []

    def tree_flatten(self):
        return (self.levels,), self.grains

    @classmethod
    def tree_unflatten(cls, grains, children):
        return cls(children[0], grains)


def reproduce():
    from .barn import Barn
    from .harvest import note

    silo = Silo(jnp.ones(2), ["wheat"])
    note(Barn([silo]), "filled")
    return jax.jit(lambda s: jnp.sum(s.levels))(silo)
