"""The `pytree-lint` command: lint paths, print findings, exit 0 (clean), 1 (findings) or 2 (errors)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from contextlib import contextmanager
from functools import partial
from typing import NoReturn

from .. import __version__
from ..cache import ResultCache
from ..config import Config, ConfigError, ConfigLoader
from ..diskio import LintError, read_file, read_source, replace_atomically, settle_sources
from ..engine import (
    Finding,
    FindingFix,
    apply_fixes,
    collector_paused,
    fixed_until_stable,
    lint_bytes,
    load_analysis,
    unused_noqa,
)
from ..files import collect_files
from .formats import FORMATS, HUMAN_FORMATS, full, write_report

# Below this many files, forking worker processes costs more than it saves.
PARALLEL_THRESHOLD = 16
# Above this many files a terminal shows a progress bar.
PROGRESS_THRESHOLD = 50
# A file to lint: its path, configuration, whether fixes are made, the result cache (None: none).
Job = tuple[str, Config, bool, ResultCache | None]


def _lint_one(job: Job):
    """(path, findings, error, cache entry) for one file the cache has no current result for (see
    ResultCache.recall and recall_by_content)."""
    path, config, fixes, cache = job
    try:
        data = read_file(path)
    except LintError as error:
        return path, [], str(error), None
    key = cache.key(data, config, path) if cache is not None else None
    from ..analysis.project.modules import Project  # imported when a file is linted, not for a cached run

    findings, error = [], None
    project = Project.for_file(path)
    if project is not None:
        project.consulted.clear()
        project.asked.clear()
    try:
        findings = lint_bytes(data, path, config, fixes)
    except LintError as failure:
        error = str(failure)
    if key is None:
        return path, findings, error, None
    # The other modules the findings were read from: a change to one of them relints this file.
    dependencies = {str(file): digest for file, digest in project.consulted.items()} if project else {}
    return path, findings, error, {"key": key, "findings": _rows(findings), "error": error,
                                   "dependencies": dependencies, "asked": sorted(project.asked) if project else []}


def _lint_kept_unwalked(job: Job):
    """`_lint_one`, then what the process keeps from it (summaries, the text index, the recent analyses) moved
    out of the cyclic collector's sight (`gc.freeze`; the run unfreezes it at its end): a lint leaves no
    cyclic garbage (ModuleAnalysis.close), and the collector would walk what the run keeps again and again (a
    run over all of tfp: 24 full collections took 4.6 of its 14.9 s before a lint was closed and frozen). The
    collector stays paused until then: back any sooner, it would first walk what the lint made (2.5% of a
    cold netket run)."""
    with collector_paused():
        result = _lint_one(job)
        gc.freeze()
    return result


def _lint_sent(job: Job):
    """`_lint_kept_unwalked` in a worker process: its findings as rows, which go to the run's process (the
    cache entry's own when there is one: made, and marshalled, once)."""
    path, findings, error, entry = _lint_kept_unwalked(job)
    return path, entry["findings"] if entry is not None else _rows(findings), error, entry


def _not_linted(job: Job, reason: str):
    """The result of a file whose worker process ended before it was linted."""
    return job[0], [], reason, None


def _share_jobs(worker) -> None:
    """Tell the analysis how a process of the run takes a file it parses for a summary (see Project.takes),
    whether another process is linting a file (see Project.linted_elsewhere) and which files no process has
    taken (see Project.untaken); None: the run is over."""
    from ..analysis.project.modules import Project

    Project.takes = worker.take if worker is not None else None
    Project.linted_elsewhere = worker.on_elsewhere if worker is not None else None
    Project.untaken = worker.untaken if worker is not None else None


def _rows(findings: list[Finding]) -> list[list]:
    """Findings as rows of plain values (the manifest's JSON, the worker processes' results)."""
    return [[f.line, f.column, f.code, f.message, f.end_line, f.end_column, f.target, f.member,
             None if f.fix is None else [f.fix.description, f.fix.safe, f.fix.edits], f.cell] for f in findings]


def _from_row(path: str, row: list) -> Finding:
    *fields, fix, cell = row
    if fix is not None:
        description, safe, edits = fix
        fix = FindingFix(description, safe, tuple(tuple(edit) for edit in edits))
    return Finding(path, *fields, fix=fix, cell=cell)


def run(files: list[str], loader: ConfigLoader, jobs: int, cache: ResultCache | None, fixes: bool = False):
    """(path, findings, error) for each file: unchanged files from the cache's manifest of this folder, the
    others linted (by forked worker processes beside this one when there are many)."""
    work = [(path, loader.for_file(path), fixes, cache) for path in files]
    recalled = cache.recall([(path, config) for path, config, _, _ in work]) if cache is not None else {}
    by_content = cache.recall_by_content([(path, config) for path, config, _, _ in work if path not in recalled]
                                         ) if cache is not None else {}
    recalled.update(by_content)
    if cache is not None and len(recalled) < len(work):  # what the others write may make recalled ones stale
        for path in cache.stale(recalled, [path for path, _, _, _ in work if path not in recalled]):
            del recalled[path]
    pending = [job for job in work if job[0] not in recalled]
    if len(pending) > 1:
        load_analysis()  # before the project model's import: all of the analysis with the collector paused
    if pending:  # the files stay as they are while the run lints them (forked workers inherit it)
        from ..analysis.project.modules import Project

        Project.settled = object()
        settle_sources(True)
    try:
        if len(pending) > 1:
            from ..analysis.project.modules import imported_first, resolved_path

            jobs_of = {job[0]: job for job in pending}
            order = imported_first(list(jobs_of))
            Project.adopted_files = order.imported
            resolved = [resolved_path(path) for path in order.paths]
            Project.files_to_lint = set(resolved)
            pending = [jobs_of[path] for path in order.paths]
        progress = _Progress(len(pending))
        if jobs > 1 and len(pending) >= PARALLEL_THRESHOLD and hasattr(os, "fork"):
            from .forks import run_forked

            sent = run_forked(pending, resolved, order.waits_on(), jobs, _lint_sent, _share_jobs, _not_linted, progress)
            linted = [(path, [_from_row(path, row) for row in rows], error, entry)
                      for path, rows, error, entry in sent]
        else:
            linted = []
            for done, job in enumerate(pending, 1):
                linted.append(_lint_kept_unwalked(job))
                progress(done)
        progress.close()
    finally:
        gc.unfreeze()
        if pending:
            Project.settled = None
            Project.files_to_lint = set()
            settle_sources(False)
    results = {path: (path, [_from_row(path, row) for row in entry["findings"]], entry["error"], entry)
               for path, entry in recalled.items()}
    results.update((result[0], result) for result in linted)
    if cache is not None and (pending or by_content):  # all recalled by their stat: the manifest stays
        configs = {path: config for path, config, _, _ in work}
        cache.remember({path: (configs[path], entry) for path, (_, _, _, entry) in results.items()
                        if entry is not None})
    return [results[path][:3] for path, _, _, _ in work]


@contextmanager
def _summaries_uncached(uncached: bool):
    """With `--no-cache`, the project summaries are neither read nor written either, in this process and the
    workers (which inherit the environment), for this run only: a later run in the process (a test calling
    `main` again) caches them again. Without it, nothing is imported: a run that recalls every file from
    its manifest loads no analysis."""
    if not uncached:
        yield
        return
    from ..analysis.project.summary import NO_SUMMARY_CACHE

    before = os.environ.get(NO_SUMMARY_CACHE)
    os.environ[NO_SUMMARY_CACHE] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(NO_SUMMARY_CACHE, None)
        else:
            os.environ[NO_SUMMARY_CACHE] = before


class _Progress:
    """A progress bar on the terminal (stderr) for long runs, told how many files are done; nothing when the
    output is piped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = total >= PROGRESS_THRESHOLD and sys.stdout.isatty() and sys.stderr.isatty()
        self._bar = None

    def __call__(self, done: int) -> None:
        if not self.shown:
            return
        if self._bar is None:  # made once the workers are forked: tqdm may start a thread
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, unit="file", file=sys.stderr, desc="pytree-lint")
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self.shown:
            self(self.total)
            self._bar.close()


def _print_problems(problems: list[tuple[str, str]]) -> None:
    for path, reason in sorted(problems):
        print(f"{path}: error: {reason}", file=sys.stderr)


def _by_file(findings: list[Finding]) -> dict[str, list[Finding]]:
    """The findings that carry a fix, by file."""
    grouped: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.fix is not None:
            grouped.setdefault(finding.path, []).append(finding)
    return grouped


def _notebooks(findings: list[Finding]) -> list[str]:
    """The notebooks among the findings' files: their fixes are made cell by cell (notebooks.fix_notebook)."""
    return list(dict.fromkeys(f.path for f in findings if f.cell is not None))


def _fix_notebook(data: bytes, path: str, config: Config) -> tuple[str, int]:
    """A notebook's JSON with its safe fixes made, and how many (the notebook module is imported for it)."""
    from ..notebooks import fix_notebook

    return fix_notebook(data, path, config)


def _diff(path: str, before: str, after: str) -> str:
    import difflib  # for --diff only

    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        f"a/{path}", f"b/{path}"))


def _diffs(findings: list[Finding], loader: ConfigLoader, problems: list[tuple[str, str]]) -> tuple[str, bool]:
    """The safe fixes of each file as one diff; each unsafe fix as its own diff, marked; and whether a
    safe fix exists. A notebook's safe fixes show as a diff of its JSON."""
    out = []
    safe = any(f.fix is not None and f.fix.safe for f in findings)
    for path in _notebooks(findings):
        try:
            data = read_file(path)
            fixed, count = _fix_notebook(data, path, loader.for_file(path))
        except LintError as error:
            problems.append((path, f"could not make its fixes: {error}"))
            continue
        if count:
            out.append(_diff(path, data.decode("utf-8"), fixed))
            safe = True
    for path, fixable in _by_file(findings).items():
        try:
            text, _ = read_source(path)
        except LintError as error:
            problems.append((path, str(error)))
            continue
        out.append(_diff(path, text, apply_fixes(text, [f.fix for f in fixable if f.fix.safe])))
        for finding in fixable:
            if not finding.fix.safe:
                out.append(f"# unsafe fix for {path}:{finding.line}:{finding.column + 1} {finding.code} "
                           f"(--fix does not apply it): {finding.fix.description}\n")
                out.append(_diff(path, text, apply_fixes(text, [finding.fix])))
    return "".join(out), safe


def _fix(findings: list[Finding], loader: ConfigLoader, problems: list[tuple[str, str]]) -> list[Finding]:
    """Apply the safe fixes, file by file, and lint the fixed files again, until no safe fix is left (a fix
    can expose another, and of two fixes of one expression only the first is made in a pass): the
    findings that are left. A file is written once, atomically, and only when its fixes converged."""
    fixed_files, fixed_findings = 0, 0
    safe = _by_file([f for f in findings if f.fix is not None and f.fix.safe])
    left = [f for f in findings if f.path not in safe]
    for path, fixable in safe.items():
        try:
            text, encoding = read_source(path)
            fixed, count, found = fixed_until_stable(text, path, loader.for_file(path), fixable, encoding)
            replace_atomically(path, fixed.encode(encoding))
            left.extend(found)
        except (LintError, SyntaxError, OSError) as error:
            problems.append((path, f"could not apply its fixes: {error}"))
            left.extend(f for f in findings if f.path == path)
            continue
        fixed_files += 1
        fixed_findings += count
    for path in _notebooks(findings):
        try:
            text, count = _fix_notebook(read_file(path), path, loader.for_file(path))
            if not count:
                continue
            replace_atomically(path, text.encode("utf-8"))
            left = [f for f in left if f.path != path] + lint_bytes(text.encode("utf-8"), path, loader.for_file(path))
        except (LintError, OSError) as error:
            problems.append((path, f"could not apply its fixes: {error}"))
            continue
        fixed_files += 1
        fixed_findings += count
    if fixed_files:
        print(f"pytree-lint: fixed {fixed_findings} finding(s) in {fixed_files} file(s)", file=sys.stderr)
    return sorted(left, key=lambda f: f.order)


def _terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it ($COLUMNS, else the terminal's, else 80):
    argparse's help formatter, made to check each argument, would import shutil to ask, and shutil imports
    the compression modules: 3 ms of every run, for help that is seldom printed."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        formatter_class=partial(argparse.HelpFormatter, width=_terminal_columns() - 2),
        prog="pytree-lint",
        description="Find JAX pytree misuse: arrays, mutable or volatile values in aux_data and static fields.",
        epilog="Also: `pytree-lint verify PATH...` runs each finding under jax.jit to confirm it; "
               "`pytree-lint rules` lists the rules, `pytree-lint rule PTL101` prints one's documentation.")
    parser.add_argument("paths", nargs="*", default=["."],
                        help="files and folders to lint (default: .); `-` reads one file from stdin")
    parser.add_argument("--stdin-filename", default="stdin.py",
                        help="the name to report a file read from stdin under, and to match config against")
    parser.add_argument("--output-format", "--format", dest="format", choices=sorted(FORMATS), default="concise",
                        help="concise (one line per finding: the default; `text` is the same), full (the "
                             "whole message with the code of the finding and of the lines it cites), json, "
                             "sarif, github")
    parser.add_argument("--select", help="comma-separated codes or prefixes to report (default: PTL)")
    parser.add_argument("--ignore", help="comma-separated codes or prefixes not to report")
    parser.add_argument("--extend-select", help="codes or prefixes to report in addition to --select")
    parser.add_argument("--exclude", help="comma-separated glob patterns of files and folders to skip")
    parser.add_argument("--per-file-ignores",
                        help="codes not to report in some files, as flake8 spells it: `tests/*:PTL101,PTL102 ...`")
    parser.add_argument("--static-field-functions",
                        help="comma-separated qualified names of your own static-field helpers "
                             "(e.g. mylib.fields.static_field): their fields are judged as static fields")
    parser.add_argument("--jobs", "-j", type=int, default=0,
                        help="parallel processes (default and 0: the number of cores)")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("--statistics", action="store_true",
                        help="after the findings, count them by rule")
    parser.add_argument("--output-file", help="write the report to this file instead of stdout")
    parser.add_argument("--report-unused-noqa", action="store_true",
                        help="also report `# noqa: PTL...` comments whose codes silence no finding")
    parser.add_argument("--fix", action="store_true",
                        help="apply the safe fixes (PTL102 list/set -> tuple/frozenset, PTL303 parameter order) "
                             "and report what is left; unsafe fixes are never applied")
    parser.add_argument("--diff", action="store_true",
                        help="print the fixes as a unified diff (the unsafe ones marked) and write nothing")
    parser.add_argument("--no-cache", action="store_true",
                        help="do not read or write the result cache (kept in the user cache directory)")
    parser.add_argument("--version", action="version", version=f"pytree-lint {__version__}")
    return parser


def _print_rules(argv: list[str]) -> int:
    from ..rules import ALL_RULES, RULES_BY_CODE

    if argv[0] == "rules":
        listing = "".join(f"{rule.code}  {rule.name:32}  {rule.summary}\n" for rule in ALL_RULES)
        return 0 if write_report(listing) else 2
    if len(argv) != 2:
        print("pytree-lint: error: usage: pytree-lint rule CODE", file=sys.stderr)
        return 2
    if argv[1].upper() not in RULES_BY_CODE:
        print(f"pytree-lint: error: unknown rule code {argv[1]!r} (rules: {', '.join(RULES_BY_CODE)})",
              file=sys.stderr)
        return 2
    return 0 if write_report(RULES_BY_CODE[argv[1].upper()].documentation() + "\n") else 2


def _statistics(findings: list[Finding]) -> str:
    """flake8's `--statistics`: one line per rule, the count first."""
    from ..rules import RULES_BY_CODE

    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    return "".join(f"{count:<5} {code} {RULES_BY_CODE[code].name}\n" for code, count in sorted(counts.items()))


def _unused_noqa(files: list[str], loader: ConfigLoader) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """`# noqa: PTL...` comments that silence nothing, in every file (read once more: an opt-in report)."""
    found = []
    for path in files:
        try:
            found.extend((path, *entry) for entry in unused_noqa(read_file(path), path, loader.for_file(path)))
        except LintError:
            continue  # already reported
    return found


def _lint_stdin(name: str, config: Config, fixes: bool) -> tuple[list[Finding], list[tuple[str, str]]]:
    if config.excluded(name):
        print(f"pytree-lint: {name}: excluded by the configuration: not linted", file=sys.stderr)
        return [], []
    try:
        return lint_bytes(sys.stdin.buffer.read(), name, config, fixes), []
    except LintError as error:
        return [], [(name, str(error))]


def main(argv: list[str] | None = None) -> int:
    """The CLI; exit status 0 (no findings), 1 (findings) or 2 (a usage error, a file that could not be read
    or linted, or a bug of ours: a crash never passes for "findings")."""
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except Exception as error:  # the per-file crash contract is the engine's; this is the run's
        print(f"pytree-lint: error: internal error ({type(error).__name__}: {error}); please report it",
              file=sys.stderr)
        return 2


def console() -> NoReturn:
    """The `pytree-lint` command (and `python -m pytree_lint`): `main`, then the process ends once what it
    printed is flushed, without freeing one by one what the run built (a whole-project run in one process
    keeps every module's summary: netket's teardown took 0.3 of its 4.7 s), as pool workers end."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader is gone (`| head`), or the server closed it at `exit`
            pass
    os._exit(code)


def _main(argv: list[str]) -> int:
    if argv and argv[0] in ("rule", "rules"):
        return _print_rules(argv)
    if argv and argv[0] == "verify":
        from ..runtime.verify import main as verify_main
        return verify_main(argv[1:])
    if argv and argv[0] == "server":
        from .server import main as server_main  # pygls is imported only by the server
        return server_main(argv[1:])
    parser = _parser()
    options = parser.parse_args(argv)
    if options.jobs < 0:
        parser.error("--jobs must be 0 (all cores) or more")
    jobs = options.jobs or os.cpu_count() or 1
    if "-" in options.paths and (len(options.paths) > 1 or options.fix or options.diff):
        parser.error("`-` (stdin) is linted alone, and cannot be fixed in place")
    loader = ConfigLoader(select=options.select, ignore=options.ignore, extend_select=options.extend_select,
                          exclude=options.exclude, static_field_functions=options.static_field_functions,
                          per_file_ignores=options.per_file_ignores)
    # Fixes cost a libcst parse of each file that has one: made only when they are shown or applied.
    fixes = options.fix or options.diff or options.format == "json"
    try:
        if options.paths == ["-"]:
            findings, problems = _lint_stdin(options.stdin_filename, loader.for_file(options.stdin_filename), fixes)
        else:
            files, problems = collect_files(options.paths, loader)
            if not files and not problems:
                if all(not os.path.isdir(path) and loader.for_file(path).excluded(path) for path in options.paths):
                    print(f"pytree-lint: {', '.join(options.paths)}: excluded by the configuration: not linted",
                          file=sys.stderr)
                else:
                    print(f"pytree-lint: warning: no Python files found in {', '.join(options.paths)}",
                          file=sys.stderr)
            findings = []
            cache = None if options.no_cache else ResultCache(fixes)
            with _summaries_uncached(options.no_cache):
                for path, found, error in run(files, loader, jobs, cache, fixes):
                    findings.extend(found)
                    if error is not None:
                        problems.append((path, error))
    except ConfigError as error:
        print(f"pytree-lint: error: {error}", file=sys.stderr)
        return 2
    findings.sort(key=lambda f: f.order)
    if options.diff:
        diffs, safe = _diffs(findings, loader, problems)
        if not diffs:
            print("pytree-lint: no finding has a fix", file=sys.stderr)
        if not write_report(diffs, options.output_file):
            return 2
        _print_problems(problems)
        return 2 if problems else (1 if safe else 0)
    if options.fix:
        findings = _fix(findings, loader, problems)
    if options.format == "full":  # colour on a terminal (formats.full leaves it out when NO_COLOR is set)
        report = full(findings, colour=options.output_file is None and sys.stdout.isatty())
    else:
        report = FORMATS[options.format](findings)
    idle = _unused_noqa(files, loader) if options.report_unused_noqa and options.paths != ["-"] else []
    # What only text can hold: in the other formats it goes to stderr, leaving the report valid.
    extra = "".join(f"{path}:{line}:{column + 1}: unused noqa: {', '.join(codes)} silences no finding\n"
                    for path, line, column, codes in idle)
    if options.statistics:
        extra += _statistics(findings)
    if options.format in HUMAN_FORMATS:
        report += extra
    elif extra:
        sys.stderr.write(extra)
    if not write_report(report, options.output_file):
        return 2
    _print_problems(problems)
    if problems:
        return 2
    return 1 if (findings or idle) and not options.exit_zero else 0
