"""Nothing hangs, nothing is lost, nothing is hidden: inputs that once hung a run, crashed it or cut a file,
through the real CLI and real flake8 in subprocesses (each under a time bound)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import KNOWN

TIME_BOUND = 60  # seconds: every case here takes well under two on this machine
KNOWN_FINDING = "known.py:11:27: PTL101"
MLP = """\
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.layers = [nnx.Linear(2, 2, rngs=rngs)]
"""


def run(*args: str, cwd: Path, cache: Path | None = None, module: str = "pytree_lint", env: dict | None = None,
        preexec=None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTREE_LINT_CACHE_DIR": str(cache or cwd / ".cache"), **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd,
                          env=environment, timeout=TIME_BOUND, preexec_fn=preexec)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_named_like_python_is_refused_not_waited_on(tmp_path):
    write(tmp_path, {"pyproject.toml": "", "known.py": KNOWN})
    os.mkfifo(tmp_path / "pipe.py")
    result = run(".", cwd=tmp_path)
    assert result.returncode == 2
    assert "pipe.py: error: cannot read the file: not a regular file" in result.stderr
    assert KNOWN_FINDING in result.stdout


def test_bases_that_lead_back_through_imports_end(tmp_path):
    write(tmp_path, {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            import jax
            from .a import Box as Base0
            from .b import Box as Base1


            @jax.tree_util.register_pytree_node_class
            class Box(Base0, Base1, Base0, Base1):
                pass
            """,
        "pkg/b.py": """\
            from .a import Box as Base0
            from .b import Box as Base1


            class Box(Base0, Base1, Base1, Base0):
                pass
            """,
    })
    assert run(".", cwd=tmp_path).returncode == 0


def test_a_failed_fix_write_leaves_the_file_whole(tmp_path):
    import resource
    import signal

    source = MLP + "# padding to make the file larger than the write limit\n" * 200
    write(tmp_path, {"pyproject.toml": "", "model.py": source})
    size = (tmp_path / "model.py").stat().st_size

    def limit_writes():  # `ulimit -f`: writes past this size fail (EFBIG) instead of killing the process
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size // 2, size // 2))

    # No bytecode written under the limit: CPython writes a .pyc without checking for a short write, and a
    # module imported first by this process (the fix engine) would be left truncated for every later run.
    result = run("--fix", "--no-cache", "model.py", cwd=tmp_path, preexec=limit_writes,
                 env={"PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 2, result.stderr
    assert "model.py: error: could not apply its fixes" in result.stderr
    assert (tmp_path / "model.py").read_text() == textwrap.dedent(source)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_fixes_are_applied_until_none_is_left(tmp_path):
    write(tmp_path, {"pyproject.toml": "", "mlp.py": MLP})
    result = run("--fix", "--no-cache", "mlp.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert run("--no-cache", "mlp.py", cwd=tmp_path).returncode == 0
    assert "nnx.List(" in (tmp_path / "mlp.py").read_text()


MASKED = """\
import jax

from .masks import make_mask


@jax.tree_util.register_pytree_node_class
class Masked:
    def __init__(self, x):
        self.x = x
        self.mask = make_mask()

    def tree_flatten(self):
        return (self.x,), self.mask  # the finding, once masks.py says what make_mask returns

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
"""
MASKS = "import numpy as np\n\n\ndef make_mask():\n    return np.arange(4) > 1\n"


# Shapes a damaged cache entry may have: each is ignored (the file linted again) and rewritten.
DAMAGE = [b"", b"[]", b"null", b"3", b'"x"', b"{}", b'{"written": "x", "files": []}',
          b'{"module": "m", "functions": []}',
          b"[" * 100000 + b"]" * 100000]


def _linted_project(tmp_path: Path) -> subprocess.CompletedProcess:
    """A project whose finding needs another module's summary, linted once (its caches made)."""
    write(tmp_path, {
        "pyproject.toml": "",
        "known.py": KNOWN,
        "pkg/__init__.py": "",
        "pkg/masks.py": MASKS,
        "pkg/model.py": MASKED,
    })
    first = run(".", cwd=tmp_path)
    assert first.returncode == 1, first.stderr
    return first


def _entries(database: Path) -> list[tuple[str, str]]:
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return [(table, key) for table in ("summaries", "indexes")
                for (key,) in connection.execute(f"SELECT key FROM {table}")]


def test_a_damaged_cache_entry_is_ignored_and_rewritten(tmp_path):
    """Every cache entry (the run's manifest of results, each module summary, the project's call index) damaged
    in every shape, a different shape per entry in each round: the findings are those of the first run."""
    first = _linted_project(tmp_path)
    manifests = sorted((tmp_path / ".cache" / "manifests").glob("*.json"))
    database = tmp_path / ".cache" / "summaries.sqlite3"
    entries = _entries(database)
    assert len(manifests) == 1 and {table for table, _ in entries} == {"summaries", "indexes"}, (manifests, entries)
    places = [*manifests, *entries]
    for start in range(0, len(DAMAGE), len(places)):
        damaged = {}
        with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as connection:
            for number, place in enumerate(places):
                damaged[place] = DAMAGE[(start + number) % len(DAMAGE)]
                if isinstance(place, Path):
                    place.write_bytes(damaged[place])
                else:
                    connection.execute(f"UPDATE {place[0]} SET value = ? WHERE key = ?", (damaged[place], place[1]))
        again = run(".", cwd=tmp_path)
        assert (again.returncode, again.stdout, again.stderr) == (1, first.stdout, first.stderr), damaged
        with contextlib.closing(sqlite3.connect(database)) as connection:
            now = {(table, key): value for table, key in entries for (value,) in connection.execute(
                f"SELECT value FROM {table} WHERE key = ?", (key,))}
        assert any(now.get(place) not in (None, damage) for place, damage in damaged.items() if not isinstance(
            place, Path)), "no summary was made again"


def test_a_manifest_changed_but_still_well_formed_is_read_as_none(tmp_path):
    """The run's manifest changed in place (a finding's message in it), still JSON of the right shape, fails its
    checksum: the files are linted again, and the findings are theirs, not the change."""
    first = _linted_project(tmp_path)
    [manifest] = (tmp_path / ".cache" / "manifests").glob("*.json")
    manifest.write_bytes(manifest.read_bytes().replace(b"array in aux_data", b"all is well in aux_data"))
    again = run(".", cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (1, first.stdout, first.stderr)


def test_a_summary_changed_but_still_well_formed_is_read_as_none(tmp_path):
    """A summary entry whose text is changed in place (a disk's fault), still JSON of the right shape, fails its
    checksum: masks.py is summarised again, and the finding quotes what its function returns, not the change."""
    first = _linted_project(tmp_path)
    shutil.rmtree(tmp_path / ".cache" / "manifests")  # the files are linted again, reading the summaries
    with contextlib.closing(sqlite3.connect(tmp_path / ".cache" / "summaries.sqlite3", isolation_level=None)) as db:
        changed = db.execute("UPDATE summaries SET value = replace(value, 'np.arange(4)', 'np.arange(9)')").rowcount
    assert changed == 1
    again = run(".", cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (1, first.stdout, first.stderr)
    assert "`np.arange(4) > 1` (pkg/masks.py:5)" in again.stdout


@pytest.mark.parametrize("damage", [b"", b"not a database" * 100, "first half"])
def test_a_damaged_summary_database_is_made_again(tmp_path, damage):
    """The summaries' database file itself damaged (emptied, overwritten, cut in half): the run's findings are
    those of the first, and the file is a database of the summaries again."""
    first = _linted_project(tmp_path)
    database = tmp_path / ".cache" / "summaries.sqlite3"
    shutil.rmtree(tmp_path / ".cache" / "manifests")  # the files are linted again, reading the summaries
    whole = database.read_bytes()
    database.write_bytes(whole[:len(whole) // 2] if damage == "first half" else damage)
    again = run(".", cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (1, first.stdout, first.stderr)
    assert {table for table, _ in _entries(database)} == {"summaries", "indexes"}


def test_a_cache_folder_that_cannot_be_made_costs_only_time(tmp_path):
    """The cache folder's place taken by a file: nothing is cached, nothing is said, the findings are the same."""
    first = _linted_project(tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    again = run(".", cwd=tmp_path, cache=blocked / "cache")
    assert (again.returncode, again.stdout, again.stderr) == (1, first.stdout, first.stderr)


@pytest.mark.parametrize(("name", "text", "message"), [
    ("pyproject.toml", 'tool = "x"  # [tool.pytree-lint] below\n', "pyproject.toml: `tool` must be a table, not str"),
    ("pyproject.toml", "[tool]\npytree-lint = 3\n", "pyproject.toml: `tool.pytree-lint` must be a table, not int"),
    ("pyproject.toml", "[tool.pytree-lint]\nselect = 3\n", "select: expected a list of strings"),
    ("pyproject.toml", "[tool.pytree-lint]\nx = " + "[" * 5000 + "]" * 5000 + "\n", "pyproject.toml:"),
])
def test_a_config_value_of_the_wrong_shape_is_named(tmp_path, name, text, message):
    write(tmp_path, {name: text, "known.py": KNOWN})
    result = run(".", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_percent_sign_in_an_ini_value_is_a_percent_sign(tmp_path):
    write(tmp_path, {"setup.cfg": "[pytree-lint]\nexclude = build_%(name)s, 100%_generated\n", "known.py": KNOWN})
    result = run(".", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, "")
    assert KNOWN_FINDING in result.stdout


TRIP_WIRE = """\
from pytree_lint.rules import ArrayInAuxData

original = ArrayInAuxData.check


def check(self, analysis):
    if "trip-wire" in analysis.source.text:
        raise KeyError("simulated bug")
    return original(self, analysis)


ArrayInAuxData.check = check
"""


def test_flake8_shows_an_internal_error_instead_of_a_clean_file(tmp_path):
    write(tmp_path, {"sitecustomize.py": TRIP_WIRE, "model.py": KNOWN + "# trip-wire\n"})
    result = run("--isolated", "--select", "PTL", "model.py", cwd=tmp_path, module="flake8",
                 env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0
    assert "simulated bug" in result.stdout + result.stderr


def test_a_crash_outside_any_file_exits_2(tmp_path):
    write(tmp_path, {"sitecustomize.py": "import pytree_lint.faces.formats as f\n"
                                          "f.FORMATS['concise'] = lambda findings: 1 / 0\n", "known.py": KNOWN})
    result = run("known.py", cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 2
    assert "internal error (ZeroDivisionError" in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize("args", [("known.py",), ("--format", "json", "known.py"), ("rule", "PTL101")])
def test_a_report_that_cannot_be_written_says_so_and_exits_2(tmp_path, args):
    write(tmp_path, {"known.py": KNOWN})
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "pytree_lint", *args], stdout=full, stderr=subprocess.PIPE,
                                text=True, cwd=tmp_path, timeout=TIME_BOUND,
                                env={**os.environ, "PYTREE_LINT_CACHE_DIR": str(tmp_path / ".cache")})
    assert result.returncode == 2
    assert result.stderr.strip() == "pytree-lint: error: cannot write the report to stdout: No space left on device"


def test_json_that_is_no_notebook_is_named_and_the_run_goes_on(tmp_path):
    notebooks = {"empty.ipynb": "{}", "string_cell.ipynb": '{"cells": ["x"], "nbformat": 4, "nbformat_minor": 5, '
                 '"metadata": {}}', "v3.ipynb": '{"nbformat": 3, "nbformat_minor": 0, "metadata": {}}',
                 "deep.ipynb": "[" * 100000 + "]" * 100000}
    write(tmp_path, {"pyproject.toml": "", "known.py": KNOWN, **notebooks})
    result = run("--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert KNOWN_FINDING in result.stdout
    for name in notebooks:
        assert f"{name}: error: not a valid notebook: " in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("before", [None, "def make_mask(:\n"], ids=["absent", "not python yet"])
def test_a_cached_result_follows_a_module_that_appears_or_is_mended(tmp_path, before):
    write(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/model.py": MASKED})
    if before is not None:
        (tmp_path / "pkg/masks.py").write_text(before)
    assert run("pkg/model.py", cwd=tmp_path).returncode == 0
    (tmp_path / "pkg/masks.py").write_text(MASKS)
    result = run("pkg/model.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "pkg/model.py:13:27: PTL101" in result.stdout
