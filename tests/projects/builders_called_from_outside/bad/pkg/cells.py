"""Functions that allocate and update cell lists, kept as the aux_data of a struct a public factory makes:
no module of the project calls the factory (its users do, as the example in usage.py shows), and each call
defines new functions, so a jitted function given each new struct retraces."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class CellFns:
    def __init__(self, allocate, update):
        self.allocate = allocate
        self.update = update

    def tree_flatten(self):
        return (), (self.allocate, self.update)  # expect: PTL103

    @classmethod
    def tree_unflatten(cls, functions, children):
        return cls(*functions)


def cell_list(size):
    def allocate(positions):
        return jnp.floor(positions / size)

    def update(positions, cells):
        return jnp.floor(positions / size) + 0 * cells

    return CellFns(allocate, update)


@jax.jit
def occupancy(fns, positions):
    return fns.allocate(positions).sum()


def examples():
    factory = cell_list  # a user's program: no call of this module runs the factory
    return [factory(0.5), factory(0.5)]  # as a user allocating the lists of two systems does
