"""A module's text as `ast` positions address it: lines, code of a node, spans in characters.

`ast` counts columns in UTF-8 bytes; findings, fixes and editors count characters. Conversions are made
only for what is reported or quoted, line by line, so their cost follows the findings, not the file.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import warnings
from functools import cached_property
from itertools import accumulate

from ...knowledge.python import NEWER_SYNTAX

# How long a code snippet quoted in a message may be.
MAX_SNIPPET = 60

Position = tuple[int, int]  # (1-based line, 0-based character column)
Span = tuple[Position, Position]


def python_lines(text: str) -> list[str]:
    """The lines of `text` as Python numbers them: split at \\n, \\r\\n and \\r only (`str.splitlines`
    also splits at form feeds and Unicode separators, which would shift every later line)."""
    return io.StringIO(text, newline="").readlines()


def line_starts(lines: list[str]) -> list[int]:
    """The offset in the text at which each of its `lines` starts, and the text's length last."""
    return list(accumulate(map(len, lines), initial=0))


# Trees parsed to summarise a module that this process lints later (see parse's `keep`), by text, oldest
# first; at most this many characters of their texts (an `ast` takes about 24 bytes per character).
KEPT_CHARACTERS = 2_000_000
_kept: dict[str, ast.Module] = {}


def parse(text: str, keep: bool = False) -> ast.Module:
    """The module's `ast`; raises SyntaxError (and RecursionError/MemoryError on absurd nesting). `keep`:
    the tree is kept for the next parse of the same text (a module summarised before its own lint is then
    parsed once); a kept tree is given once."""
    tree = _kept.pop(text, None)
    if tree is not None:
        return tree
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like are not our business
        tree = ast.parse(text)
    if keep and len(text) <= KEPT_CHARACTERS:
        _kept[text] = tree
        while sum(map(len, _kept)) > KEPT_CHARACTERS:
            del _kept[next(iter(_kept))]
    return tree


def syntax_error_reason(error: SyntaxError, text: str) -> str:
    """A syntax error as the user reads it; when the line it stops at is in syntax a newer Python reads (see
    knowledge.python.NEWER_SYNTAX), which Python that is: the file is likely written for it."""
    reason = f"syntax error at line {error.lineno}, column {error.offset}: {error.msg}"
    lines = python_lines(text)
    line = lines[error.lineno - 1] if error.lineno is not None and 0 < error.lineno <= len(lines) else ""
    for version, what, line_pattern, message_pattern in NEWER_SYNTAX:
        if sys.version_info < version and re.search(line_pattern, line) and re.search(message_pattern, error.msg or ""):
            running, needed = ".".join(map(str, sys.version_info[:2])), ".".join(map(str, version))
            return (f"{reason} ({what}, Python {needed} syntax: this is Python {running}; lint the file with "
                    f"Python {needed} or newer)")
    return reason


def forget_kept(text: str) -> None:
    """Drop the tree kept for a text whose lint parses nothing (its words call for no rule): kept, it would
    stay until the process ends, and be given to the next parse of the same text, in another run."""
    _kept.pop(text, None)


_DEFINITION_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+")


# On each node of a definition read from another module of the project (ModuleView.foreign_class): the
# `Source` of that module, which quotes it and says where it is.
HOME = "pytree_lint_home"


def home_of(node: ast.AST) -> Source | None:
    """The other module's source a node was read from (None: a node of the module being linted)."""
    return getattr(node, HOME, None)


class Source:
    """The text of one module, for positions and quotes; for another module's, its `path` as messages cite
    it and its dotted name (`module`)."""

    def __init__(self, text: str, path: str | None = None, module: str | None = None) -> None:
        self.text = text
        self.path = path
        self.module = module

    @cached_property
    def lines(self) -> list[str]:
        return python_lines(self.text)

    def _line(self, number: int) -> str:
        lines = self.lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def column(self, line: int, byte_column: int) -> int:
        """The character column of a byte column of `line`."""
        text = self._line(line)
        if text.isascii():
            return byte_column
        return len(text.encode("utf-8")[:byte_column].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> Span | None:
        """((line, column), (end line, end column)) of a node; for a def or class, of its name. None for a
        node of another module."""
        home = home_of(node)
        if home is not None and home is not self:
            return None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return self.name_span(node)
        if getattr(node, "lineno", None) is None:
            return None
        end_line = node.end_lineno or node.lineno
        end_column = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return ((node.lineno, self.column(node.lineno, node.col_offset)),
                (end_line, self.column(end_line, end_column)))

    def name_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Span:
        """Where a def or class is named: `def <name>` on its first line."""
        line = node.lineno
        start = self.column(line, node.col_offset)
        match = _DEFINITION_NAME.match(self._line(line), start)
        if match is not None and self._line(line).startswith(node.name, match.end()):
            start = match.end()
        return (line, start), (line, start + len(node.name))

    def code(self, node: ast.AST) -> str:
        """The source text of a node, as written (`ast.get_source_segment` without its per-call split)."""
        home = home_of(node)
        if home is not None and home is not self:
            return home.code(node)
        if getattr(node, "lineno", None) is None:
            return ast.unparse(node)  # made by the analysis, not in the module
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
            first = node.decorator_list[0]
            start = (first.lineno, first.col_offset - 1)  # the decorators belong to the definition
        else:
            start = (node.lineno, node.col_offset)
        end = (node.end_lineno, node.end_col_offset)
        if start[0] == end[0]:
            return self._line(start[0]).encode("utf-8")[start[1]:end[1]].decode("utf-8", "replace")
        parts = [self._line(start[0]).encode("utf-8")[start[1]:].decode("utf-8", "replace")]
        parts.extend(self.lines[start[0]:end[0] - 1])
        parts.append(self._line(end[0]).encode("utf-8")[:end[1]].decode("utf-8", "replace"))
        return "".join(parts)

    def snippet(self, node: ast.AST) -> str:
        """A node's code on one line, without the comments of its lines, cut to `MAX_SNIPPET` characters: how
        messages quote code."""
        code = self.code(node)
        if "#" in code and "\n" in code:
            code = _without_comments(code)
        code = " ".join(code.split())
        return code if len(code) <= MAX_SNIPPET else code[:MAX_SNIPPET - 3] + "..."


def _without_comments(code: str) -> str:
    """An expression written over several lines without its comments (`(self.sizes,  # in pixels` then
    `self.options)`); as it is when it does not tokenize alone. `tokenize` is imported only then: most
    snippets are one line, and its import costs every start."""
    import tokenize

    lines = code.split("\n")
    try:
        comments = [token.start for token in tokenize.generate_tokens(io.StringIO(code).readline)
                    if token.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return code
    for row, column in comments:
        lines[row - 1] = lines[row - 1][:column]
    return "\n".join(lines)
