"""Jupyter notebooks: their code cells linted as one module, in cell order, and the findings (and fixes)
placed back in the cells.

IPython syntax becomes what IPython makes of it, line for line, so every other line keeps its place and
each line of the module maps back to (cell, line in the cell): an assignment from a shell command or a
magic (`files = !ls`, `t = %timeit -o f()`) becomes IPython's call (`get_ipython().getoutput('ls')`); other
magic, shell and help lines become blank lines (an indented one, `pass` at its indentation); a cell magic
whose body is Python (`%%time`, `%%timeit`, `%%capture`) has only its first line blanked, any other
(`%%bash`) the whole cell.
A notebook of the format's current version is read with the standard library's `json`, any other (or one
whose cells are not of the format's shape) with nbformat, which converts it or says what is wrong; `--fix`
edits the JSON text in place: only the source strings it mends, keeping the file's indentation, key order,
line endings and form of the sources (string or list).
"""

from __future__ import annotations

import io
import json
import re
import tokenize
import warnings
from dataclasses import dataclass

from .analysis.record import remade
from .analysis.syntax.source import python_lines
from .config import Config
from .engine import Finding, FindingFix, LintError, apply_fixes, lint_text

# How messages cite a line of the module ("`x` at line 8", "(line 104)").
LINE_CITATION = re.compile(r"\bline (\d+)\b")


# The notebook format's current major version (every notebook Jupyter has written since 2015): read without
# nbformat, whose import and first validation take about 0.2 s, as long as the whole lint of a small project.
CURRENT_FORMAT = 4


@dataclass(frozen=True)
class NotebookSource:
    sources: tuple[str, ...]  # each cell's source, by cell number less 1 (none for the language server's)
    text: str  # the code cells joined, IPython lines blanked or rewritten
    places: tuple[tuple[int, int], ...]  # per module line (0-based): (cell number, 1-based; line in the cell)
    magic_lines: frozenset[int]  # the module lines (1-based) that are blanked magics


# IPython's help syntax: `obj?`, `??obj.attr`, alone on its line.
HELP = re.compile(r"^\s*\?{0,2}[\w.]+\?{0,2}\s*$")
# An assignment from a shell command or a line magic: `files = !ls`, `t = %timeit -o f()` (IPython's
# SystemAssign and MagicAssign).
ASSIGNED_FROM_IPYTHON = re.compile(r"^(?P<target>\s*[\w.\[\]\s,()*]+?\s*=\s*)(?P<escape>!|%)(?P<rest>.*)$")
# Cell magics that run their body as Python (IPython's own): only their first line is not Python.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})


def _as_ipython_runs_it(line: str) -> str | None:
    """An assignment from a shell command or line magic as IPython rewrites it, or None."""
    match = ASSIGNED_FROM_IPYTHON.match(line)
    if match is None or match.group("target").rstrip().endswith(("==", "!=", "<=", ">=")):
        return None
    target, rest = match.group("target"), match.group("rest").strip()
    if match.group("escape") == "!":
        return f"{target}get_ipython().getoutput({rest!r})"
    name, _, arguments = rest.partition(" ")
    return f"{target}get_ipython().run_line_magic({name!r}, {arguments.strip()!r})"


def _magic_lines(lines: list[str]) -> dict[int, str | None]:
    """The lines of a cell that are IPython, not Python, by index: what each becomes (IPython's call for an
    assignment from a magic or shell command; None: a blank line). `%` and `!` lines and help lines count
    where they begin a statement (not inside a string or brackets: `% b` can continue an expression); a
    cell magic's first line, and the rest of its cell unless its body is Python."""
    if lines and lines[0].lstrip().startswith("%%"):
        name = lines[0].lstrip()[2:].split(maxsplit=1)[0] if lines[0].strip() != "%%" else ""
        return {0: None} if name in PYTHON_CELL_MAGICS else dict.fromkeys(range(len(lines)))
    candidates = {index for index, line in enumerate(lines)
                  if line.lstrip().startswith(("%", "!")) or ("?" in line and HELP.match(line))
                  or ("=" in line and _as_ipython_runs_it(line) is not None)}
    # A candidate inside a string or brackets is Python, and may close them: the first such is kept, and
    # the cell is looked at again (the lines after it may only have seemed inside).
    for _attempt in range(len(candidates)):
        inside = _continued_lines(lines, candidates) & candidates
        if not inside:
            break
        candidates.discard(min(inside))
    return {index: _as_ipython_runs_it(lines[index]) for index in sorted(candidates)}


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
    cells = _current_cells(data)
    if cells is None:
        cells = _cells_read_by_nbformat(data)
    code = [(number, source) for number, (cell_type, source) in enumerate(cells, start=1) if cell_type == "code"]
    return cells_as_module(code, tuple(source for _cell_type, source in cells))


def _current_cells(data: bytes) -> list[tuple[str, str]] | None:
    """(type, source) of each cell of a notebook of the current format, each source one string; None when the
    file is not of that format's shape (not JSON, another version, a cell or source of another kind)."""
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(notebook, dict) or notebook.get("nbformat") != CURRENT_FORMAT or not isinstance(
            cells := notebook.get("cells"), list):
        return None
    found = []
    for cell in cells:
        source = cell.get("source", "") if isinstance(cell, dict) else None
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)  # the format's lines of a multi-line string
        if not isinstance(source, str):
            return None
        found.append((cell.get("cell_type"), source))
    return found


def _cells_read_by_nbformat(data: bytes) -> list[tuple[str, str]]:
    """(type, source) of each cell, as nbformat reads (and converts) the notebook."""
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat's MissingIDFieldWarning (Colab's notebooks have no ids)
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
        cells = [(cell.get("cell_type"), cell.get("source", "")) for cell in notebook.cells]
        if not all(isinstance(source, str) for cell_type, source in cells if cell_type == "code"):
            raise ValueError("a code cell's source is not text")
    except Exception as error:  # nbformat's own ValidationError, RecursionError, a cell that is no dict...
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise LintError(f"not a valid notebook: {reason}") from None
    return [(cell_type, source if isinstance(source, str) else "") for cell_type, source in cells]


def cells_as_module(cells: list[tuple[int, str]], sources: tuple[str, ...] = ()) -> NotebookSource:
    """Code cells, each (its number in the notebook, its source), as one module; `sources`, every cell's
    (the language server's notebook documents come here too, with none)."""
    lines: list[str] = []
    places: list[tuple[int, int]] = []
    magics: set[int] = set()
    for number, text in cells:
        cell_lines = _lines(text) or [""]
        ipython = _magic_lines(cell_lines)
        whole_cell = len(ipython) == len(cell_lines) and cell_lines[0].lstrip().startswith("%%")
        for index, line in enumerate(cell_lines):
            if index in ipython:
                magics.add(len(lines) + 1)
                # An indented magic may be its block's only statement (`if ...:` then `!pip install`):
                # `pass` at its indentation keeps the block Python.
                indent = line[:len(line) - len(line.lstrip())]
                line = ipython[index] or (f"{indent}pass" if indent and not whole_cell else "")
            lines.append(line)
            places.append((number, index + 1))
    return NotebookSource(sources, "".join(line + "\n" for line in lines), tuple(places), frozenset(magics))


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
    return remade(finding, line=line, end_line=end_line, cell=cell, message=message, fix=fix)


def _fix_in_cell(fix: FindingFix, source: NotebookSource, cell: int) -> FindingFix | None:
    edits = []
    for line, column, end_line, end_column, text in fix.edits:
        if not (0 < line <= end_line <= len(source.places)) or {line, end_line} & source.magic_lines:
            return None
        (start_cell, start), (end_cell, end) = source.places[line - 1], source.places[end_line - 1]
        if start_cell != cell or end_cell != cell:
            return None
        edits.append((start, column, end, end_column, text))
    return fix._replace(edits=tuple(edits))


def fix_notebook(data: bytes, path: str, config: Config) -> tuple[str, int]:
    """The notebook's text with the safe fixes applied to its code cells, and how many were applied. Only
    the JSON strings of the mended lines change: the rest of the file stays byte for byte."""
    source = read_notebook(data, path)
    safe = [f.fix for f in _module_findings(source, path, config, fixes=True) if f.fix is not None and f.fix.safe]
    before, after = _lines(source.text), _lines(apply_fixes(source.text, safe))
    if len(after) != len(before):
        raise LintError("a fix changed the number of lines: fix this notebook's cells by hand")
    mended: dict[int, dict[int, str]] = {}  # cell number -> line index in it -> the mended line
    for module_line, (cell, line) in enumerate(source.places, start=1):
        if after[module_line - 1] != before[module_line - 1] and module_line not in source.magic_lines:
            mended.setdefault(cell, {})[line - 1] = after[module_line - 1]
    text = data.decode("utf-8")
    spans = _source_spans(text)
    edits = []  # (start, end, JSON text) in the file's text
    for cell, changed in mended.items():
        if cell - 1 not in spans:
            raise LintError("a cell's source was not found in the file: fix this notebook's cells by hand")
        (start, end), elements = spans[cell - 1]
        raw = text[start:end]
        old = json.loads(raw)
        old_text = old if isinstance(old, str) else "".join(old)
        new_text = _with_lines(old_text, changed)
        if elements is not None and len(elements) == len(python_lines(old_text)) and all(
                len(python_lines(element)) == 1 for element in old):
            # One JSON string per line: only the mended ones are written again.
            for index, line in changed.items():
                element_start, element_end = elements[index]
                edits.append((element_start, element_end, _json_string(
                    _with_lines(old[index], {0: line}), text[element_start:element_end])))
        elif elements is not None:
            edits.append((start, end, json.dumps(python_lines(new_text), ensure_ascii="\\u" in raw)))
        else:
            edits.append((start, end, _json_string(new_text, raw)))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, len(safe)


def _with_lines(source: str, changed: dict[int, str]) -> str:
    """`source` with lines replaced by index, each keeping its own line end."""
    lines = python_lines(source)
    for index, new in changed.items():
        old = lines[index]
        lines[index] = new + old[len(old.rstrip("\r\n")):]
    return "".join(lines)


def _json_string(value: str, old_raw: str) -> str:
    """`value` as a JSON string, escaping non-ASCII letters only if the file did."""
    return json.dumps(value, ensure_ascii="\\u" in old_raw)


def _source_spans(text: str) -> dict[int, tuple[tuple[int, int], list[tuple[int, int]] | None]]:
    """For each cell of the notebook's JSON text, by its index: where its `source` value is, and where each
    of its strings is when it is a list (None when it is one string)."""
    decoder = json.JSONDecoder()
    spans: dict[int, tuple[tuple[int, int], list[tuple[int, int]] | None]] = {}
    whitespace = re.compile(r"[ \t\n\r]*")

    def skip(index: int) -> int:
        return whitespace.match(text, index).end()

    def value(index: int, path: tuple) -> int:
        """Read the value at `index` (recording the spans of cells' sources); the index after it."""
        index = skip(index)
        opener = text[index]
        if opener not in "[{":
            end = decoder.raw_decode(text, index)[1]
            if _is_source(path):
                spans[path[1]] = ((index, end), None)
            elif _is_source(path[:-1]):
                spans[path[1]][1].append((index, end))  # type: ignore[union-attr]
            return end
        if _is_source(path):
            spans[path[1]] = ((index, 0), [])
        closer, index, position = {"[": "]", "{": "}"}[opener], skip(index + 1), 0
        while text[index] != closer:
            if opener == "{":
                key, index = decoder.raw_decode(text, index)
                index = skip(skip(index) + 1)  # past the colon
            else:
                key = position
            index = skip(value(index, (*path, key)))
            position += 1
            if text[index] == ",":
                index = skip(index + 1)
        if _is_source(path):
            spans[path[1]] = ((spans[path[1]][0][0], index + 1), spans[path[1]][1])
        return index + 1

    value(0, ())
    return spans


def _is_source(path: tuple) -> bool:
    """The path (keys and indexes from the top) of a cell's `source`."""
    return len(path) == 3 and path[0] == "cells" and isinstance(path[1], int) and path[2] == "source"
