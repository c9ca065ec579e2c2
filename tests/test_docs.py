"""docs/rules.md is generated from the rules' documentation and must be kept current."""

from __future__ import annotations

from pathlib import Path

from pytree_lint.docs import rules_markdown
from pytree_lint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent


def test_rules_markdown_is_current():
    committed = (ROOT / "docs" / "rules.md").read_text()
    assert committed == rules_markdown(), "regenerate with: python -m pytree_lint.docs > docs/rules.md"


def test_every_rule_documents_every_section():
    for rule in ALL_RULES:
        documentation = rule.documentation()
        assert documentation.startswith(f"{rule.code} {rule.name}\n")
        for section in ("What it does:", "Why is this bad:", "Example:", "Use instead:", "Known false positives:",
                        "Known limits:"):
            assert f"\n{section}\n" in documentation, (rule.code, section)
        assert f"## {rule.code}\n" in rules_markdown()
