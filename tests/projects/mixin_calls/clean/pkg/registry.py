"""Registers pkg/plates.py's `Plate` as static, and names `Sheet` in a registry of its own (no JAX call)."""
import jax

from .plates import Plate, Sheet

jax.tree_util.register_static(Plate)
KNOWN = {"sheet": Sheet}
