"""ModuleAnalysis: one parsed module and the facts rules ask about it, each computed once."""

from __future__ import annotations

from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from .aux import AuxSite, AuxSiteFinder
from .classes import ClassSemantics
from .index import ModuleIndex
from .registrations import Registration, RegistrationFinder
from .values import Evidence, ValueInference

_MAX_CODE = 60


def node_positions(module: cst.Module):
    """Node -> CodeRange, as libcst's PositionProvider computes them.

    The provider's own codegen pass is run directly: going through MetadataWrapper adds a visit of every
    node, which costs more than the codegen itself. If libcst's internals change, the public way is used.
    """
    try:
        provider = PositionProvider()
        provider._computed = {}
        state = PositionProvidingCodegenState(default_indent=module.default_indent,
                                              default_newline=module.default_newline, provider=provider)
        module._codegen(state)
        return provider._computed
    except (AttributeError, TypeError):
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


class ModuleAnalysis:
    """One parsed module and the lazily computed facts about it."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.index = ModuleIndex.build(module)
        self.values = ValueInference(self.index)
        self.classes = ClassSemantics(self.index, self.values)

    @cached_property
    def registrations(self) -> list[Registration]:
        return RegistrationFinder(self.index).find()

    @cached_property
    def aux_sites(self) -> list[AuxSite]:
        return AuxSiteFinder(self.index, self.values).sites(self.registrations)

    @cached_property
    def _positions(self):
        # Positions cost a pass over the whole tree: only modules with a finding pay for them.
        return node_positions(self.module)

    def position(self, node: cst.CSTNode) -> tuple[int, int] | None:
        """(1-based line, 0-based column) of a node of this module."""
        code_range = self._positions.get(node)
        if code_range is None:
            return None
        return code_range.start.line, code_range.start.column

    def snippet(self, node: cst.CSTNode) -> str:
        code = " ".join(self.module.code_for_node(node).split())
        return code if len(code) <= _MAX_CODE else code[:_MAX_CODE - 3] + "..."

    def located(self, node: cst.CSTNode) -> str:
        """"`code` at line N" for a node (the line is left out if the node is not in the module)."""
        position = self.position(node)
        where = f" at line {position[0]}" if position else ""
        return f"`{self.snippet(node)}`{where}"

    def origin(self, evidence: Evidence) -> str:
        """Where the value comes from: "`self.mask` is assigned `xp.arange(n) < k` at line 8"."""
        if not evidence.trail:
            return self.located(evidence.node)
        return ", ".join(f"`{hop.via}` {hop.relation} {self.located(hop.node)}" for hop in evidence.trail)
