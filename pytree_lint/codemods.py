"""The fix engine: libcst codemods that turn the analysis's fix plans into format-preserving edits.

Imported only when a fix is asked for (`--fix`, `--diff`, JSON output): the analysis runs on `ast`, and
libcst (ten times slower to parse) is paid only by the files that have something to mend, once per file
whatever the number of fixes. Each plan names its node by the `ast` span; the codemod finds the libcst
node there (the innermost node of the wanted type that covers the span, so parentheses do not matter),
rewrites it, and the edit is that node's range replaced by the rewritten node's code.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from .analysis.fixes import Codemod, FixPlan
from .analysis.source import Span

Edit = tuple[int, int, int, int, str]  # (line, column, end line, end column, replacement): 1-based lines


@dataclass(frozen=True)
class FixRequest:
    """A fix plan and where its node is in the file."""

    plan: FixPlan
    span: Span


@dataclass(frozen=True)
class RealisedFix:
    description: str
    safe: bool
    edits: tuple[Edit, ...]


_WANTED = {
    Codemod.SWAP_PARAMETERS: (cst.FunctionDef, cst.Lambda),
    Codemod.IMMUTABLE_CONTAINER: (cst.List, cst.Set, cst.ListComp, cst.SetComp, cst.Call),
}


def realise(text: str, requests: list[FixRequest]) -> list[RealisedFix | None]:
    """The edits of each request (None where the codemod cannot place or make it)."""
    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
    except (cst.ParserSyntaxError, RecursionError):
        return [None] * len(requests)
    module = wrapper.module
    positions = wrapper.resolve(PositionProvider)
    candidates = [(node, code_range) for node, code_range in positions.items()
                  if isinstance(node, (*_WANTED[Codemod.SWAP_PARAMETERS], *_WANTED[Codemod.IMMUTABLE_CONTAINER]))]
    results = []
    for request in requests:
        node = _innermost(candidates, _WANTED[request.plan.codemod], request)
        edits = None
        if node is not None:
            if request.plan.codemod is Codemod.SWAP_PARAMETERS:
                edits = _swap_parameters(module, positions, node, request.plan.names)
            else:
                edits = _immutable_container(module, positions, node)
        if edits is None:
            results.append(None)
            continue
        replacement = edits[0][4] if request.plan.codemod is Codemod.IMMUTABLE_CONTAINER else ""
        results.append(RealisedFix(request.plan.description.format(replacement=replacement),
                                   request.plan.safe, tuple(edits)))
    return results


def _covers(code_range: CodeRange, span: Span) -> bool:
    start, end = (code_range.start.line, code_range.start.column), (code_range.end.line, code_range.end.column)
    return start <= span[0] and span[1] <= end


def _innermost(candidates, wanted: tuple[type, ...], request: FixRequest) -> cst.CSTNode | None:
    """The smallest node of a wanted type whose range covers the request's span."""
    span = request.span
    if request.plan.codemod is Codemod.SWAP_PARAMETERS:
        span = (span[0], span[0])  # a def is named by its name: any def or lambda starting around it
    found = [(node, code_range) for node, code_range in candidates
             if isinstance(node, wanted) and _covers(code_range, span)]
    if not found:
        return None
    return min(found, key=lambda item: ((item[1].end.line - item[1].start.line),
                                        item[1].end.column - item[1].start.column))[0]


def _edit(positions, node: cst.CSTNode, last: cst.CSTNode, text: str) -> Edit:
    start, end = positions[node].start, positions[last].end
    return (start.line, start.column, end.line, end.column, text)


def _swap_parameters(module: cst.Module, positions, node, names: tuple[str, ...]) -> list[Edit] | None:
    parameters = {p.name.value: p for p in [*node.params.posonly_params, *node.params.params]}
    if len(names) != 2 or not all(name in parameters for name in names):
        return None
    first, second = (parameters[name] for name in names)

    def spelled(param: cst.Param) -> str:
        annotation = f": {module.code_for_node(param.annotation.annotation)}" if param.annotation is not None else ""
        return param.name.value + annotation

    def last(param: cst.Param) -> cst.CSTNode:
        return param.annotation.annotation if param.annotation is not None else param.name

    return [_edit(positions, first.name, last(first), spelled(second)),
            _edit(positions, second.name, last(second), spelled(first))]


def _immutable_container(module: cst.Module, positions, node) -> list[Edit] | None:
    replacement = _immutable(node)
    if replacement is None:
        return None
    return [_edit(positions, node, node, module.code_for_node(replacement))]


def _immutable(node: cst.CSTNode) -> cst.CSTNode | None:
    """The tuple or frozenset built where the list or set is built, keeping the code's own layout."""
    if isinstance(node, cst.List):
        elements = list(node.elements)
        if len(elements) == 1 and isinstance(elements[0].comma, cst.MaybeSentinel):
            elements[0] = elements[0].with_changes(comma=cst.Comma())
        return cst.Tuple(elements, lpar=[*node.lpar, cst.LeftParen(whitespace_after=node.lbracket.whitespace_after)],
                         rpar=[cst.RightParen(whitespace_before=node.rbracket.whitespace_before), *node.rpar])
    if isinstance(node, cst.Set):
        return _wrapped("frozenset", node.with_changes(lpar=[], rpar=[]), node)
    if isinstance(node, (cst.ListComp, cst.SetComp)):
        generator = cst.GeneratorExp(node.elt, node.for_in, lpar=[], rpar=[])
        return _wrapped("tuple" if isinstance(node, cst.ListComp) else "frozenset", generator, node)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("list", "set"):
        return node.with_changes(func=cst.Name("tuple" if node.func.value == "list" else "frozenset"))
    return None


def _wrapped(function: str, value: cst.BaseExpression, original: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(function), [cst.Arg(value)], lpar=original.lpar, rpar=original.rpar)
