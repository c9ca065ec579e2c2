"""`# noqa` and `# noqa: PTL101,...` with flake8's semantics, for the faces that are not flake8."""

from __future__ import annotations

import re

from .analysis.syntax.source import python_lines

# Read only in a file that spells `noqa`: the patterns are compiled (by `re`'s cache) and `tokenize` imported
# then, not at each start (2 ms of it).
# flake8's own pattern (flake8/defaults.py).
NOQA = r"(?i)# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?"
# A comment line that skips the whole file: flake8's `# flake8: noqa` (without codes, as in flake8), or ours.
NOQA_FILE = r"(?im)^[ \t]*#[ \t]*(?:flake8|pytree-lint)[:=][ \t]*noqa[ \t]*$"


def skips_file(text: str) -> bool:
    """`# flake8: noqa` or `# pytree-lint: noqa` on a line of its own: nothing in the file is reported."""
    return "noqa" in text.lower() and re.search(NOQA_FILE, text) is not None


def _logical_spans(text: str) -> list[tuple[int, int]] | None:
    """(first line, last line) of each logical line, as flake8 searches for noqa; None for text tokenize
    cannot read."""
    import io
    import tokenize

    lines = python_lines(text)
    spans = []
    first, last = len(lines) + 2, -1
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            first, last = min(first, token.start[0]), max(last, token.end[0])
            if token.type in (tokenize.NL, tokenize.NEWLINE):
                spans.append((first, last))
                first, last = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError):
        return None
    return spans


def _logical_lines(text: str) -> dict[int, str]:
    """Line number -> the text of the whole logical line around it."""
    lines = python_lines(text)
    spans = _logical_spans(text)
    if spans is None:
        return dict(enumerate(lines, start=1))
    mapping: dict[int, str] = {}
    for first, last in spans:
        mapping.update(dict.fromkeys(range(first, last + 1), "".join(lines[first - 1:last])))
    return mapping


def _logical_starts(text: str) -> dict[int, int]:
    """Line number -> the first line of the logical line around it."""
    spans = _logical_spans(text)
    if spans is None:
        return {}
    return {line: first for first, last in spans for line in range(first, last + 1)}


def _listed_codes(match: re.Match) -> tuple[str, ...] | None:
    """The codes a `# noqa: ...` comment lists, upper-cased; None for a bare `# noqa`."""
    codes = match.group("codes")
    return None if codes is None else tuple(c.upper() for c in re.split(r"[,\s]+", codes) if c)


def suppressed(text: str, findings):
    """The findings that a `# noqa` comment on their logical line does not silence."""
    findings = list(findings)
    if not findings or "noqa" not in text.lower():
        return findings
    lines = _logical_lines(text)
    kept = []
    for finding in findings:
        match = re.search(NOQA, lines.get(finding.line, ""))
        if match is None:
            kept.append(finding)
            continue
        listed = _listed_codes(match)
        if listed is not None and not finding.code.startswith(listed):
            kept.append(finding)
    return kept


def unused(text: str, findings) -> list[tuple[int, int, tuple[str, ...]]]:
    """(line, column, codes) of each `# noqa: PTL...` comment whose PTL codes silence no finding on its
    logical line (`findings`: before suppression). A bare `# noqa`, or other tools' codes, are left alone."""
    if "noqa" not in text.lower() or skips_file(text):
        return []
    lines = python_lines(text)
    starts = _logical_starts(text)
    found_by_line: dict[int, set[str]] = {}
    for finding in findings:
        found_by_line.setdefault(starts.get(finding.line, finding.line), set()).add(finding.code)
    report = []
    for number, line in enumerate(lines, start=1):
        match = re.search(NOQA, line)
        listed = [code for code in (_listed_codes(match) or ()) if code.startswith("PTL")] if match else []
        if not listed:
            continue
        found = found_by_line.get(starts.get(number, number), set())
        idle = tuple(code for code in listed if not any(f.startswith(code) for f in found))
        if idle:
            report.append((number, match.start(), idle))
    return report


def suppression_edit(text: str, line: int, code: str) -> tuple[int, int, int, int, str]:
    """The edit (1-based lines, 0-based columns) that silences `code` reported on `line`: the code added to
    the `# noqa: ...` comment of its logical line, or `  # noqa: CODE` at the end of that logical line."""
    lines = python_lines(text)
    spans = _logical_spans(text) or []
    first, last = next(((a, b) for a, b in spans if a <= line <= b), (line, line))
    for number in range(first, min(last, len(lines)) + 1):
        match = re.search(NOQA, lines[number - 1])
        if match is not None and match.group("codes"):
            end = match.start("codes") + len(match.group("codes").rstrip(", \t\r\n"))
            return number, end, number, end, f",{code}"
    last = min(last, len(lines))
    end = len(lines[last - 1].rstrip("\r\n")) if lines else 0
    return max(last, 1), end, max(last, 1), end, f"  # noqa: {code}"
