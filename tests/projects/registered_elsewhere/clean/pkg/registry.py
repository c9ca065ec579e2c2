"""The grids are registered here, in a loop over them, each with its own flatten and unflatten."""
import jax

from .grids import Coarse, Fine

for grid_class in (Fine, Coarse):
    jax.tree_util.register_pytree_node(grid_class, grid_class.flatten, grid_class.unflatten)
