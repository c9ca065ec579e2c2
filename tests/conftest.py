"""Shared helpers: the fixture files and the expectations written inline in them."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

# The JAX-executing tests observe tracing, equality and structure, never speed: XLA's optimising passes
# only cost compile time (a third of it on the verifier's convolution programs). Set before any JAX import,
# so the verifier's child processes inherit it too.
os.environ.setdefault("XLA_FLAGS", "--xla_backend_optimization_level=0")
# XLA's compiled programs, kept on disk (JAX's persistent cache, every program kept) for the suite's processes,
# the verifier's children among them, and the next runs (in the user's cache folder, as the variants): the
# JAX-executing tests compile the same small programs again and again. They observe traces, which it leaves.
TEST_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytree-lint-tests"
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(TEST_CACHE / "compilations"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>PTL\d{3}(?:\s*,\s*PTL\d{3})*)")


# A module with one finding (PTL101 at 11:27): the tests of odd, damaged and generated input lint it beside what
# they try, and expect its finding whole.
KNOWN = """\
import jax
import numpy as np

@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x):
        self.x = x
        self.table = np.arange(3)

    def tree_flatten(self):
        return (self.x,), self.table

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
"""


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


REQUIRES = re.compile(r"# requires: (?P<package>[\w-]+)(?P<operator>>=|<)(?P<version>[\d.]+)")


def unmet_requirement(path: Path) -> str | None:
    """Why the installed packages cannot run the fixture (its `# requires: jax>=X` or `# requires: flax<X` line
    names another version), or None (none asked, or the package is missing: the fixture's import says so)."""
    from importlib.metadata import PackageNotFoundError, version

    match = REQUIRES.search(path.read_text())
    if match is None:
        return None
    package, operator, wanted = match.group("package", "operator", "version")
    try:
        installed = version(package)
    except PackageNotFoundError:
        return None

    def numbers(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", text)[:3])

    if (numbers(installed) >= numbers(wanted)) == (operator == ">="):
        return None
    return f"needs {package}{operator}{wanted}, and {package} {installed} is installed"


def pytest_terminal_summary(terminalreporter):
    """The metamorphic suite's survival table (tests/test_metamorphic.py), when it ran."""
    from rewrites import survival_table

    rows = [tuple(row) for reports in terminalreporter.stats.values() for report in reports
            if getattr(report, "when", None) == "call"
            for name, value in getattr(report, "user_properties", ()) if name == "metamorphic" for row in value]
    if rows:
        terminalreporter.write_sep("-", "metamorphic survival")
        terminalreporter.write_line(survival_table(rows))


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """{(line, code)} from the file's `# expect: PTL101, PTL102` comments."""
    return expected_in(path.read_text())


def expected_in(text: str) -> set[tuple[int, str]]:
    """{(line, code)} from `# expect: PTL101, PTL102` comments."""
    found = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            found.update((number, code.strip()) for code in match.group("codes").split(","))
    return found


def new_folder(tmp_path_factory, prefix: str) -> Path:
    """A new empty folder under the session's temporary folder. pytest's numbered folders
    (`tmp_path_factory.mktemp`, `tmp_path`) scan that whole folder for the highest number: with two made per
    test, the metamorphic suite's ten thousand tests spent over a minute of CPU listing it."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=tmp_path_factory.getbasetemp()))


@pytest.fixture
def tmp_path(tmp_path_factory) -> Path:
    """A test's own empty folder, as pytest's `tmp_path`, made without its scan (see new_folder)."""
    return new_folder(tmp_path_factory, "test")


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Each test (and the commands it starts) uses its own result cache, never the user's; its database's
    connection is closed after it (a worker kept one open per test: 650 files open after 1,053 tests)."""
    from pytree_lint.cachedir import EntryDatabase

    directory = new_folder(tmp_path_factory, "cache")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(directory))
    yield directory
    EntryDatabase.close_all()
