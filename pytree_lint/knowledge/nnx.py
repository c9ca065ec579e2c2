"""Flax NNX (flax 0.11+, measured on flax 0.12.8): every `nnx.Module` and `nnx.Pytree` is a pytree.

An instance's attributes are split when they are assigned: data (Variables, arrays, Modules and other
graph nodes, `nnx.List`/`nnx.Dict`, `nnx.data(...)`) are its children; everything else is static and
becomes part of the GraphDef, i.e. aux_data. A class opts out with `pytree=False` in its class keywords.
"""

from __future__ import annotations

from .base import Convention, PytreeLibrary

NNX = "flax.nnx."

# Subclassing one of these makes an NNX pytree class (`class MLP(nnx.Module)`).
BASES = frozenset({f"{NNX}Module", f"{NNX}Pytree", f"{NNX}module.Module", f"{NNX}pytreelib.Pytree"})
DATACLASS = f"{NNX}dataclass"  # `@nnx.dataclass` on an nnx.Pytree subclass
# Subclasses of these are never pytrees: `nnx.Object` forces `pytree=False`, as does the Linen bridge.
NOT_PYTREE_BASES = frozenset({f"{NNX}Object", f"{NNX}pytreelib.Object", f"{NNX}bridge.Module",
                              f"{NNX}bridge.module.Module"})
PYTREE_KEYWORD = "pytree"  # `class Foo(nnx.Module, pytree=False)`: not a pytree
# Class keywords only flax 0.10's NNX took (`class MLP(nnx.Module, experimental_pytree=True)`; 0.11 removed it
# and cannot define such a class): a Module of that NNX was a graph whose plain lists, dicts and later
# assignments of Modules were data like the rest (measured on flax 0.10.4: a list of Linears in `__init__`, one
# appended later and a head first None all trained). None of what this module says of 0.11+ holds for it.
LEGACY_CLASS_KEYWORDS = frozenset({"experimental_pytree"})

DATA = f"{NNX}data"  # `nnx.data(value)`: data whatever the value
STATIC = f"{NNX}static"  # `nnx.static(value)`: static whatever the value
# Class-level declarations that hold every value of an attribute so, from its first assignment on (flax
# 0.12.8): `shortcut: nnx.Data[nnx.Conv | None]` (deprecated there, still honoured), or `shortcut: Conv |
# None = nnx.data(default=None)` (DATA and STATIC as fields).
DATA_ANNOTATION, STATIC_ANNOTATION = f"{NNX}Data", f"{NNX}Static"
# How flax reads a quoted annotation that does not resolve: by its text's start, whatever the module imports.
QUOTED_DATA, QUOTED_STATIC = "nnx.Data", "nnx.Static"
LIST, DICT = f"{NNX}List", f"{NNX}Dict"  # containers that are graph nodes: their items are children

# Variables (the data NNX's state filters select: `nnx.state(m, nnx.Param)`, `nnx.Optimizer(wrt=...)`).
PARAMS = frozenset({f"{NNX}Param", f"{NNX}LoRAParam"})  # the Variables that are trained parameters
VARIABLES = frozenset(f"{NNX}{name}" for name in (
    "Variable", "Param", "BatchStat", "Cache", "Intermediate", "LoRAParam", "OptArray", "OptState", "OptVariable",
    "Perturbation", "RngCount", "RngKey", "RngState"))
# Layers and other graph nodes whose constructor call makes data (flax 0.12.8's `nnx.*` Module and Pytree
# classes).
GRAPH_NODES = frozenset(f"{NNX}{name}" for name in (
    "BatchNorm", "Bidirectional", "Conv", "ConvTranspose", "Dropout", "Einsum", "Embed", "GRUCell", "GroupNorm",
    "InstanceNorm", "LSTMCell", "LayerNorm", "Linear", "LinearGeneral", "LoRA", "LoRALinear", "MultiHeadAttention",
    "OptimizedLSTMCell", "PReLU", "RMSNorm", "RNN", "Sequential", "SimpleCell", "SpectralNorm", "WeightNorm",
    "Rngs", "RngStream", "Optimizer", "ModelAndOptimizer", "EMA", "MultiMetric", "List", "Dict"))

# Initializers: `nnx.initializers.lecun_normal()(key, shape)` (jax.nn.initializers alike) and jax.random's
# samplers make a fresh random array, a parameter to train.
INITIALIZER_MODULES = (f"{NNX}initializers.", "jax.nn.initializers.")
RANDOM = "jax.random."
NOT_SAMPLERS = frozenset({"PRNGKey", "key", "split", "fold_in", "key_data", "wrap_key_data", "clone", "key_impl"})

# Transformations that wrap a callable: a Module given to them is hidden from the state when only the
# wrapper is an attribute.
WRAPPERS = frozenset({"jax.vmap", "jax.jit", "jax.pmap", "jax.checkpoint", "jax.remat", "functools.partial",
                      f"{NNX}vmap", f"{NNX}jit", f"{NNX}remat", f"{NNX}scan", f"{NNX}pmap"})

# The names above, which keep their public spelling even when flax itself is the project being linted.
NAMES = frozenset({*BASES, DATACLASS, *NOT_PYTREE_BASES, DATA, STATIC, LIST, DICT, *VARIABLES, *GRAPH_NODES, *WRAPPERS})

LIBRARY = PytreeLibrary(
    "flax.nnx", Convention.NNX,
    decorators=frozenset({DATACLASS}),
    bases=BASES,
    fields_are_children=False,  # its children are the data attributes, whatever the annotations say
)
