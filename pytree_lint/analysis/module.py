"""ModuleAnalysis: one parsed module and the facts rules ask about it, each computed once."""

from __future__ import annotations

from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from .aux import AuxSite, AuxSiteFinder
from .children import ChildAttribute, ChildSite, ChildSiteFinder
from .configuration import ConfigurationUses
from .fixes import Fix, immutable_container, swap_parameters
from .classes import ClassSemantics
from .frameworks import Frameworks
from .index import ModuleIndex
from .jitted import JittedFinder, JittedFunction
from .kinds import Kind
from .registrations import Registration, RegistrationFinder
from .structure import Structure, Swap
from .treecalls import TreeCall, TreeCalls
from .values import Evidence, ValueInference


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

    def __init__(self, module: cst.Module, statement_lines: list[int] | None = None,
                 static_field_functions: tuple[str, ...] = (), tree_call_lines: set[int] | None = None) -> None:
        """`statement_lines`: the line of the file on which each top-level statement starts, when the caller
        knows them; positions are then computed statement by statement, each moved to its file line. A
        slice, which leaves lines out, has only these for its positions (engine._parse passes one only when
        the counts match); a whole module has its own lines, and is read without them when the counts differ.
        `static_field_functions`: the project's own static-field helpers (qualified names).
        `tree_call_lines`: the first lines of the statements whose tree calls may be misused (the slicer
        knows them); the tree calls of the other statements are not looked for."""
        self.module = module
        if statement_lines is not None and len(statement_lines) != len(module.body):
            statement_lines = None
        self._statement_lines = statement_lines
        self._tree_call_statements = module.body if statement_lines is None or tree_call_lines is None else [
            statement for statement, line in zip(module.body, statement_lines) if line in tree_call_lines]
        self._statement_positions: dict[int, tuple[dict, int]] = {}
        self.index = ModuleIndex.build(module)
        self.frameworks = Frameworks(self.index, static_field_functions)
        self.values = ValueInference(self.index, self.frameworks)
        self.classes = ClassSemantics(self.index, self.values)

    @cached_property
    def registrations(self) -> list[Registration]:
        return RegistrationFinder(self.index, self.frameworks).find()

    @cached_property
    def aux_sites(self) -> list[AuxSite]:
        return AuxSiteFinder(self.index, self.values, self.swapped_returns).sites(self.registrations)

    @cached_property
    def structure(self) -> Structure:
        return Structure(self.index, self.values)

    @cached_property
    def swapped_returns(self) -> dict[int, Swap]:
        """Flatten returns written `(aux_data, children)`, by the id of the return (or lambda) node."""
        return {id(swap.node): swap for registration in self.registrations
                for swap in self.structure.swapped_returns(registration)}

    @cached_property
    def tree_calls(self) -> TreeCalls:
        return TreeCalls(self.index)

    @cached_property
    def tree_call_sites(self) -> list[TreeCall]:
        return self.tree_calls.find(self._tree_call_statements)

    @cached_property
    def jitted_functions(self) -> dict[str, JittedFunction]:
        return JittedFinder(self.index).find()

    @cached_property
    def children(self) -> ChildSiteFinder:
        return ChildSiteFinder(self.index, self.values, self.swapped_returns)

    @cached_property
    def child_sites(self) -> list[ChildSite]:
        return self.children.sites(self.registrations)

    @cached_property
    def child_attributes(self) -> list[ChildAttribute]:
        return self.children.attributes(self.registrations, self.structure)

    @cached_property
    def configuration_uses(self) -> ConfigurationUses:
        return ConfigurationUses(self.index, self.values)

    def swap_parameters_fix(self, function) -> Fix | None:
        """PTL303's fix: the unflatten's two parameters in the order JAX passes them."""
        return swap_parameters(self.index, function)

    def immutable_container_fix(self, evidence: Evidence, alternatives: list[Evidence]) -> Fix | None:
        """PTL102's fix: the list or set built as a tuple or frozenset where the evidence says it is built;
        None when `alternatives` (all that is known of the value) show another container it may be."""
        if any(e.kind is Kind.MUTABLE and e.node is not evidence.node for e in alternatives):
            return None  # mending one of two origins would leave a value that is sometimes a list
        names = [hop.via.rsplit(".", 1)[-1] for hop in evidence.trail]
        return immutable_container(self.index, evidence.node, names)

    @cached_property
    def _module_positions(self):
        return node_positions(self.module)

    def _positions_of_statement(self, index: int) -> tuple[dict, int]:
        """Positions within one top-level statement, and the line offset that makes them the file's."""
        if index not in self._statement_positions:
            statement = self.module.body[index]
            alone = self.module.with_changes(body=[statement], header=[], footer=[])
            positions = node_positions(alone)
            offset = self._statement_lines[index] - positions[statement].start.line
            self._statement_positions[index] = (positions, offset)
        return self._statement_positions[index]

    def _search_order(self) -> list[int]:
        """Registered classes first: nearly every finding and its origin are inside one."""
        body = {id(statement): index for index, statement in enumerate(self.module.body)}
        first = [body[id(r.cls.node)] for r in self.registrations if r.cls is not None and id(r.cls.node) in body]
        return list(dict.fromkeys([*first, *range(len(self.module.body))]))

    def span(self, node: cst.CSTNode) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """((line, column), (end line, end column)) of a node of this module; lines 1-based, columns 0-based.

        Positions cost a codegen pass: only modules with a finding pay for them, and, where the statement
        lines are known, only for the statements that hold what is reported.
        """
        if self._statement_lines is None:
            code_range, offset = self._module_positions.get(node), 0
        else:
            code_range = None
            for index in self._search_order():
                positions, offset = self._positions_of_statement(index)
                code_range = positions.get(node)
                if code_range is not None:
                    break
        if code_range is None:
            return None
        return ((code_range.start.line + offset, code_range.start.column),
                (code_range.end.line + offset, code_range.end.column))

    def position(self, node: cst.CSTNode) -> tuple[int, int] | None:
        """(1-based line, 0-based column) of a node of this module."""
        span = self.span(node)
        return span[0] if span is not None else None

    def snippet(self, node: cst.CSTNode) -> str:
        return self.index.snippet(node)

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
