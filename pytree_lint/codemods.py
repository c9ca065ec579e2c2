"""The fix engine: libcst codemods that turn the analysis's fix plans into format-preserving edits.

Imported only when a fix is asked for (`--fix`, `--diff`, JSON output): the analysis runs on `ast`, and
libcst (ten times slower to parse) is paid only for the top-level statements that hold something to mend,
each parsed once whatever the number of fixes in it (the whole file if a statement does not parse alone).
Each plan names its node by the `ast` span; the codemod finds the libcst node there (the innermost node of
the wanted type that covers the span, so parentheses do not matter), rewrites it, and the edit is that
node's range replaced by the rewritten node's code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from .analysis.fixes import Codemod, FixPlan
from .analysis.syntax.source import Span, python_lines

Edit = tuple[int, int, int, int, str]  # (line, column, end line, end column, replacement): 1-based lines


@dataclass(frozen=True)
class FixRequest:
    """A fix plan, where its node is in the file, and the lines of the top-level statement around it."""

    plan: FixPlan
    span: Span
    statement: tuple[int, int]  # first and last line


@dataclass(frozen=True)
class RealisedFix:
    description: str
    safe: bool
    edits: tuple[Edit, ...]


_WANTED = {
    Codemod.SWAP_PARAMETERS: (cst.FunctionDef, cst.Lambda),
    Codemod.IMMUTABLE_CONTAINER: (cst.List, cst.Set, cst.ListComp, cst.SetComp, cst.Call),
    Codemod.WRAP: (cst.BaseExpression,),
    Codemod.UNWRAP: (cst.Call,),
}


def realise(text: str, requests: list[FixRequest]) -> list[RealisedFix | None]:
    """The edits of each request (None where the codemod cannot place or make it)."""
    lines = python_lines(text)
    by_statement: dict[tuple[int, int], list[int]] = {}
    for number, request in enumerate(requests):
        by_statement.setdefault(request.statement, []).append(number)
    results: list[RealisedFix | None] = [None] * len(requests)
    whole_file: list[int] = []
    for (first, last), numbers in sorted(by_statement.items()):
        parsed = _parse("".join(lines[first - 1:last]), first - 1)
        if parsed is None:
            whole_file.extend(numbers)
            continue
        for number in numbers:
            results[number] = _realise(parsed, requests[number])
    if whole_file:
        parsed = _parse(text, 0)
        for number in whole_file:
            results[number] = _realise(parsed, requests[number]) if parsed is not None else None
    return results


@dataclass(frozen=True)
class _Parsed:
    module: cst.Module
    positions: Mapping[cst.CSTNode, CodeRange]
    candidates: list[tuple[cst.CSTNode, CodeRange]]
    offset: int  # the line of the file before the parsed text's first line


def _parse(code: str, offset: int) -> _Parsed | None:
    try:
        wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    positions = wrapper.resolve(PositionProvider)
    wanted = tuple(kind for kinds in _WANTED.values() for kind in kinds)
    candidates: list[tuple[cst.CSTNode, CodeRange]] = [
        (node, code_range) for node, code_range in positions.items() if isinstance(node, wanted)]
    return _Parsed(wrapper.module, positions, candidates, offset)


def _realise(parsed: _Parsed, request: FixRequest) -> RealisedFix | None:
    (line, column), (end_line, end_column) = request.span
    span = ((line - parsed.offset, column), (end_line - parsed.offset, end_column))
    node = _innermost(parsed.candidates, _WANTED[request.plan.codemod], request.plan.codemod, span)
    if node is None:
        return None
    if request.plan.codemod is Codemod.SWAP_PARAMETERS:
        edits = _swap_parameters(parsed.module, parsed.positions, node, request.plan.names)
    elif request.plan.codemod is Codemod.WRAP:
        edits = [_edit(parsed.positions, node, node, f"{request.plan.names[0]}({parsed.module.code_for_node(node)})")]
    elif request.plan.codemod is Codemod.UNWRAP:
        if not isinstance(node, cst.Call) or not node.args:
            return None
        edits = [_edit(parsed.positions, node, node, parsed.module.code_for_node(node.args[0].value))]
    else:
        edits = _immutable_container(parsed.module, parsed.positions, node)
    if edits is None:
        return None
    edits = [(a + parsed.offset, b, c + parsed.offset, d, text) for a, b, c, d, text in edits]
    replacement = edits[0][4] if request.plan.codemod is not Codemod.SWAP_PARAMETERS else ""
    return RealisedFix(request.plan.description.format(replacement=replacement), request.plan.safe, tuple(edits))


def _covers(code_range: CodeRange, span: Span) -> bool:
    start, end = (code_range.start.line, code_range.start.column), (code_range.end.line, code_range.end.column)
    return start <= span[0] and span[1] <= end


def _innermost(candidates: list[tuple[cst.CSTNode, CodeRange]], wanted: tuple[type, ...], codemod: Codemod,
               span: Span) -> cst.CSTNode | None:
    """The smallest node of a wanted type whose range covers the span."""
    if codemod is Codemod.SWAP_PARAMETERS:
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
