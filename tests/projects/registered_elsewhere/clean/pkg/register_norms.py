"""Registers `Norms`, a class of another module, by its own methods."""
import jax.tree_util as jtu

from .norms import Norms

jtu.register_pytree_node_class(Norms)
