"""Code the team did not write: modules written independently from the spec and the pitfalls file, each
stating what a correct linter reports (tests/independent/MANIFEST.txt). The linter must report exactly
that, and the runtime verifier must confirm it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytree_lint import lint_source
from pytree_lint.config import Config

CORPUS = Path(__file__).parent / "independent"


def manifest() -> list[tuple[str, str, set[int]]]:
    rows = []
    for line in (CORPUS / "MANIFEST.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, expected, where = line.split("\t")
        rows.append((name, expected, {int(n) for n in re.findall(r"\d+", where)}))
    return rows


@pytest.mark.parametrize("name, expected, lines", manifest(), ids=[row[0] for row in manifest()])
def test_static_findings_match_the_authors_expectation(name, expected, lines):
    findings = lint_source((CORPUS / name).read_text(), name, Config(extend_select=("PTL9",)))
    if expected == "none":
        assert findings == []
    else:
        assert findings, f"{name}: expected {expected} at {sorted(lines)}"
        assert {f.code for f in findings} == {expected}
        assert {f.line for f in findings} <= lines


def test_verifier_confirms_every_finding():
    pytest.importorskip("jax")
    result = subprocess.run([sys.executable, "-m", "pytree_lint", "verify", "--format", "json", "--select", "PTL,PTL9",
                             str(CORPUS)],
                            capture_output=True, text=True, timeout=900)
    rows = json.loads(result.stdout)
    assert len(rows) >= 10
    assert [row for row in rows if row["status"] != "confirmed"] == []
    assert result.returncode == 1  # findings confirmed
