"""Files in, findings out: the one engine every face calls.

The CLI, the pre-commit hook and the flake8 plugin all go through `lint_source`, so they report the same
findings on the same lines and columns. The analysis runs on Python's `ast` (flake8 hands over the tree it
parsed; everyone else parses once here); libcst is imported only to realise fixes when they are asked for.
The static path never imports or runs the code it reads.
"""

from __future__ import annotations

import ast
import gc
from bisect import bisect_right
from contextlib import contextmanager
from functools import cache, lru_cache, total_ordering
from typing import TYPE_CHECKING

from .analysis.record import NamedTuple, record
from .analysis.syntax.source import (
    Source,
    forget_kept,
    home_of,
    line_starts,
    parse,
    python_lines,
    syntax_error_reason,
)
from .config import DEFAULT_CONFIG, Config
from .diskio import LintError, python_text, read_file
from .knowledge.triggers import REGISTRATION_TRIGGERS
from .noqa import skips_file, suppressed

if TYPE_CHECKING:
    from .rules import Rule

# Half the prefilter's words contain "tree", and most files never write it (20 of jax.numpy's 24 modules):
# those words are searched for only in files that do.
COMMON_PART = "tree"


class FindingFix(NamedTuple):
    """A rule's fix in file positions: each edit replaces (line, column) to (end line, end column) by text."""

    description: str
    safe: bool
    edits: tuple[tuple[int, int, int, int, str], ...]


@total_ordering
@record
class Finding:
    """One finding. Two are the same finding, and sort, by where and what (file, line, column, code,
    message): the rest says more about it."""

    path: str
    line: int  # 1-based
    column: int  # 0-based, as flake8 expects (text and JSON output add 1)
    code: str
    message: str
    end_line: int = 0  # where the reported expression ends (SARIF regions)
    end_column: int = 0
    target: str | None = None  # what `pytree-lint verify` looks for (see Report)
    member: str | None = None  # the attribute holding it (see Report)
    fix: FindingFix | None = None
    cell: int | None = None  # a notebook's cell (1-based); `line` is in it

    def _compared(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.message)

    def __eq__(self, other: object) -> bool:
        return self._compared() == other._compared() if isinstance(other, Finding) else NotImplemented

    def __lt__(self, other: Finding) -> bool:
        return self._compared() < other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    @property
    def end(self) -> tuple[int, int]:
        """(line, 0-based column) where the reported expression ends; one character past the start when
        the end is not known."""
        return (max(self.end_line, self.line), self.end_column) if self.end_line else (self.line, self.column + 1)

    @property
    def order(self) -> tuple:
        """How reports sort: by file, then cell, line and column."""
        return (self.path, self.cell or 0, self.line, self.column, self.code, self.message)


class InternalError(LintError):
    """A bug of ours met while linting a file: reported as such (exit status 2, flake8's plugin failure),
    never as a file without findings."""


_analysis_loaded = False  # see load_analysis


def load_analysis() -> None:
    """Import the rules and the analysis (before forking workers that all need them, rather than on the
    first file linted), and give the project model its summarizer: the analysis that reads a module for
    the rules also summarises it for the modules that import it. The first call imports with the cyclic
    collector paused and then moves what the process holds out of its sight (`gc.freeze`): modules, classes
    and functions live as long as the process, and the collector walked them during the imports and again at
    each full collection after (39 M of the 483 M instructions of importing flake8 and the analysis)."""
    global _analysis_loaded
    if not _analysis_loaded:
        with collector_paused():
            from .analysis.project import summarizer  # noqa: F401
            from .rules import ALL_RULES  # noqa: F401

            gc.freeze()  # before the collector is back: its next collection would walk all the imports made
        _analysis_loaded = True
    from .analysis.project.modules import Project
    from .analysis.project.summarizer import Summarizer
    from .analysis.project.summary import ModuleSummary

    Project.summarize = Summarizer.run
    Project.read_calls = Summarizer.calls_in
    ModuleSummary.make_returns = Summarizer.returns_of
    ModuleSummary.make_uses = Summarizer.uses_of
    ModuleSummary.make_functions = Summarizer.functions_of


@lru_cache(maxsize=16)
def selected_rules(config: Config) -> tuple[Rule, ...]:
    """The rules `config` enables, once per configuration (a rule keeps no state between files)."""
    from .rules import ALL_RULES  # here: a run that lints no file (all recalled from the cache) never loads them

    return tuple(rule() for rule in ALL_RULES if config.enabled(rule.code))


def prefilter(text: str, rules: tuple[Rule, ...], config: Config) -> list[Rule]:
    """The rules one of whose words the file contains (see Rule.triggers and .requires; the project's
    static-field helpers count for the rules that read registrations). A file that concerns no rule is never
    parsed. The rules share a few families of words, each searched for once and only until one is found (every
    word of every family was: 75 ms of a cold run over netket, 470 over tfp)."""
    has_common_part = COMMON_PART in text
    spelled: dict[tuple[str, ...], bool] = {}

    def spells(words: tuple[str, ...]) -> bool:
        if words not in spelled:
            spelled[words] = any((has_common_part or COMMON_PART not in word) and word in text
                                 for word in _shortest(words))
        return spelled[words]

    # How the project's static-field helpers are spelled where they are used (`static_field(...)`).
    helpers = [name.rsplit(".", 1)[-1] for name in config.static_field_functions]
    uses_helpers = any(helper in text for helper in helpers)
    return [rule for rule in rules if (spells(rule.triggers) and (not rule.requires or spells(rule.requires)))
            or (rule.triggers == REGISTRATION_TRIGGERS and uses_helpers)]


@cache
def _shortest(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of a family that hold no other of its words: a text spells one of the family's words when it
    spells one of these (`tree_map` stands for `tree_map_with_path` too)."""
    return tuple(word for word in words if not any(other != word and other in word for other in words))


def lint_source(text: str, path: str = "<string>", config: Config = DEFAULT_CONFIG,
                tree: ast.Module | None = None, fixes: bool = False) -> list[Finding]:
    """Findings for one module's source (no `# noqa` filtering: flake8 does its own).

    `tree`, when the caller already has it (flake8 does), is the module's `ast`: it saves a parse.
    `fixes`: give each finding that a rule can mend its fix (it costs a libcst parse of the file).
    Names the module imports from its project (the project of `path`) are followed into their modules.
    """
    load_analysis()
    from .analysis.project.summary import write_pending

    with collector_paused():
        try:
            return _lint_source(text, path, config, tree, fixes)
        finally:
            write_pending()  # the summaries it made or grew, each written once


def _lint_source(text: str, path: str, config: Config, tree: ast.Module | None, fixes: bool) -> list[Finding]:
    from .analysis.project.modules import project_view

    selected = selected_rules(config)
    rules = prefilter(text, selected, config)
    view = project_view(path)
    # A file that spells no rule's words can still use the project's own pytree base, decorator, field
    # helper or jitted function, or define a class another module registers: it is parsed when it imports
    # from the project, or another module may register one of its classes.
    follows = view is not None and len(rules) < len(selected) and (
        view.imports_project(text) or view.registered_elsewhere(text))
    if (not rules and not follows) or skips_file(text):
        forget_kept(text)
        return []
    if tree is None:
        try:
            tree = parse(text)
        except SyntaxError as error:
            raise LintError(syntax_error_reason(error, text)) from None
        except (RecursionError, MemoryError):
            raise LintError("too deeply nested for the parser") from None
    others = [rule for rule in selected if rule not in rules] if follows else []
    return _check(tree, Source(text), rules, others, path, config, fixes, view)


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector, off while one file is analysed: the analysis makes many small
    objects that die with the file, and the collector would walk them again and again while they live."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _check(tree: ast.Module, source: Source, rules: list[Rule], others: list[Rule], path: str, config: Config,
           fixes: bool, view) -> list[Finding]:
    """Run the rules on one parsed module; `others`, the rules its words did not call for, run when its
    imports from the project stand for their words."""
    from .analysis.module import ModuleAnalysis

    findings, plans = [], []
    analysis = None
    try:
        if view is not None:
            view.project.adopt(view.file, tree, source.text)
        analysis = ModuleAnalysis(tree, source, config.static_field_functions, fixes=fixes, project=view)
        if others:
            words = analysis.project_words({word for rule in others for word in (*rule.triggers, *rule.requires)})
            rules = [*rules, *(rule for rule in others if rule.concerns(words))]
        places = set()
        for rule in rules:
            for report in rule.check(analysis):
                if home_of(report.node) is not None:
                    continue  # a class another module defines: its own lint reports there
                (line, column), (end_line, end_column) = analysis.span(report.node) or ((1, 0), (1, 0))
                if (rule.code, line, column, end_line, end_column) in places:
                    continue  # classes sharing a flatten (a base's hook registers each subclass): changed once
                places.add((rule.code, line, column, end_line, end_column))
                findings.append(Finding(path, line, column, rule.code, report.message, end_line, end_column,
                                        report.target, report.member))
                plans.append(report.fix)
        if any(plan is not None for plan in plans):
            findings = _with_fixes(analysis, findings, plans)
    except RecursionError:
        raise LintError("too deeply nested to analyse") from None
    except Exception as error:  # a bug of ours must not take down the run over the other files
        raise InternalError(f"internal error in pytree-lint ({type(error).__name__}: {error}); "
                        "please report it with this file") from error
    finally:
        if analysis is not None:
            analysis.close()
    return sorted(set(findings))


def _with_fixes(analysis, findings: list[Finding], plans: list) -> list[Finding]:
    """The findings with their fixes made into edits by the libcst fix engine (one parse per file)."""
    from .analysis.record import remade
    from .analysis.syntax.model import first_line, is_inlined
    from .codemods import FixRequest, realise

    statements = analysis.index.tree.body
    starts = [first_line(statement) for statement in statements]
    requests, owners = [], []
    for number, plan in enumerate(plans):
        span = analysis.span(plan.node) if plan is not None and not is_inlined(plan.node) else None
        if span is not None:
            statement = statements[bisect_right(starts, span[0][0]) - 1]
            requests.append(FixRequest(plan, span, (first_line(statement), statement.end_lineno)))
            owners.append(number)
    realised = realise(analysis.source.text, requests)
    findings = list(findings)
    for number, fix in zip(owners, realised):
        if fix is not None:
            findings[number] = remade(findings[number], fix=FindingFix(fix.description, fix.safe, fix.edits))
    return findings


def apply_fixes(text: str, fixes: list[FindingFix]) -> str:
    """`text` with the fixes' edits made, in one pass; a fix whose edits overlap an earlier one is skipped."""
    return applied_fixes(text, fixes)[0]


def applied_fixes(text: str, fixes: list[FindingFix]) -> tuple[str, int]:
    """`text` with the fixes' edits made, and how many fixes were made (see apply_fixes)."""
    starts = line_starts(python_lines(text))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column

    chosen: list[tuple[int, int, str]] = []
    made = 0
    for fix in fixes:
        edits = [(offset(a, b), offset(c, d), replacement) for a, b, c, d, replacement in fix.edits]
        if not any(start < other_end and other_start < end for start, end, _ in edits
                   for other_start, other_end, _ in chosen):
            chosen.extend(edits)
            made += 1
    for start, end, replacement in sorted(chosen, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, made


# A file's fixes are applied and the file linted again at most this many times (ruff's loop): a fix can expose
# another, and of two fixes of one expression only the first is made in a pass.
MAX_FIX_PASSES = 10


def fixed_until_stable(text: str, path: str, config: Config, found: list[Finding] | None = None,
                       encoding: str = "utf-8") -> tuple[str, int, list[Finding]]:
    """(the text with every safe fix made, how many were made, the findings left), linting again after each
    pass (`found`: the text's findings, when known). LintError when the fixes do not settle within
    MAX_FIX_PASSES (a bug of a rule's fix)."""
    count = 0
    if found is None:
        found = lint_text(text, path, config, fixes=True)
    for _ in range(MAX_FIX_PASSES):
        pending = [f.fix for f in found if f.fix is not None and f.fix.safe]
        if not pending:
            return text, count, found
        text, made = applied_fixes(text, pending)
        ast.parse(text)  # never give back what does not parse
        found = lint_bytes(text.encode(encoding), path, config, fixes=True)
        count += made
    raise LintError(f"its fixes did not settle after {MAX_FIX_PASSES} passes (a bug in pytree-lint; "
                    "please report it with this file)")


def unused_noqa(data: bytes, path: str, config: Config = DEFAULT_CONFIG) -> list[tuple[int, int, tuple[str, ...]]]:
    """The `# noqa: PTL...` comments of a Python file that silence nothing (see noqa.unused); LintError
    as lint_bytes raises it."""
    from .noqa import unused

    if path.endswith(".ipynb"):
        return []
    text = python_text(data)
    return unused(text, lint_source(text, path, config))


def lint_file(path: str, config: Config = DEFAULT_CONFIG, fixes: bool = False) -> list[Finding]:
    """Findings for one file, after `# noqa`; LintError names what made the file unreadable."""
    return lint_bytes(read_file(path), path, config, fixes)


def lint_bytes(data: bytes, path: str, config: Config = DEFAULT_CONFIG, fixes: bool = False) -> list[Finding]:
    """Findings for a file's content, after `# noqa`; LintError says why it could not be linted."""
    if path.endswith(".ipynb"):
        from .notebooks import lint_notebook
        return lint_notebook(data, path, config)
    return lint_text(python_text(data), path, config, fixes)


def lint_text(text: str, path: str, config: Config = DEFAULT_CONFIG, fixes: bool = False) -> list[Finding]:
    """Findings for Python source text, after `# noqa` (what every face but flake8 reports)."""
    return suppressed(text, lint_source(text, path, config, fixes=fixes))
