"""The one function every face calls: source text in, sorted findings out.

The CLI, the pre-commit hook and the flake8 plugin all go through `lint_source`, so they report the same
findings on the same lines and columns. The static path never imports or runs the code it reads.
"""

from __future__ import annotations

import ast
import gc
import io
import tokenize
from contextlib import contextmanager
from dataclasses import dataclass, field

from .config import DEFAULT_CONFIG, Config
from .noqa import suppressed
from .rules import ALL_RULES, Rule
from .rules.base import REGISTRATION_TRIGGERS, TREE_CALL_TRIGGERS
from .slicing import line_starts, parse_ast, python_lines, relevant_source, statement_lines

# Larger files are generated code, not something a person registers pytrees in by hand.
MAX_FILE_BYTES = 16 * 2**20

# A class registered static is judged by where it is built: the statements that use it are parsed too.
INSTANTIATED_TRIGGERS = ("register_static",)
# A function jitted with static arguments is judged by its calls: those that pass something that may be
# unhashable are parsed too.
CALLED_TRIGGERS = ("static_argnums", "static_argnames")
# A jitted function is judged by the classes its parameters are annotated with: only such defs are parsed.
JITTED_TRIGGERS = ("jit",)
# Half the prefilter's words contain "tree", and most files never write it (20 of jax.numpy's 24 modules):
# those words are searched for only in files that do.
COMMON_PART = "tree"


@dataclass(frozen=True)
class FindingFix:
    """A rule's fix in file positions: each edit replaces (line, column) to (end line, end column) by text."""

    description: str
    safe: bool
    edits: tuple[tuple[int, int, int, int, str], ...]


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    column: int  # 0-based, as flake8 expects (text and JSON output add 1)
    code: str
    message: str
    end_line: int = field(default=0, compare=False)  # where the reported expression ends (SARIF regions)
    end_column: int = field(default=0, compare=False)
    target: str | None = field(default=None, compare=False)  # what `pytree-lint verify` looks for (see Report)
    fix: FindingFix | None = field(default=None, compare=False)


class LintError(Exception):
    """A file that could not be linted; the message is the reason, for the user."""


def selected_rules(config: Config) -> list[Rule]:
    return [rule() for rule in ALL_RULES if config.enabled(rule.code)]


def prefilter(text: str, rules: list[Rule], config: Config) -> tuple[list[Rule], tuple[str, ...]]:
    """The text prefilter: the rules whose words the file contains (see Rule.triggers and .requires; the
    project's static-field helpers count for the rules that read registrations), and the trigger words of
    those rules that it contains, which are all the slicer has to look for. A file that concerns no rule is
    never parsed. Each word is searched for once, however many rules share it."""
    words = dict.fromkeys(word for rule in rules for word in (*rule.triggers, *rule.requires))
    has_common_part = COMMON_PART in text
    present = {word for word in words if (has_common_part or COMMON_PART not in word) and word in text}
    # How the project's static-field helpers are spelled where they are used (`static_field(...)`).
    helpers = [name.rsplit(".", 1)[-1] for name in config.static_field_functions]
    present.update(helper for helper in helpers if helper in text)
    concerned = [rule for rule in rules if rule.concerns(present)
                 or (rule.triggers == REGISTRATION_TRIGGERS and not present.isdisjoint(helpers))]
    words = dict.fromkeys([*(word for rule in concerned for word in rule.triggers), *helpers])
    return concerned, tuple(word for word in words if word in present)


def libcst_input(text: str, triggers: tuple[str, ...], tree: ast.Module) -> tuple[str, list[int], set[int]] | None:
    """What libcst is given to parse: the statements that matter (see slicing.py), the first line of each
    and those with a suspect tree call; None when nothing but imports matters. Raises SyntaxError."""
    # A tree call is judged by what it consumes: only statements whose tree calls may be misused count.
    return relevant_source(text, triggers, tree, instantiated_triggers=INSTANTIATED_TRIGGERS,
                           called_triggers=CALLED_TRIGGERS, tree_call_triggers=TREE_CALL_TRIGGERS,
                           jitted_triggers=JITTED_TRIGGERS)


def _parse(text: str, triggers: tuple[str, ...], tree: ast.Module | None):
    """libcst's tree of the statements that matter (see slicing.py), the line of the file on which each of
    its top-level statements starts and the first lines of those with a suspect tree call (both None when
    `ast` could not tell; the tree then has the file's own lines); None when nothing but imports matters.

    When the running Python's `ast` rejects the file, libcst may still parse it (syntax newer than this
    interpreter, such as PEP 695 on 3.11): the whole file is then parsed, and only if libcst fails too
    is the file reported, with `ast`'s clearer message.
    """
    try:
        tree = tree if tree is not None else parse_ast(text)
        relevant = libcst_input(text, triggers, tree)
        if relevant is None:
            return None
        sliced, first_lines, tree_call_lines = relevant
    except SyntaxError as error:
        rejected = f"syntax error at line {error.lineno}, column {error.offset}: {error.msg}"
        sliced = None
    except (RecursionError, MemoryError):
        raise LintError("too deeply nested for the parser") from None
    import libcst as cst  # loaded by the first file that has something to parse, never before

    try:
        if sliced is not None:
            try:
                module = cst.parse_module(sliced)
                if len(module.body) == len(first_lines):
                    return module, first_lines, tree_call_lines
            except cst.ParserSyntaxError:
                pass
            # A statement boundary the slicer did not foresee, so no map to the file's lines: the whole file.
        return cst.parse_module(text), statement_lines(tree) if sliced is not None else None, None
    except cst.ParserSyntaxError as error:
        if sliced is None:
            raise LintError(rejected) from None
        raise LintError(f"syntax error at line {error.raw_line}, column {error.raw_column + 1}: "
                        f"{error.message}") from None
    except RecursionError:
        raise LintError("too deeply nested for the parser") from None


def lint_source(text: str, path: str = "<string>", config: Config = DEFAULT_CONFIG,
                tree: ast.Module | None = None) -> list[Finding]:
    """Findings for one module's source (no `# noqa` filtering: flake8 does its own).

    `tree`, when the caller already has it (flake8 does), is the module's `ast`: it saves a parse.
    """
    rules, words = prefilter(text, selected_rules(config), config)
    if not rules:
        return []
    with _collector_paused():
        parsed = _parse(text, words, tree)
        if parsed is None:
            return []
        module, first_lines, tree_call_lines = parsed
        findings = _check(module, first_lines, tree_call_lines, rules, path, config)
        if tree_call_lines is not None and any(f.fix is not None for f in findings):
            # Sliced: whether a fix is safe depends on code the slice left out (who calls the function, who
            # mutates the list), so files with a fix are judged again on the whole module.
            import libcst as cst
            findings = _check(cst.parse_module(text), None, None, rules, path, config)
        return findings


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector, off while one file is analysed. libcst builds hundreds of
    thousands of objects per file, and the collector walked them again and again while they were alive:
    a fifth of the time on jax's source. They die with the file, and the collector resumes after it."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _check(module, first_lines: list[int] | None, tree_call_lines: set[int] | None, rules: list[Rule],
           path: str, config: Config) -> list[Finding]:
    """Run the rules on one parsed module (see ModuleAnalysis for the line arguments)."""
    from .analysis.module import ModuleAnalysis

    findings = []
    try:
        analysis = ModuleAnalysis(module, first_lines, config.static_field_functions, tree_call_lines)
        for rule in rules:
            for report in rule.check(analysis):
                (line, column), (end_line, end_column) = analysis.span(report.node) or ((1, 0), (1, 0))
                findings.append(Finding(path, line, column, rule.code, report.message, end_line, end_column,
                                        report.target, _positioned(analysis, report.fix)))
    except RecursionError:
        raise LintError("too deeply nested to analyse") from None
    except Exception as error:  # a bug of ours must not take down the run over the other files
        raise LintError(f"internal error in pytree-lint ({type(error).__name__}: {error}); "
                        "please report it with this file") from error
    return sorted(set(findings))


def _positioned(analysis, fix) -> FindingFix | None:
    """A rule's fix with its nodes turned into file positions (None if one cannot be placed)."""
    if fix is None:
        return None
    edits = []
    for first, last, text in fix.edits:
        start, end = analysis.span(first), analysis.span(last)
        if start is None or end is None:
            return None
        edits.append((*start[0], *end[1], text))
    return FindingFix(fix.description, fix.safe, tuple(edits))


def apply_fixes(text: str, fixes: list[FindingFix]) -> str:
    """`text` with the fixes' edits made, in one pass; a fix whose edits overlap an earlier one is skipped."""
    starts = line_starts(python_lines(text))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column

    chosen: list[tuple[int, int, str]] = []
    for fix in fixes:
        edits = [(offset(a, b), offset(c, d), replacement) for a, b, c, d, replacement in fix.edits]
        if not any(start < other_end and other_start < end for start, end, _ in edits
                   for other_start, other_end, _ in chosen):
            chosen.extend(edits)
    for start, end, replacement in sorted(chosen, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def decode(data: bytes) -> str:
    """Source bytes to text, honouring a PEP 263 coding cookie and a UTF-8 BOM."""
    return _decoded(data)[0]


def _decoded(data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with (what writing it back must use)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise LintError(f"cannot decode the file: {error}") from None


def read_source(path: str) -> tuple[str, str]:
    """A file's text and its encoding (a PEP 263 cookie or BOM is kept on writing back)."""
    return _decoded(read_file(path))


def read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise LintError(f"cannot read the file: {error.strerror or error}") from None


def lint_file(path: str, config: Config = DEFAULT_CONFIG) -> list[Finding]:
    """Findings for one file, after `# noqa`; LintError names what made the file unreadable."""
    return lint_bytes(read_file(path), path, config)


def lint_bytes(data: bytes, path: str, config: Config = DEFAULT_CONFIG) -> list[Finding]:
    """Findings for a file's content, after `# noqa`; LintError says why it could not be linted."""
    if len(data) > MAX_FILE_BYTES:
        raise LintError(f"file too large to lint ({len(data) / 2**20:.1f} MiB; the limit is "
                        f"{MAX_FILE_BYTES // 2**20} MiB)")
    if b"\0" in data:
        raise LintError("not a Python source file (it contains NUL bytes)")
    text = decode(data)
    return suppressed(text, lint_source(text, path, config))
