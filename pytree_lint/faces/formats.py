"""Output formats: text for people, json for tools, sarif for code scanning, github for PR annotations."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

from .. import __version__

HELP_URI = "https://github.com/pytree-lint/pytree-lint/blob/main/docs/rules.md#{code}"


def _rules():
    """The rules, imported when a format names them: a warm run that prints text never loads them."""
    from ..rules import ALL_RULES

    return ALL_RULES


def where(f) -> str:
    """`path:line:col`, or `path:cell N:line:col` in a notebook."""
    cell = f"cell {f.cell}:" if f.cell is not None else ""
    return f"{f.path}:{cell}{f.line}:{f.column + 1}"


# Code a concise line quotes at most this long; longer is cut, with an ellipsis.
MAX_QUOTED = 60
QUOTED = re.compile(r"`([^`]*)`")


def concise_message(message: str) -> str:
    """A message's first clause (what is wrong, and where the value comes from), its quoted code cut to
    MAX_QUOTED characters: the rest (the symptom, the remedy) is in `--output-format full`."""
    inside, cut = False, len(message)
    for index, char in enumerate(message):
        if char == "`":
            inside = not inside
        elif char == ";" and not inside:
            cut = index
            break
    return QUOTED.sub(lambda m: m.group(0) if len(m.group(1)) <= MAX_QUOTED
                      else f"`{m.group(1)[:MAX_QUOTED - 1]}…`", message[:cut])


def text(findings) -> str:
    """`--output-format concise` (the default): one short line per finding."""
    return "".join(f"{where(f)}: {f.code} {concise_message(f.message)}\n" for f in findings)


class _Colours:
    """ANSI styles for a terminal (none when piped, or when NO_COLOR is set)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, value: str) -> str:
        codes = {"bold": "1", "red": "1;31", "blue": "1;34", "cyan": "36"}
        return f"\033[{codes[style]}m{value}\033[0m" if self.enabled else value


def full(findings, colour: bool = False) -> str:
    """`--output-format full`: each finding's whole message, with the code frame of its line and of each
    line the message cites (ruff's full format)."""
    paint = _Colours(colour and not os.environ.get("NO_COLOR"))
    sources = _Sources()
    out = []
    for f in findings:
        out.append(f"{paint('bold', where(f))}: {paint('red', f.code)} {f.message}\n")
        lines = sources.lines(f.path, f.cell)
        # (line, caret start, caret end, None for the finding's own line or (cited path, cited cell))
        frame: list[tuple[int, int | None, int | None, tuple[str | None, int | None] | None]] = [
            (f.line, f.column, f.end[1] if f.end[0] == f.line else None, None)]
        for path, cell, line in _citations(f.message):
            if path is None:
                frame.append((line, None, None, (None, cell if cell is not None else f.cell)))
            else:
                frame.append((line, None, None, (path, None)))
        width = len(str(max(line for line, *_ in frame)))
        gutter = paint("blue", " " * width + " |")
        for line, start, end, cited in frame:
            cited_lines = lines
            if cited is not None:
                cited_path, cited_cell = cited
                label = (f"{cited_path}:{line}" if cited_path else
                         f"cell {cited_cell}, line {line}" if cited_cell not in (None, f.cell) else f"line {line}")
                out.append(f"{paint('blue', ' ' * width + ' =')} cited: {label}\n")
                cited_lines = sources.cited(f.path, cited_path, cited_cell)
            if not 0 < line <= len(cited_lines):
                continue
            source = cited_lines[line - 1].rstrip("\r\n")
            out.append(f"{paint('blue', str(line).rjust(width) + ' |')} {source}\n")
            if start is not None:
                stop = end if end is not None and end > start else len(source)
                out.append(f"{gutter} {' ' * start}{paint('red', '^' * max(1, stop - start))}\n")
        out.append("\n")
    return "".join(out)


def _citations(message: str):
    from ..analysis.module import citations

    return citations(message)


def cited_file(own_path: str, cited: str) -> str | None:
    """The file a message cites as `pkg/masks.py` (a path from the project's root): found from the
    finding's own folder upward."""
    from ..config import folders_upward

    for folder in folders_upward(os.path.dirname(os.path.abspath(own_path))):
        candidate = os.path.join(folder, cited)
        if os.path.isfile(candidate):
            return candidate
    return None


class _Sources:
    """The lines of the files (and notebook cells) a report shows, each read once."""

    def __init__(self) -> None:
        self._read: dict[tuple[str, int | None], list[str]] = {}

    def lines(self, path: str, cell: int | None) -> list[str]:
        key = (path, cell)
        if key not in self._read:
            self._read[key] = source_lines(path, cell)
        return self._read[key]

    def cited(self, own_path: str, cited_path: str | None, cell: int | None) -> list[str]:
        if cited_path is None:
            return self.lines(own_path, cell)
        found = cited_file(own_path, cited_path)
        return self.lines(found, None) if found is not None else []


def source_lines(path: str, cell: int | None = None) -> list[str]:
    """The lines of a file as saved (its encoding honoured), or of a notebook's cell; none when it is gone
    or unreadable since it was linted (what shows it is then left out)."""
    from ..analysis.syntax.source import python_lines
    from ..diskio import LintError, read_file, read_source

    try:
        if cell is None:
            return python_lines(read_source(path)[0])
        from ..notebooks import read_notebook

        sources = read_notebook(read_file(path), path).sources
        return python_lines(sources[cell - 1]) if 0 < cell <= len(sources) else []
    except (LintError, OSError):
        return []


def as_json(findings: list) -> str:
    names = {rule.code: rule.name for rule in _rules()} if findings else {}  # none to name: no rule loaded
    rows = []
    for f in findings:
        end_line, end_column = f.end
        row = {"path": f.path, "line": f.line, "column": f.column + 1, "end_line": end_line,
               "end_column": end_column + 1, "code": f.code,
               "name": names.get(f.code, f.code), "message": f.message}
        if f.cell is not None:
            row["cell"] = f.cell  # and `line`, `column`, `end_*` are within that cell
        if f.fix is not None:  # as ruff spells it: 1-based columns, applicability safe/unsafe
            row["fix"] = {"applicability": "safe" if f.fix.safe else "unsafe", "message": f.fix.description,
                          "edits": [{"location": {"row": line, "column": column + 1},
                                     "end_location": {"row": end_line, "column": end_column + 1},
                                     "content": content}
                                    for line, column, end_line, end_column, content in f.fix.edits]}
        rows.append(row)
    return json.dumps(rows, indent=2) + "\n"


def _github_escape(value: str, property_value: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def _in_cell(f) -> str:
    """A notebook finding's message names its cell: GitHub and SARIF regions know only lines."""
    return f"cell {f.cell}, line {f.line}: {f.message}" if f.cell is not None else f.message


def github(findings) -> str:
    return "".join(
        f"::warning file={_github_escape(f.path, True)},line={f.line},col={f.column + 1},"
        f"title={_github_escape(f'pytree-lint ({f.code})', True)}::{_github_escape(_in_cell(f))}\n"
        for f in findings)


def sarif(findings) -> str:
    rules = []
    for rule in _rules():
        documentation = rule.documentation()
        rules.append({
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": documentation},
            "helpUri": HELP_URI.format(code=rule.code.lower()),
            "help": {"text": documentation},
            "defaultConfiguration": {"level": "warning"},
        })
    index = {rule.code: position for position, rule in enumerate(_rules())}
    results = [{
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": "warning",
        "message": {"text": _in_cell(f)},
        **({"properties": {"cell": f.cell}} if f.cell is not None else {}),
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": f.path.replace("\\", "/")},
            "region": {"startLine": f.line, "startColumn": f.column + 1, "endLine": f.end[0],
                       "endColumn": f.end[1] + 1},
        }}],
    } for f in findings]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "pytree-lint", "version": __version__,
                                "informationUri": "https://github.com/pytree-lint/pytree-lint",
                                "rules": rules}},
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + "\n"


# `--output-format` (and its alias `--format`): `text` is `concise`. The human ones also take the notes
# that are not findings (unused noqa comments, statistics); the others are for tools.
HUMAN_FORMATS = frozenset({"concise", "text", "full"})
FORMATS = {"concise": text, "text": text, "full": full, "json": as_json, "sarif": sarif, "github": github}


def positive_seconds(text: str) -> float:
    """A duration option (`verify --timeout`, `server --time-budget`): a positive, finite number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text}")
    return seconds


def write_report(text: str, output_file: str | None = None) -> bool:
    """Write the report; a closed pipe (`pytree-lint rule PTL101 | head`) ends the output quietly. False
    (the reason said) when the output file cannot be written."""
    if output_file is not None:
        try:
            with open(output_file, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            print(f"pytree-lint: error: cannot write {output_file}: {error.strerror or error}", file=sys.stderr)
            return False
        return True
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at devnull so that does not raise too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as error:  # a full disk, a quota: the report is lost, and the run says so
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"pytree-lint: error: cannot write the report to stdout: {error.strerror or error}", file=sys.stderr)
        return False
    return True
