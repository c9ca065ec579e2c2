"""Functions that allocate and update neighbour lists, kept as the aux_data of a struct a public factory
makes through a helper of another module. The factory's docstring shows a call of it, which calls nothing: no
module of the project calls the factory (its users do), and each call defines new functions, so a jitted
function given each new struct retraces."""
import jax
import jax.numpy as jnp

from .building import functions_of


@jax.tree_util.register_pytree_node_class
class NeighborFns:
    def __init__(self, allocate, update):
        self.allocate = allocate
        self.update = update

    def tree_flatten(self):
        return (), (self.allocate, self.update)  # expect: PTL103

    @classmethod
    def tree_unflatten(cls, functions, children):
        return cls(*functions)


def neighbor_list(cutoff):
    """The functions that allocate and update the neighbour lists of points within `cutoff`::

        fns = neighbor_list(1.5)
        neighbors = fns.allocate(positions)
    """

    def allocate(positions):
        return jnp.abs(positions[:, None] - positions[None, :]) < cutoff

    def update(positions, neighbors):
        return neighbors & allocate(positions)

    return functions_of(allocate, update)


@jax.jit
def count(fns, positions):
    return fns.allocate(positions).sum()


def examples():
    factory = neighbor_list  # a user's program: no call of this module runs the factory
    return [factory(1.5), factory(1.5)]  # as a user building the lists of two systems does
