"""`--fix` and `--diff`: safe fixes applied in one pass and linted again, unsafe ones only shown; the fixed
code runs correctly under JAX."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

FIXABLE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp


    @jax.tree_util.register_pytree_node_class
    class Pair:
        def __init__(self, a, names, tags, sizes=None):
            self.a = a
            self.names = list(names)
            self.tags = [t for t in tags]
            self.sizes = [1] if sizes is None else sizes

        def tag(self, label):
            self.tags.append(label)

        def tree_flatten(self):
            return (self.a,), (self.names, self.tags, self.sizes)

        @classmethod
        def tree_unflatten(cls, children, aux):
            return cls(*children, *aux)


    def unflatten_box(children: tuple, aux_data):
        return Box(*children)


    def copy_box(box):
        return unflatten_box((box.x,), None)


    class Box:
        def __init__(self, x):
            self.x = x


    jax.tree_util.register_pytree_node(Box, lambda b: ((b.x,), None), unflatten_box)


    def round_trip():
        pair = jax.tree.map(lambda x: x + 1, Pair(jnp.zeros(2), ["a"], ["b"]))
        return pair.a.tolist(), pair.names
    """)


def pytree_lint(*args: str, cwd) -> subprocess.CompletedProcess:
    """The CLI with the opt-in tier on: the unmutated lists here are PTL901, whose fixes are safe."""
    return subprocess.run([sys.executable, "-m", "pytree_lint", "--extend-select", "PTL9", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_diff_shows_safe_fixes_and_marks_unsafe_ones_without_writing(tmp_path):
    (tmp_path / "pair.py").write_text(FIXABLE)
    result = pytree_lint("--diff", "pair.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    safe, *unsafe = result.stdout.split("# unsafe fix for ")
    assert "-        self.names = list(names)\n+        self.names = tuple(names)\n" in safe
    assert "-        self.sizes = [1] if sizes is None else sizes\n+        self.sizes = (1,) if sizes" in safe
    assert "-    def tree_unflatten(cls, children, aux):\n+    def tree_unflatten(cls, aux, children):\n" in safe
    assert "self.tags = tuple" not in safe and "unflatten_box(aux_data" not in safe
    # The list comprehension is appended to; `unflatten_box` is also called by `copy_box`.
    assert [block.split(" ")[0:2] for block in unsafe] == [["pair.py:17:40", "PTL102"], ["pair.py:24:5", "PTL303"]]
    assert "`self.tags.append(label)`" in unsafe[0] and "+        self.tags = tuple(t for t in tags)\n" in unsafe[0]
    assert "`unflatten_box((box.x,), None)`" in unsafe[1]
    assert "+def unflatten_box(aux_data, children: tuple):\n" in unsafe[1]
    assert (tmp_path / "pair.py").read_text() == FIXABLE


def test_json_labels_each_fix(tmp_path):
    (tmp_path / "pair.py").write_text(FIXABLE)
    cold = pytree_lint("--format", "json", "pair.py", cwd=tmp_path).stdout
    assert pytree_lint("--format", "json", "pair.py", cwd=tmp_path).stdout == cold  # the cache keeps the fixes
    rows = json.loads(cold)
    fixes = {(row["line"], row["column"]): row.get("fix") for row in rows}
    assert fixes[(17, 28)] == {"applicability": "safe", "message": "build a tuple: `tuple(names)`", "edits": [
        {"location": {"row": 9, "column": 22}, "end_location": {"row": 9, "column": 33}, "content": "tuple(names)"}]}
    assert fixes[(17, 40)]["applicability"] == "unsafe"
    assert fixes[(24, 5)]["applicability"] == "unsafe"


def test_fix_applies_safe_fixes_and_the_result_runs(tmp_path):
    pytest.importorskip("jax")
    (tmp_path / "pair.py").write_text(FIXABLE)
    before = subprocess.run([sys.executable, "-c", "import pair; pair.round_trip()"], capture_output=True,
                            text=True, cwd=tmp_path, env={"JAX_PLATFORMS": "cpu", "PATH": ""})
    # unflatten receives aux_data as its children: the names list becomes `a`
    assert "AttributeError: 'list' object has no attribute 'tolist'" in before.stderr

    result = pytree_lint("--fix", "pair.py", cwd=tmp_path)
    fixed = (tmp_path / "pair.py").read_text()
    assert "self.names = tuple(names)" in fixed and "def tree_unflatten(cls, aux, children):" in fixed
    assert "self.tags = [t for t in tags]" in fixed and "def unflatten_box(children: tuple, aux_data):" in fixed
    # Linted again: what is left are the two findings whose fixes are unsafe.
    assert [line.split(" ")[0:2] for line in result.stdout.splitlines()] == [
        ["pair.py:17:40:", "PTL102"], ["pair.py:24:5:", "PTL303"]]
    assert "fixed 3 finding(s) in 1 file(s)" in result.stderr
    assert result.returncode == 1
    after = subprocess.run([sys.executable, "-c", "import pair; print(pair.round_trip())"], capture_output=True,
                           text=True, cwd=tmp_path, env={"JAX_PLATFORMS": "cpu", "PATH": ""})
    assert after.stdout.strip() == "([1.0, 1.0], ('a',))", after.stderr
    assert pytree_lint("--diff", "pair.py", cwd=tmp_path).returncode == 0  # nothing safe is left to fix
