"""Functions that allocate and update neighbour lists, kept as the aux_data of a struct a factory makes
through a helper of another module, documented with an example call of it: the module calls the factory once,
on import, and every jitted call is given that one struct."""
import jax
import jax.numpy as jnp

from .building import functions_of


@jax.tree_util.register_pytree_node_class
class NeighborFns:
    def __init__(self, allocate, update):
        self.allocate = allocate
        self.update = update

    def tree_flatten(self):
        return (), (self.allocate, self.update)

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


NEIGHBORS = neighbor_list(1.5)


@jax.jit
def count(fns, positions):
    return fns.allocate(positions).sum()


def neighbors_of(positions):
    return count(NEIGHBORS, positions)
