"""What the libraries mean, written once: one module per library, read by the analysis and the rules.

Every name here is a fully qualified name as `analysis.names.AliasTable` resolves it (`jnp.zeros` is
`jax.numpy.zeros` whatever the import alias). A pytree library is described by a `PytreeLibrary`: the
decorators and base classes that register a class, the field helpers that mark a field static, and how
its registrations behave. The tables below gather them for the analysis.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import (
    chex,
    distrax,
    equinox,
    flax,
    genjax,
    jax,
    jax_dataclasses,
    jax_md,
    netket,
    nnx,
    numpyro,
    penzai,
    python,
    simple_pytree,
    tjax,
)
from .base import Convention, FlagHelper, PytreeLibrary

LIBRARIES: tuple[PytreeLibrary, ...] = (
    flax.STRUCT, equinox.LIBRARY, jax_dataclasses.LIBRARY, chex.LIBRARY, penzai.LIBRARY, netket.LIBRARY,
    jax_md.LIBRARY, simple_pytree.LIBRARY, numpyro.LIBRARY, nnx.LIBRARY, tjax.LIBRARY, genjax.LIBRARY,
    distrax.LIBRARY,
)

# Qualified decorator or base class name -> the library whose classes it registers.
DECORATORS: dict[str, PytreeLibrary] = {name: lib for lib in LIBRARIES for name in lib.decorators}
BASES: dict[str, PytreeLibrary] = {name: lib for lib in LIBRARIES for name in lib.bases}
# Field helpers: the keyword that carries the flag, or the fixed metadata they set.
FLAG_HELPERS: dict[str, FlagHelper] = {name: h for lib in LIBRARIES for name, h in lib.flag_helpers.items()}
FIXED_HELPERS: dict[str, Mapping[str, bool]] = {
    name: metadata for lib in LIBRARIES for name, metadata in lib.fixed_helpers.items()}
FIXED_HELPERS[jax.STATIC_FIELD] = {"static": True}
PLAIN_FIELDS = frozenset({"dataclasses.field", *(n for lib in LIBRARIES for n in lib.plain_fields)})
FIELD_HELPERS = frozenset({*FLAG_HELPERS, *FIXED_HELPERS, *PLAIN_FIELDS})
STATIC_ANNOTATIONS = frozenset(n for lib in LIBRARIES for n in lib.static_annotations)
LIBRARY_BY_NAME: dict[str, PytreeLibrary] = {lib.name: lib for lib in LIBRARIES}
# The decorators that make a class a dataclass (generated `__init__` and `__eq__`): Python's, attrs',
# pydantic's and the pytree libraries'.
DATACLASS_DECORATORS = frozenset({*python.DATACLASS_DECORATORS,
                                  *(name for lib in LIBRARIES if lib.makes_dataclasses for name in lib.decorators)})
# How objects of a class compare and hash, by its bases and decorators: Python's, attrs' and those of the
# pytree libraries whose classes are frozen dataclasses (flax.struct, equinox).
_FROZEN = [lib for lib in LIBRARIES if lib.frozen_dataclasses]
VALUE_BASES = frozenset({*python.VALUE_BASES, *(name for lib in _FROZEN for name in lib.bases)})
FROZEN_BY_DEFAULT = frozenset({*python.FROZEN_BY_DEFAULT, *(name for lib in _FROZEN for name in lib.decorators)})
FROZEN_BASES = frozenset({*python.FROZEN_BASES, *(name for lib in _FROZEN for name in lib.bases)})
LEAF_COMPARING_BASES = frozenset(name for lib in LIBRARIES if lib.compares_leaves for name in lib.bases)
# The top-level packages of the pytree libraries other than JAX (`pytree-lint verify` imports them once).
LIBRARY_PACKAGES = frozenset(name.split(".", 1)[0] for lib in LIBRARIES
                             for name in (*lib.decorators, *lib.bases)) - {"jax"}
# Names the analysis knows by their public spelling: followed no further through a project's re-exports,
# even when that library is the project being linted.
KNOWN_NAMES = frozenset({*DECORATORS, *BASES, *FIELD_HELPERS, *STATIC_ANNOTATIONS, *jax.MECHANISMS, *jax.JIT,
                         *jax.TRANSFORMATIONS, *jax.TREE_FUNCTIONS, *jax.ARRAY_TYPES, *nnx.NAMES})


def helper_library(qualified: str) -> PytreeLibrary | None:
    """The library a field helper belongs to (a class using `eqx.field` is an eqx.Module)."""
    for library in LIBRARIES:
        if qualified in library.flag_helpers or qualified in library.fixed_helpers:
            return library
    return None


__all__ = ["BASES", "DECORATORS", "FIELD_HELPERS", "FIXED_HELPERS", "FLAG_HELPERS", "KNOWN_NAMES", "LIBRARIES",
           "LIBRARY_BY_NAME", "PLAIN_FIELDS",
           "STATIC_ANNOTATIONS", "Convention", "FlagHelper", "PytreeLibrary", "helper_library"]
