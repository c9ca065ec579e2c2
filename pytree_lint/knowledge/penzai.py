"""penzai: `@pz.pytree_dataclass class L(pz.Struct)`, static with `field(metadata={"pytree_node": False})`."""

from .base import Convention, PytreeLibrary

LIBRARY = PytreeLibrary(
    "penzai", Convention.PYTREE_NODE,
    decorators=frozenset({"penzai.core.struct.pytree_dataclass", "penzai.pz.pytree_dataclass",
                          "penzai.deprecated.v1.pz.pytree_dataclass"}),
    makes_dataclasses=True,
    bases=frozenset({"penzai.core.struct.Struct", "penzai.pz.Struct", "penzai.deprecated.v1.pz.Struct"}),
)
