"""Registers pkg/plates.py's `Plate` by the keyed methods it inherits."""
import jax

from .plates import Plate

jax.tree_util.register_pytree_with_keys_class(Plate)
