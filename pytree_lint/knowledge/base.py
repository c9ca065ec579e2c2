"""How a pytree library is described: its registering decorators and bases, its static-field helpers."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from ..analysis.record import NamedTuple


class Convention(enum.Enum):
    """How a library says a field is static (verified on flax 0.12.8, equinox 0.13.8, jax_dataclasses
    1.6.3, penzai 0.2.5, netket 3.23.0, jax_md 0.2.29, simple_pytree 0.2.2, numpyro 0.22.0; read in the
    source of tjax 1.3.13, genjax 0.10.3 and distrax 0.1.9)."""

    PYTREE_NODE = "pytree_node"  # metadata `pytree_node=False`: flax.struct, penzai, netket, simple_pytree, genjax
    STATIC = "static"  # metadata `static=True`: register_dataclass, equinox, jax_md, tjax
    JAX_DATACLASSES = "jax_dataclasses"  # an outermost `Static[...]` annotation, or `static_field()`
    NUMPYRO = "numpyro"  # the name is listed in the class's `pytree_aux_fields`
    NONE = "none"  # nothing static by declaration: chex (every field is a child), distrax (split by value)
    NNX = "nnx"  # flax.nnx: decided per attribute by its value (analysis/pytrees/nnx.py)


RUNS_INIT = frozenset({"__init__", "__post_init__"})
RUNS_POST_INIT = frozenset({"__post_init__"})


class FlagHelper(NamedTuple):
    """A field helper whose keyword sets a metadata flag: `struct.field(pytree_node=False)`."""

    keyword: str
    key: str
    default: bool


class PytreeLibrary(NamedTuple):
    name: str
    convention: Convention
    decorators: frozenset[str] = frozenset()  # a class they decorate is registered
    bases: frozenset[str] = frozenset()  # every subclass is registered
    flag_helpers: Mapping[str, FlagHelper] = MappingProxyType({})
    fixed_helpers: Mapping[str, Mapping[str, bool]] = MappingProxyType({})
    plain_fields: frozenset[str] = frozenset()  # `field()` helpers that read only `metadata=`
    static_annotations: frozenset[str] = frozenset()
    # The non-static fields are children that jit traces (not so for equinox's filter transformations,
    # which keep non-array leaves static, or numpyro's own flatten).
    fields_are_children: bool = True
    # What of the class the generated unflatten runs on the leaves: `__init__` (with `__post_init__`) when it
    # calls the class, `__post_init__` alone when it builds with `__new__` and then calls it (chex).
    unflatten_runs: frozenset[str] = frozenset()
    # A class keyword that declares a pytree a host-side state holder (netket's `mutable=True`: drivers,
    # callbacks, loggers, integrators), whose fields change between steps by design and which the library
    # itself never passes to a transformation: aux-data rules wait for an instance to reach one.
    host_state_keyword: str | None = None
    # Qualified-name prefixes whose every class is registered (numpyro's distributions and transforms).
    registered_prefixes: tuple[str, ...] = ()
    # Its decorators make the class a dataclass (`dataclasses.dataclass` underneath): a generated `__init__`
    # and `__eq__`, field by field.
    makes_dataclasses: bool = False
    # Its decorators and bases make frozen dataclasses: objects compare and hash field by field.
    frozen_dataclasses: bool = False
    # Its bases' `__eq__` compares two objects leaf by leaf, an array leaf reduced to one bool (equinox's
    # `tree_equal`): an array field never makes the comparison raise.
    compares_leaves: bool = False
