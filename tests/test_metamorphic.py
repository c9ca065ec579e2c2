"""A finding is about a value, not a spelling: every fixture, rewritten without changing what it does, keeps
its findings (at the lines its `# expect:` comments move to) and its clean twins stay clean.

tests/rewrites.py makes the variants; tests/metamorphic_expected_failures.txt lists the (rewrite, fixture)
pairs the analysis does not survive yet, each with the capability it needs: the value engine's work list.
The summary at the end of the run (and `python benchmarks/metamorphic.py`) gives, per rewrite and per rule,
how many variants were made and how many kept their findings.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rewrites import REWRITES, Case, cases, variants

from pytree_lint.config import Config
from pytree_lint.engine import lint_file

EVERY_RULE = Config(extend_select=("PTL9",))
EXPECTED_FAILURES_FILE = Path(__file__).parent / "metamorphic_expected_failures.txt"


def expected_failures() -> dict[tuple[str, str], str]:
    found = {}
    for line in EXPECTED_FAILURES_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            kind, case, capability = line.split("\t")
            found[(kind, case)] = capability
    return found


def findings(variant: Case, root: Path) -> set[tuple[str, int, str]]:
    """What the linter reports on the variant's package, written under `root` as a project of its own."""
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    for path, text in variant.files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return {(path, f.line, f.code) for path in variant.files for f in lint_file(str(root / path), EVERY_RULE)}


def at_marked_lines(variant: Case, found: set[tuple[str, int, str]]) -> set[tuple[str, int, str]]:
    """A finding on the line a rewrite moved an expression to counts for the marked line it came from."""
    moved = variant.moved_here()
    return {moved.get(finding, finding) for finding in found}


def problems(kind: str, case: Case, root: Path) -> tuple[int, list[str]]:
    """How many variants the rewrite made, and what went wrong with them."""
    made = variants(kind, case)
    wrong = []
    for number, variant in enumerate(made):
        if variant.files == case.files:
            wrong.append(f"variant {number} is identical to the fixture: the rewrite changed nothing")
            continue
        expected, found = variant.expected(), at_marked_lines(variant, findings(variant, root / f"variant{number}"))
        if found != expected:
            changed = "\n".join(f"--- {p}\n{t}" for p, t in variant.files.items() if case.files.get(p) != t)
            wrong.append(f"variant {number}: missing {sorted(expected - found)}, extra {sorted(found - expected)}"
                         f"\n{changed}")
    return len(made), wrong


CASES = cases()
FAILING = expected_failures()


@pytest.fixture(autouse=True)
def no_project_known(monkeypatch):
    """Each test's variants are projects of their own, let go after it: a worker kept them all (13,050 after
    3,268 tests: 810 MB, 2.3 million objects that each full collection walked again)."""
    from pytree_lint.analysis.project.modules import Project

    monkeypatch.setattr(Project, "_instances", {})


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_findings_survive_every_rewrite(case, tmp_path, record_property):
    """Every rewrite of one fixture, in one test: a test per (rewrite, fixture) pair cost pytest's own 2 ms
    per test and a report to the controller each (9,829 tests: 20 CPU-seconds of no linting). A pair listed
    in the expected failures must fail (strictly: one that passes must leave the list), every other pass."""
    survived, unexpected = [], []
    for number, kind in enumerate(REWRITES):
        made, wrong = problems(kind, case, tmp_path / f"rewrite{number}")
        survived.append((kind, rule_of(case), made, made - len(failed_variants(wrong))))
        reason = FAILING.get((kind, case.name))
        if reason is not None and not wrong:
            unexpected.append(f"[{kind}] listed as failing ({reason}), and every variant passes: take it off "
                              f"the list")
        elif reason is None:
            unexpected.extend(f"[{kind}] {message}" for message in wrong)
    record_property("metamorphic", survived)
    assert not unexpected, "\n\n".join(unexpected)


def rule_of(case: Case) -> str:
    return "projects" if case.name.startswith("projects/") else case.name.split("/")[0]


def failed_variants(wrong: list[str]) -> set[str]:
    return {message.split(":")[0].split(" is ")[0] for message in wrong}


def test_the_expected_failures_name_real_pairs():
    names = {case.name for case in CASES}
    for kind, case in FAILING:
        assert kind in REWRITES and case in names, (kind, case)
