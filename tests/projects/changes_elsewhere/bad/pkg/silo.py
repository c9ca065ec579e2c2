"""Silos whose grains are aux_data, filled in place by a function of a third module through the list of
them a barn (a class of yet another module) declares: jit's cache keeps the trace made with the old grains."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Silo:
    def __init__(self, levels, grains):
        self.levels = levels
        self.grains = list(grains)

    def tree_flatten(self):
        return (self.levels,), self.grains  # expect: PTL102

    @classmethod
    def tree_unflatten(cls, grains, children):
        return cls(children[0], grains)


@jax.jit
def stock(silo):
    return jnp.sum(silo.levels) * len(silo.grains)


def reproduce():
    from .barn import Barn
    from .harvest import store

    silo = Silo(jnp.ones(2), ["wheat"])
    before = stock(silo)
    store(Barn([silo]), "rye")
    return before, stock(silo)
