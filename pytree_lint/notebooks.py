"""Jupyter notebooks: their code cells linted as one module, in cell order, and the findings (and fixes)
placed back in the cells.

Magics (`%time`, `%%bash` cells) and shell lines (`!pip install`) are not Python: they become blank lines
(an indented one, `pass` at its indentation), so every other line keeps its place, and each line of the
module maps back to (cell, line in the cell).
The notebook is read and written with nbformat; `--fix` changes only the code cells' sources, keeping
outputs and metadata.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, replace

from .analysis.source import python_lines
from .config import Config
from .engine import Finding, FindingFix, LintError, apply_fixes, lint_text

# How messages cite a line of the module ("`x` at line 8", "(line 104)").
LINE_CITATION = re.compile(r"\bline (\d+)\b")


@dataclass(frozen=True)
class NotebookSource:
    notebook: object  # nbformat.NotebookNode (None for the language server's notebook documents)
    text: str  # the code cells joined, magics blanked
    places: tuple[tuple[int, int], ...]  # per module line (0-based): (cell number, 1-based; line in the cell)
    magic_lines: frozenset[int]  # the module lines (1-based) that are blanked magics


# IPython's help syntax: `obj?`, `??obj.attr`, alone on its line.
HELP = re.compile(r"^\s*\?{0,2}[\w.]+\?{0,2}\s*$")


def _magic_lines(lines: list[str]) -> set[int]:
    """The indexes of a cell's lines that are IPython, not Python: `%` and `!` lines and help lines that
    begin a statement (not inside a string or brackets: `% b` can continue an expression), or every line
    of a `%%` cell."""
    if lines and lines[0].lstrip().startswith("%%"):
        return set(range(len(lines)))
    candidates = {index for index, line in enumerate(lines)
                  if line.lstrip().startswith(("%", "!")) or ("?" in line and HELP.match(line))}
    # A candidate inside a string or brackets is Python, and may close them: the first such is kept, and
    # the cell is looked at again (the lines after it may only have seemed inside).
    for _attempt in range(len(candidates)):
        inside = _continued_lines(lines, candidates) & candidates
        if not inside:
            break
        candidates.discard(min(inside))
    return candidates


def _continued_lines(lines: list[str], blanked: set[int]) -> set[int]:
    """The indexes of the lines (with `blanked` ones blank) that are inside a string or brackets."""
    text = "".join("\n" if index in blanked else line + "\n" for index, line in enumerate(lines))
    inside: set[int] = set()
    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0], token.end[0]))  # 0-based: the lines after the first
            elif token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            elif token.type == tokenize.NL and depth > 0:
                inside.add(token.start[0])  # the next line (0-based) continues the expression
    except (tokenize.TokenError, SyntaxError):
        pass  # not valid Python either way: the linter reports it
    return inside


def _lines(text: str) -> list[str]:
    """A cell's lines as Python reads them: split at line ends only (`str.splitlines` also splits inside a
    string at a form feed or U+2028, which makes valid code a syntax error)."""
    return [line.rstrip("\r\n") for line in python_lines(text)]


def read_notebook(data: bytes, path: str) -> NotebookSource:
    """The notebook's code as one module; LintError names what makes it unreadable."""
    import nbformat

    try:
        notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
        cells = [(number, cell.get("source", "")) for number, cell in enumerate(notebook.cells, start=1)
                 if cell.get("cell_type") == "code"]
        if not all(isinstance(source, str) for _number, source in cells):
            raise ValueError("a code cell's source is not text")
    except Exception as error:  # nbformat's own ValidationError, RecursionError, a cell that is no dict...
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise LintError(f"not a valid notebook: {reason}") from None
    return cells_as_module(cells, notebook)


def cells_as_module(cells: list[tuple[int, str]], notebook: object = None) -> NotebookSource:
    """Code cells, each (its number in the notebook, its source), as one module (the language server's
    notebook documents come here too, with no nbformat notebook)."""
    lines: list[str] = []
    places: list[tuple[int, int]] = []
    magics: set[int] = set()
    for number, text in cells:
        cell_lines = _lines(text) or [""]
        blank = _magic_lines(cell_lines)
        whole_cell = bool(cell_lines) and cell_lines[0].lstrip().startswith("%%")
        for index, line in enumerate(cell_lines):
            if index in blank:
                magics.add(len(lines) + 1)
                # An indented magic may be its block's only statement (`if ...:` then `!pip install`):
                # `pass` at its indentation keeps the block Python.
                indent = line[:len(line) - len(line.lstrip())]
                line = f"{indent}pass" if indent and not whole_cell else ""
            lines.append(line)
            places.append((number, index + 1))
    return NotebookSource(notebook, "".join(line + "\n" for line in lines), tuple(places), frozenset(magics))


def lint_notebook(data: bytes, path: str, config: Config) -> list[Finding]:
    """Findings for a notebook, each with its cell and its line and column in that cell. (Fixes are
    applied with `fix_notebook`; they are not shown per finding.)"""
    source = read_notebook(data, path)
    return [in_cell(finding, source) for finding in _module_findings(source, path, config, fixes=False)]


def _module_findings(source: NotebookSource, path: str, config: Config, fixes: bool) -> list[Finding]:
    try:
        return lint_text(source.text, path, config, fixes)
    except LintError as error:
        raise LintError(LINE_CITATION.sub(lambda m: _cited(source, m, None), str(error))) from None


def _cited(source: NotebookSource, match: re.Match, cell: int | None) -> str:
    """A line a message cites, as the notebook shows it: in the finding's cell, or in another one."""
    number = int(match.group(1))
    if not 0 < number <= len(source.places):
        return match.group(0)
    other, other_line = source.places[number - 1]
    return f"line {other_line}" if other == cell else f"cell {other}, line {other_line}"


def in_cell(finding: Finding, source: NotebookSource, keep_fix: bool = False) -> Finding:
    """The finding placed in its cell; `keep_fix`: with its fix in the cell's lines (dropped when the fix
    reaches into another cell or a magic)."""
    cell, line = source.places[finding.line - 1]
    end_line = finding.end_line
    if end_line:
        end_cell, end_line = source.places[end_line - 1]
        end_line = end_line if end_cell == cell else line

    message = LINE_CITATION.sub(lambda match: _cited(source, match, cell), finding.message)
    fix = _fix_in_cell(finding.fix, source, cell) if keep_fix and finding.fix is not None else None
    return replace(finding, line=line, end_line=end_line, cell=cell, message=message, fix=fix)


def _fix_in_cell(fix: FindingFix, source: NotebookSource, cell: int) -> FindingFix | None:
    edits = []
    for line, column, end_line, end_column, text in fix.edits:
        if not (0 < line <= end_line <= len(source.places)) or {line, end_line} & source.magic_lines:
            return None
        (start_cell, start), (end_cell, end) = source.places[line - 1], source.places[end_line - 1]
        if start_cell != cell or end_cell != cell:
            return None
        edits.append((start, column, end, end_column, text))
    return replace(fix, edits=tuple(edits))


def fix_notebook(data: bytes, path: str, config: Config) -> tuple[str, int]:
    """The notebook, as JSON text, with the safe fixes applied to its code cells (outputs and metadata
    kept), and how many were applied."""
    import nbformat

    source = read_notebook(data, path)
    safe = [f.fix for f in _module_findings(source, path, config, fixes=True) if f.fix is not None and f.fix.safe]
    fixed = _lines(apply_fixes(source.text, safe))
    if len(fixed) != len(source.places):
        raise LintError("a fix changed the number of lines: fix this notebook's cells by hand")
    by_cell: dict[int, list[tuple[int, str]]] = {}
    for module_line, (cell, _line) in enumerate(source.places, start=1):
        by_cell.setdefault(cell, []).append((module_line, fixed[module_line - 1]))
    for number, cell in enumerate(source.notebook.cells, start=1):
        if number not in by_cell:
            continue
        original = _lines(cell.source) or [""]
        lines = [old if module_line in source.magic_lines else new
                 for old, (module_line, new) in zip(original, by_cell[number])]
        cell.source = "\n".join(lines) + ("\n" if cell.source.endswith("\n") else "")
    written = nbformat.writes(source.notebook)
    return written + ("\n" if data.endswith(b"\n") and not written.endswith("\n") else ""), len(safe)
