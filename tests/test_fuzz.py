"""Generated multi-module projects (tests/generated_projects.py) never crash the analysis and never hang it:
every file of every project is linted as part of its project, each project within a time bound. The
single-file fuzzing is tests/test_robustness.py's; `python benchmarks/fuzz.py N` runs many more projects."""

from __future__ import annotations

import ast
import signal
import sys
from pathlib import Path

import pytest
from generated_projects import project

from pytree_lint.config import Config
from pytree_lint.engine import InternalError, LintError, lint_file

EVERY_RULE = Config(extend_select=("PTL9",))
# 120 projects per run, other seeds on each Python version: CI's three versions lint 360 different projects.
PROJECTS_PER_TEST, TESTS = 30, 4
FIRST_SEED = 100_000 * sys.version_info.minor
TIME_BOUND = 10  # seconds for one project's files; a few hundred milliseconds is usual


class Hang(Exception):
    pass


def lint_project(files: dict[str, str], root: Path) -> list[str]:
    """The internal errors linting each Python file of the project (written under `root`) meets."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    crashes = []
    for name in files:
        if name.endswith(".py"):
            try:
                lint_file(str(root / name), EVERY_RULE)
            except InternalError as error:
                crashes.append(f"{name}: {error}")
            except LintError:
                pass  # a file the engine declines with a reason (none expected here, but not a crash)
    return crashes


def within_time_bound(seconds: float, function, *args):
    """`function(*args)`; Hang when it takes longer than `seconds` (POSIX timers, main thread)."""
    def expired(signum, frame):
        raise Hang(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return function(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("batch", range(TESTS))
def test_generated_projects_neither_crash_nor_hang(batch, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    problems = []
    for seed in range(FIRST_SEED + batch * PROJECTS_PER_TEST, FIRST_SEED + (batch + 1) * PROJECTS_PER_TEST):
        files = project(seed)
        root = tmp_path / f"project{seed}"
        try:
            problems.extend(f"seed {seed}: {crash}"
                            for crash in within_time_bound(TIME_BOUND, lint_project, files, root))
        except Hang as hang:
            problems.append(f"seed {seed}: {hang}")
    assert not problems, "\n".join(problems)


def test_the_generator_writes_python():
    for seed in range(50):
        for name, text in project(seed).items():
            if name.endswith(".py"):
                ast.parse(text, name)
