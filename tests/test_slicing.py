"""Parsing only the relevant statements never changes a finding: checked on the fixtures and on the
installed jax package's own source (37 files there register pytrees)."""

from __future__ import annotations

from pathlib import Path

import libcst
import pytest

from pytree_lint import engine, lint_source
from pytree_lint.slicing import relevant_source

from conftest import fixture_files


def findings_both_ways(paths, monkeypatch):
    sliced = {p: lint_source(p.read_text(errors="replace"), str(p)) for p in paths}
    # Whole files, with positions over the whole module: nothing is sliced away, not even files with nothing
    # but imports to keep, and no line is mapped back.
    monkeypatch.setattr(engine, "_parse", lambda text, triggers, tree: (libcst.parse_module(text), None, None))
    whole = {p: lint_source(p.read_text(errors="replace"), str(p)) for p in paths}
    return sliced, whole


def test_slicing_keeps_every_fixture_finding(monkeypatch):
    sliced, whole = findings_both_ways(fixture_files(), monkeypatch)
    assert sliced == whole


def test_slicing_keeps_every_finding_in_jax_itself(monkeypatch):
    jax = pytest.importorskip("jax")
    paths = [p for p in Path(jax.__file__).parent.rglob("*.py") if "register_" in p.read_text(errors="replace")]
    sliced, whole = findings_both_ways(paths, monkeypatch)
    assert sum(len(f) for f in whole.values()) > 0
    assert sliced == whole


def test_sliced_text_keeps_the_statements_that_matter_and_where_each_starts():
    source = (
        "import jax\n"
        "import numpy as np\n"
        "\n"
        "def unrelated():\n"
        "    return 1\n"
        "\n"
        "TABLE = np.arange(3); OTHER = 1\n"
        "\n"
        "@jax.tree_util.register_static\n"
        "class Static:\n"
        "    table = TABLE\n"
        "\n"
        "def build():\n"
        "    return Static()\n"
    )
    sliced, first_lines, _suspects = relevant_source(source, ("register_static",),
                                                     instantiated_triggers=("register_static",))
    assert first_lines == [1, 2, 7, 10, 13]  # the decorated class starts at `class`, as in libcst
    assert sliced.splitlines() == ["import jax", "import numpy as np", "TABLE = np.arange(3); OTHER = 1",
                                   "@jax.tree_util.register_static", "class Static:", "    table = TABLE",
                                   "def build():", "    return Static()"]


def test_a_def_that_kept_code_only_calls_keeps_its_signature_not_its_body():
    source = (
        "import jax\n"                                      # 1
        "\n"
        "class Shape:\n"                                    # 3
        "    pass\n"
        "\n"
        "def validate(x: Shape) -> Shape:\n"                # 6
        "    '''Checks x.'''\n"
        "    assert x is not None\n"
        "    return x\n"
        "\n"
        "def flatten(node):\n"                              # 11
        "    return (node.x,), None\n"
        "\n"
        "def list(x):\n"                                    # 14: named like a builtin
        "    return x\n"
        "\n"
        "def short(x): return x\n"                          # 17: body on the signature's line
        "\n"
        "@jax.tree_util.register_pytree_node_class\n"      # 19
        "class Node:\n"
        "    def __init__(self, x):\n"
        "        self.x = validate(list(short(x)))\n"
        "    def tree_flatten(self):\n"
        "        return flatten(self)\n"
        "    tree_unflatten = classmethod(lambda cls, aux, children: cls(*children))\n"
        "\n"
        "jax.tree_util.register_pytree_node(Node, flatten, None)\n"
    )
    sliced, first_lines, _suspects = relevant_source(source, ("register_pytree",))
    kept = sliced.splitlines()
    # The signature stays (with the class its annotations name), the body becomes `...` on its first line.
    assert kept[1:5] == ["class Shape:", "    pass", "def validate(x: Shape) -> Shape:", "    ..."]
    # Called by `tree_flatten`, but passed as a value by the last statement: kept whole.
    assert kept[5:7] == ["def flatten(node):", "    return (node.x,), None"]
    assert kept[7:9] == ["def list(x):", "    return x"]
    assert kept[9] == "def short(x): return x"
    assert first_lines == [1, 3, 6, 11, 14, 17, 20, 27]


def test_a_call_that_may_pass_an_unhashable_static_argument_is_kept_wherever_it_is_on_its_line():
    source = (
        "from functools import partial\n"              # 1
        "import jax\n"
        "\n"
        "@partial(jax.jit, static_argnums=1)\n"        # 4
        "def run(x, sizes):\n"
        "    return x\n"
        "\n"
        "def unrelated():\n"                            # 8: a tuple is hashable
        "    return run(1, (2, 3))\n"
        "\n"
        "a = run(0, [1, 2]); first = 1\n"              # 11: the call comes first on its line
        "last = 2; b = run(0, [3])\n"                  # 12: the call comes last
    )
    sliced, first_lines, _suspects = relevant_source(source, engine.CALLED_TRIGGERS,
                                                     called_triggers=engine.CALLED_TRIGGERS)
    assert sliced.splitlines() == ["from functools import partial", "import jax",
                                   "@partial(jax.jit, static_argnums=1)", "def run(x, sizes):", "    return x",
                                   "a = run(0, [1, 2]); first = 1", "last = 2; b = run(0, [3])"]
    assert first_lines == [1, 2, 5, 11, 12]


LEFT_OUT_BEFORE_A_FINDING = (
    "import jax\n"                                      # 1
    "import numpy as np\n"
    "\n"
    "def unrelated():\n"                                # 4: left out, with the blank lines
    "    return 1\n"
    "\n"
    "\n"
    "@jax.tree_util.register_pytree_node_class\n"      # 8
    "class Node:\n"
    "    def __init__(self, x):\n"
    "        self.x = x\n"
    "        self.table = np.arange(3)\n"
    "\n"
    "    def tree_flatten(self):\n"
    "        return (self.x,), self.table\n"            # 15: PTL101
    "\n"
    "    @classmethod\n"
    "    def tree_unflatten(cls, table, children):\n"
    "        return cls(*children)\n"
)


def test_a_finding_after_left_out_lines_is_reported_on_the_file_line():
    sliced, _first_lines, _suspects = engine.libcst_input(LEFT_OUT_BEFORE_A_FINDING, ("register_pytree",),
                                                          engine.parse_ast(LEFT_OUT_BEFORE_A_FINDING))
    assert "unrelated" not in sliced and sliced.count("\n") < LEFT_OUT_BEFORE_A_FINDING.count("\n")
    [finding] = lint_source(LEFT_OUT_BEFORE_A_FINDING, "node.py")
    assert (finding.code, finding.line, finding.column, finding.end_line, finding.end_column) == (
        "PTL101", 15, 26, 15, 36)


def test_a_slice_whose_statements_libcst_counts_otherwise_is_not_used(monkeypatch):
    """Without a first line per statement the slice's positions cannot be mapped back: the whole file is
    parsed instead, and the finding keeps its line."""
    slice_of = engine.relevant_source

    def one_first_line_short(*args, **kwargs):
        sliced, first_lines, suspects = slice_of(*args, **kwargs)
        return sliced, first_lines[:-1], suspects
    monkeypatch.setattr(engine, "relevant_source", one_first_line_short)
    [finding] = lint_source(LEFT_OUT_BEFORE_A_FINDING, "node.py")
    assert (finding.code, finding.line, finding.column) == ("PTL101", 15, 26)
