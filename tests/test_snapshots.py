"""The full output (code, position, end, message, fix) of every fixture, every independent case and a set of
real files from JAX libraries, frozen in tests/snapshots/findings.txt.

A change of any finding shows up here as a diff of that file. When the change is intended, regenerate it
with `PYTREE_LINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_snapshots.py` and explain the diff in the
commit. The real files are copies (tests/snapshots/real/README.md says from where), so an upgrade of an
installed library cannot move the snapshot.
"""

from __future__ import annotations

import os
from pathlib import Path

from pytree_lint import lint_source
from pytree_lint.config import Config

TESTS = Path(__file__).parent
SNAPSHOT = TESTS / "snapshots" / "findings.txt"
SOURCES = [TESTS / "fixtures", TESTS / "independent", TESTS / "snapshots" / "real"]
EVERY_RULE = Config(extend_select=("PTL9",))  # the opt-in tier is frozen too


def snapshot_files() -> list[Path]:
    return sorted(path for folder in SOURCES for path in folder.rglob("*.py"))


def render(path: Path) -> list[str]:
    """One line per finding, and one per fix edit under it."""
    name = path.relative_to(TESTS).as_posix()
    rows = []
    for f in lint_source(path.read_text(encoding="utf-8"), name, EVERY_RULE, fixes=True):
        rows.append(f"{name}:{f.line}:{f.column + 1}-{f.end_line}:{f.end_column + 1}: {f.code} {f.message}")
        if f.fix is not None:
            rows.append(f"    fix ({'safe' if f.fix.safe else 'unsafe'}): {f.fix.description}")
            rows.extend(f"    edit {a}:{b + 1}-{c}:{d + 1} -> {text!r}" for a, b, c, d, text in f.fix.edits)
    return rows


def current() -> str:
    return "".join(row + "\n" for path in snapshot_files() for row in render(path))


def test_every_finding_matches_the_snapshot():
    output = current()
    if os.environ.get("PYTREE_LINT_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(output, encoding="utf-8")
    expected = SNAPSHOT.read_text(encoding="utf-8")
    assert output.splitlines() == expected.splitlines()


def test_the_snapshot_covers_every_rule():
    """A rule that no snapshot file triggers would be frozen by nothing."""
    from pytree_lint.rules import ALL_RULES

    frozen = SNAPSHOT.read_text(encoding="utf-8")
    assert [rule.code for rule in ALL_RULES if f" {rule.code} " not in frozen] == []
