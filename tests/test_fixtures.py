"""Every fixture produces exactly the findings its `# expect:` comments name, and nothing else."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pytree_lint import Finding, engine, lint_source
from pytree_lint.config import Config
from pytree_lint.rules import RULES_BY_CODE

from conftest import FIXTURES, expected_findings, fixture_files

# The expectations name the opt-in tier's findings too: the fixtures are linted with every rule on.
EVERY_RULE = Config(extend_select=("PTL9",))


@cache
def with_every_rule(path: Path) -> list[Finding]:
    """A fixture's findings with every rule on, linted once for the tests that compare with them."""
    return lint_source(path.read_text(), str(path), EVERY_RULE)


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_matches_its_expectations(path):
    found = {(f.line, f.code) for f in with_every_rule(path)}
    assert found == expected_findings(path)


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_opt_in_tier_is_off_by_default(path):
    found = {(f.line, f.code) for f in lint_source(path.read_text(), str(path))}
    assert found == {(line, code) for line, code in expected_findings(path) if not code.startswith("PTL9")}


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_a_rule_alone_finds_what_it_finds_among_all(path):
    """The value engine's summaries are made when a rule first asks, and one asked while another is being made
    sees that one empty: what a rule finds must not depend on the other rules asking first (their order, or
    `--select`). The folder's rule, and each rule the fixture expects, run alone."""
    text = path.read_text()
    for code in {path.parent.name, *(code for _, code in expected_findings(path))} & RULES_BY_CODE.keys():
        alone = lint_source(text, str(path), Config(select=(code,)))
        assert alone == [f for f in with_every_rule(path) if f.code == code], code


def test_every_rule_on_every_fixture_finds_what_the_words_searched_for_let_find(monkeypatch):
    """The words a module's text is searched for (engine.prefilter) only save time: with every rule run on every
    fixture, each gives what it gives with them (a module they left unread would hide a finding)."""
    searched = {path: with_every_rule(path) for path in fixture_files()}  # with the words, before they go
    monkeypatch.setattr(engine, "prefilter", lambda text, rules, config: list(rules))
    for path, found in searched.items():
        assert lint_source(path.read_text(), str(path), EVERY_RULE) == found, path


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_naming_contract(path):
    """bad_* fixtures expect findings of their folder's rule and carry a verifier hook; clean_* expect none."""
    expected = expected_findings(path)
    if path.name.startswith("bad_"):
        assert any(code == path.parent.name for _, code in expected)
        assert "def examples(" in path.read_text() or "def reproduce(" in path.read_text()
    else:
        assert path.name.startswith("clean_")
        assert not expected


@pytest.mark.parametrize("code", sorted(RULES_BY_CODE))
def test_every_rule_has_bad_and_clean_fixtures(code):
    folder = FIXTURES / code
    assert list(folder.glob("bad_*.py")), f"no bad fixture for {code}"
    assert list(folder.glob("clean_*.py")), f"no clean fixture for {code}"
