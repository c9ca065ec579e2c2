"""Cell lists whose aux_data holds the function that updates them, as a helper of the module builds them. The
def nested in the factory that builds each list passes its own `update_fn`, a lambda it makes on each call (the
factory defines another function of that name, which it does not pass): each list has a new one, so a jitted
function given each new list retraces."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Cells:
    def __init__(self, ids, update_fn):
        self.ids = ids
        self.update_fn = update_fn

    def tree_flatten(self):
        return (self.ids,), self.update_fn  # expect: PTL103

    @classmethod
    def tree_unflatten(cls, update_fn, children):
        return cls(children[0], update_fn)


def cells_of(ids, update_fn):
    return Cells(ids, update_fn)


def cell_list(size):
    def update_fn(positions, cells):
        return cell_list_fn(positions)

    def cell_list_fn(positions):
        update_fn = lambda positions, cells: cell_list_fn(positions)  # noqa: E731 - made on each call
        return cells_of(jnp.floor(positions / size), update_fn)

    return cell_list_fn, update_fn


@jax.jit
def occupied(cells):
    return (cells.ids > 0).sum()


def examples():
    build, _update = cell_list(0.5)
    positions = jnp.ones((4, 2))
    return [build(positions), build(positions)]  # two lists of one factory, as each step's update makes
