"""Ladders whose rungs are aux_data, climbed by another module's class that keeps them in an attribute
annotated as a list of them and adds a rung to each in place: jit's cache keeps the trace made with the
old rungs."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Ladder:
    def __init__(self, heights, rungs):
        self.heights = heights
        self.rungs = list(rungs)

    def tree_flatten(self):
        return (self.heights,), self.rungs  # expect: PTL102

    @classmethod
    def tree_unflatten(cls, rungs, children):
        return cls(children[0], rungs)


@jax.jit
def reach(ladder):
    return jnp.sum(ladder.heights) * len(ladder.rungs)


def reproduce():
    from .climb import Climber

    ladder = Ladder(jnp.ones(2), ["a"])
    before = reach(ladder)
    Climber([ladder]).extend("b")
    return before, reach(ladder)
