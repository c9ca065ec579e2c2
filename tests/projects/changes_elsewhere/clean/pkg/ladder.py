"""Ladders whose rungs are a tuple in aux_data; another module's class keeping them in an attribute
annotated as a list of them changes only their log, which is no part of the pytree."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Ladder:
    def __init__(self, heights, rungs):
        self.heights = heights
        self.rungs = tuple(rungs)
        self.log = []

    def tree_flatten(self):
        return (self.heights,), self.rungs

    @classmethod
    def tree_unflatten(cls, rungs, children):
        return cls(children[0], rungs)


def reproduce():
    from .climb import Climber

    ladder = Ladder(jnp.ones(2), ["a"])
    Climber([ladder]).note("climbed")
    return jax.jit(lambda l: jnp.sum(l.heights))(ladder)
