"""The words a module's text must hold for a family of rules to read it (a module that holds none of any
family's words is never parsed), derived from the libraries' modules here: a library described there is
read wherever it is used, with no list to keep in step.

A word is how any use of a name must be spelled at least: a library's top package (every import of it,
`import chex` or `from chex import dataclass`, names it), jax's own function names (kept by any alias,
which its import line spells), and the distinctive part of a dotted name (`tree.map`, `nnx`).
"""

from __future__ import annotations

from . import LIBRARIES, jax, nnx, numpyro
from .base import Convention

_JAX = "jax."


def _top_package(qualified: str) -> str | None:
    """The package an import of `qualified` names (None for jax's: every JAX module spells `jax`)."""
    top = qualified.split(".", 1)[0]
    return None if top == "jax" else top


def _without_jax(qualified: str) -> str:
    """`jax.tree.map` -> `tree.map`, `jax.tree_util.tree_map` -> `tree_map`: what any spelling of it holds."""
    name = qualified[len(_JAX):] if qualified.startswith(_JAX) else qualified
    return name[len("tree_util."):] if name.startswith("tree_util.") else name


# The names of the libraries that register classes (their decorators, bases and field helpers; not Flax NNX):
# importing one calls for the registration rules, by its library's name in the import line, or by the name
# itself where no import line spells the library (its own source: ModuleAnalysis.project_words).
REGISTERING_NAMES = frozenset(name for library in LIBRARIES if library.convention is not Convention.NNX
                              for name in (*library.decorators, *library.bases, *library.flag_helpers,
                                           *library.fixed_helpers, *library.plain_fields,
                                           *library.static_annotations))
# Registering a pytree: jax.tree_util's registration functions, `jax.tree.static()` fields, numpyro's
# `pytree_aux_fields`, and every library that registers classes (its names above, and the prefixes of those
# it registers).
REGISTRATION_TRIGGERS: tuple[str, ...] = tuple(dict.fromkeys([
    *(mechanism.value for mechanism in jax.Mechanism),
    _without_jax(jax.STATIC_FIELD),
    numpyro.AUX_FIELDS,
    *(top for name in sorted({*REGISTERING_NAMES, *(prefix for library in LIBRARIES
                                                    if library.convention is not Convention.NNX
                                                    for prefix in library.registered_prefixes)})
      if (top := _top_package(name)) is not None),
]))
# Holding a Flax NNX class (`from flax import nnx`, `flax.nnx.Module`): the part of its bases' names that
# says NNX. (A module whose imports from the project stand for one is read too, as is one importing a base
# where no import line spells `nnx`: ModuleAnalysis.project_words.)
NNX_TRIGGERS: tuple[str, ...] = tuple(sorted({base[len(nnx.NNX) - len("nnx."):].split(".")[0]
                                              for base in nnx.BASES}))
# Calling a tree function (PTL201-PTL204): `jax.tree.map`, `tree_util.tree_leaves`, `jax.tree_flatten`, ...
TREE_CALL_TRIGGERS: tuple[str, ...] = tuple(dict.fromkeys(_without_jax(name) for name in jax.TREE_FUNCTIONS))
# Calling a jitted function with static arguments (PTL402-PTL405): what a project's jitted function or a class
# with jitted methods, imported from another module, stands for (ModuleAnalysis.project_words).
JIT_WORDS = frozenset({"static_argnums", "jit"})
# Declaring a class whose fields can be jit leaves (PTL402): a NamedTuple, a dataclass, or a library's
# registering decorator or base (`PyTreeNode`, `Module`, `Pytree`, `Struct`, ...), by its own name.
RECORD_CLASS_WORDS: tuple[str, ...] = tuple(dict.fromkeys([
    "NamedTuple", "dataclass",
    *sorted({name.rsplit(".", 1)[-1] for library in LIBRARIES for name in (*library.decorators, *library.bases)}),
]))
