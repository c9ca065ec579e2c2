"""Shared helpers: the fixture files and the expectations written inline in them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>PTL\d{3}(?:\s*,\s*PTL\d{3})*)")


# A small module with two misuses on one line: an array (PTL101, column 28) and a list that `grow` changes in
# place (PTL102, column 40).
MISUSE_MODULE = """\
import jax
import numpy as np


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x):
        self.x = x
        self.table = np.arange(3)
        self.sizes = [1, 2]

    def tree_flatten(self):
        return (self.x,), (self.table, self.sizes)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def grow(self, size):
        self.sizes.append(size)
"""


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.rglob("*.py"))


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """{(line, code)} from `# expect: PTL101, PTL102` comments."""
    found = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            found.update((number, code.strip()) for code in match.group("codes").split(","))
    return found


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Each test (and the commands it starts) uses its own result cache, never the user's."""
    directory = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(directory))
    return directory
