"""Output formats: text for people, json for tools, sarif for code scanning, github for PR annotations."""

from __future__ import annotations

import json

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


def text(findings) -> str:
    return "".join(f"{where(f)}: {f.code} {f.message}\n" for f in findings)


def as_json(findings) -> str:
    names = {rule.code: rule.name for rule in _rules()}
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


FORMATS = {"text": text, "json": as_json, "sarif": sarif, "github": github}
