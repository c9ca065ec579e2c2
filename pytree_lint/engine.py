"""The one function every face calls: source text in, sorted findings out.

The CLI, the pre-commit hook and the flake8 plugin all go through `lint_source`, so they report the same
findings on the same lines and columns. The static path never imports or runs the code it reads.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass

import libcst as cst

from .analysis import ModuleAnalysis
from .config import DEFAULT_CONFIG, Config
from .noqa import suppressed
from .rules import ALL_RULES, Rule


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    column: int  # 0-based, as flake8 expects (text and JSON output add 1)
    code: str
    message: str


class LintError(Exception):
    """A file that could not be linted; the message is the reason, for the user."""


def selected_rules(config: Config) -> list[Rule]:
    return [rule() for rule in ALL_RULES if config.enabled(rule.code)]


def might_match(text: str, rules: list[Rule]) -> bool:
    """The text prefilter: a file that names nothing a rule reacts to is never parsed."""
    return any(trigger in text for rule in rules for trigger in rule.triggers)


def lint_source(text: str, path: str = "<string>", config: Config = DEFAULT_CONFIG) -> list[Finding]:
    """Findings for one module's source (no `# noqa` filtering: flake8 does its own)."""
    rules = selected_rules(config)
    if not rules or not might_match(text, rules):
        return []
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise LintError(f"syntax error at line {error.raw_line}, column {error.raw_column + 1}: "
                        f"{error.message}") from None
    except RecursionError:
        raise LintError("too deeply nested for the parser") from None
    analysis = ModuleAnalysis(module)
    findings = []
    try:
        for rule in rules:
            for report in rule.check(analysis):
                line, column = analysis.position(report.node) or (1, 0)
                findings.append(Finding(path, line, column, rule.code, report.message))
    except RecursionError:
        raise LintError("too deeply nested to analyse") from None
    except Exception as error:  # a bug of ours must not take down the run over the other files
        raise LintError(f"internal error in pytree-lint ({type(error).__name__}: {error}); "
                        "please report it with this file") from error
    return sorted(set(findings))


def decode(data: bytes) -> str:
    """Source bytes to text, honouring a PEP 263 coding cookie and a UTF-8 BOM."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise LintError(f"cannot decode the file: {error}") from None


def lint_file(path: str, config: Config = DEFAULT_CONFIG) -> list[Finding]:
    """Findings for one file, after `# noqa`; LintError names what made the file unreadable."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise LintError(f"cannot read the file: {error.strerror or error}") from None
    if b"\0" in data:
        raise LintError("not a Python source file (it contains NUL bytes)")
    text = decode(data)
    return suppressed(text, lint_source(text, path, config))
