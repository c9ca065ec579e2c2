"""`pytree-lint verify` confirms every finding of the bad fixtures under real JAX, and survives modules that
hang, crash or fail to import; `check_pytree` fails with evidence on misbehaving pytrees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, expected_findings, unmet_requirement

pytest.importorskip("jax")
OPTIONAL_FRAMEWORKS = ("flax", "equinox", "jax_dataclasses", "simple_pytree", "numpyro", "chex", "penzai",
                       "netket", "jax_md", "tjax", "genjax", "distrax")


def verify(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """`pytree-lint verify` with one harness (one JAX import): the suite already runs a test per core."""
    return subprocess.run([sys.executable, "-m", "pytree_lint", "verify", "--jobs", "1", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=1800)


def one_row_each(result: subprocess.CompletedProcess, paths: list[str]) -> dict[str, dict]:
    """A JSON verify run's rows by path, which must be one finding for each of `paths` (modules verified in
    one run, each as a test of its own would)."""
    rows = json.loads(result.stdout)
    assert sorted(row["path"] for row in rows) == sorted(paths), result.stderr
    return {row["path"]: row for row in rows}


# The fixtures by rule family: three verify runs the suite's workers share (one run took 40 s of one worker).
FAMILIES = {"aux_data": ("PTL1",), "structure": ("PTL2", "PTL3"), "leaves_and_nnx": ("PTL4", "PTL5", "PTL9")}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_fixture_finding_is_confirmed(family):
    folders = sorted(folder for folder in FIXTURES.iterdir() if folder.name.startswith(FAMILIES[family]))
    result = verify("--format", "json", "--select", "PTL,PTL9", *map(str, folders))
    rows = json.loads(result.stdout)
    # every rule of the family with a bad fixture has its findings verified
    assert {Path(row["path"]).parent.name for row in rows} == {
        folder.name for folder in folders if any(folder.glob("bad_*.py"))}, result.stderr
    for row in rows:
        missing = row["status"] == "error" and "No module named" in row["evidence"] and any(
            f"'{name}" in row["evidence"] for name in OPTIONAL_FRAMEWORKS)
        assert row["status"] == "confirmed" or missing or unmet_requirement(Path(row["path"])), row
    assert {"path", "line", "column", "code", "message", "status", "evidence"} <= set(rows[0])


def test_every_finding_of_the_project_fixtures_is_confirmed():
    """Each flow across modules (tests/projects/*/bad) is proved under JAX, every finding of it: a module of a
    package runs under its dotted name (its relative imports work: `from .optim import apply`), and a module
    of several findings on one code path each returns them as paths of their own from `reproduce()`."""
    projects = Path(__file__).parent / "projects"
    result = verify("--format", "json", *sorted(str(pkg.relative_to(projects)) for pkg in projects.glob("*/bad/pkg")),
                    cwd=projects)
    rows = json.loads(result.stdout)
    expected = {(path.relative_to(projects).as_posix(), line, code)
                for path in projects.glob("*/bad/pkg/**/*.py") for line, code in expected_findings(path)}
    assert {(row["path"], row["line"], row["code"]) for row in rows} == expected, result.stderr
    assert [row for row in rows if row["status"] != "confirmed"] == []
    tree_maps = [row["evidence"] for row in rows if row["path"].startswith("tree_maps_elsewhere/")]
    assert len(tree_maps) == 2 and all("pytree structure error" in evidence for evidence in tree_maps)


BOX = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x):
        self.x = x
        self.table = np.arange(3.0)

    def tree_flatten(self):
        return (self.x,), self.table

    @classmethod
    def tree_unflatten(cls, table, children):
        obj = object.__new__(cls)
        obj.x, obj.table = children[0], table
        return obj
"""


# Modules that end each way, verified in one run (a run's harness imports JAX once: 1.1 CPU-seconds each).
ODD_ENDINGS = {
    "examples": ("\ndef examples():\n    return [Box(jnp.ones(2)), Box(jnp.ones(2))]\n", "confirmed", "ValueError"),
    "built": ("", "confirmed", "jitted call 2 of 2 equal examples raised ValueError"),  # built by the verifier
    "reproduce": ("\ndef reproduce():\n    Box(jnp.ones(2))\n", "confirmed", "(on synthesized examples)"),
    "raises": ("\nraise RuntimeError('cannot import')\n", "error", "importing the module raised RuntimeError"),
    "hangs": ("\nimport time\ntime.sleep(600)\n", "error", "did not finish within 8 s"),
    "aborts": ("\nimport os\nos.abort()\n", "error", "killed by signal"),
    "one_example": ("\ndef examples():\n    return [Box(jnp.ones(2))]\n", "no-example", "fewer than two inputs"),
}


def test_each_module_gets_a_status_and_the_run_goes_on(tmp_path):
    for name, (tail, _, _) in ODD_ENDINGS.items():
        (tmp_path / f"odd_{name}.py").write_text(BOX + tail)
    (tmp_path / "good.py").write_text(BOX + "\ndef examples():\n    return [Box(jnp.ones(2)), Box(jnp.ones(2))]\n")
    result = verify("--format", "json", "--timeout", "8", ".", cwd=tmp_path)
    rows = {row["path"]: row for row in json.loads(result.stdout)}
    for name, (_, status, evidence) in ODD_ENDINGS.items():
        row = rows[f"odd_{name}.py"]
        assert row["status"] == status and evidence in row["evidence"], row
    assert rows["good.py"]["status"] == "confirmed"
    assert result.returncode == 2  # an error (1: a finding is confirmed and no module failed)


def test_text_output_and_summary(tmp_path):
    (tmp_path / "box.py").write_text(BOX + "\ndef examples():\n    return [Box(jnp.ones(2)), Box(jnp.ones(2))]\n")
    result = verify(".", cwd=tmp_path)
    assert result.stdout.startswith("box.py:13:27: PTL101 confirmed: aux_data is a numpy.ndarray of shape (3,); "
                                    "jitted call 2 of 2 equal examples raised ValueError")
    assert "1 finding: 1 confirmed, 0 unconfirmed, 0 no-example, 0 error" in result.stderr


def test_unconfirmed_when_the_symptom_does_not_show(tmp_path):
    source = BOX.replace("np.arange(3.0)", "np.float64(1.0) + np.zeros(())")  # 0-d: compares by value
    (tmp_path / "scalar.py").write_text(source + "\ndef examples():\n    return [Box(jnp.ones(2)), Box(jnp.ones(2))]\n")
    rows = json.loads(verify("--format", "json", ".", cwd=tmp_path).stdout)
    if rows:  # the linter may or may not call this an array; if it does, the verifier must not confirm it
        assert rows[0]["status"] == "unconfirmed"


def test_check_pytree():
    import importlib.util

    from pytree_lint.testing import PytreeCheckError, check_pytree
    spec = importlib.util.spec_from_file_location("box_fixture", FIXTURES / "PTL101" / "bad_alias_lambda.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import jax.numpy as jnp
    with pytest.raises(PytreeCheckError, match=r"aux_data is a numpy.ndarray of shape \(5,\)"):
        check_pytree(lambda: module.Lookup(jnp.ones(3), 5))

    spec = importlib.util.spec_from_file_location("config_fixture", FIXTURES / "PTL104" / "bad_plain_config.py")
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    with pytest.raises(PytreeCheckError, match=r"compare unequal.*3 traces for 3 calls"):
        check_pytree(lambda: config.Optimizer(jnp.ones(2), 0.1))

    spec = importlib.util.spec_from_file_location("order_fixture", FIXTURES / "PTL302" / "bad_swapped_reads.py")
    order = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(order)
    with pytest.raises(PytreeCheckError, match=r"puts the value of `y` into `x`"):  # equal shapes, swapped
        check_pytree(lambda: order.Point(jnp.zeros(2), jnp.ones(2)))
    with pytest.raises(PytreeCheckError, match=r"puts the value of `y` into `x`"):  # equal values, swapped
        check_pytree(lambda: order.Point(jnp.ones(2), jnp.ones(2)))
    check_pytree(lambda: (jnp.full(2, jnp.nan), jnp.ones(2)))  # NaN comes back equal to itself

    check_pytree(lambda: (jnp.ones(2), {"a": jnp.zeros(3)}))  # a plain, well-behaved pytree passes
    with pytest.raises(ValueError):
        check_pytree(lambda: 1, calls=1)


def test_examples_outside_the_library_and_exit_0_when_nothing_is_confirmed(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "box.py").write_text(BOX)
    (tmp_path / "lib" / "scalar.py").write_text(BOX.replace("class Box", "class Scalar").replace(
        "np.arange(3.0)", "np.float64(1.0) + np.zeros(())"))
    (tmp_path / "examples.py").write_text(
        "import jax.numpy as jnp\nfrom box import Box\nfrom scalar import Scalar\n\n"
        "def examples_Box():\n    return [Box(jnp.ones(2)), Box(jnp.ones(2))]\n\n"
        "def examples():\n    return [Scalar(jnp.ones(2)), Scalar(jnp.ones(2))]\n")
    confirmed = verify("--format", "json", "--examples", "examples.py", "lib/box.py", cwd=tmp_path)
    assert [row["status"] for row in json.loads(confirmed.stdout)] == ["confirmed"], confirmed.stderr
    assert confirmed.returncode == 1
    none = verify("--format", "json", "--examples", "examples.py", "lib/scalar.py", cwd=tmp_path)
    statuses = [row["status"] for row in json.loads(none.stdout)]
    assert "confirmed" not in statuses and none.returncode == 0, (statuses, none.stderr)
    missing = verify("--examples", "nowhere.py", "lib", cwd=tmp_path)
    assert missing.returncode == 2 and "no such file: nowhere.py" in missing.stderr


def test_a_structural_finding_is_confirmed_through_reproduce(tmp_path):
    swapped = textwrap.dedent("""\
        import jax
        import jax.numpy as jnp


        @jax.tree_util.register_pytree_node_class
        class Pair:
            def __init__(self, a, b):
                self.a = a
                self.b = b

            def tree_flatten(self):
                return (self.a, self.b), None

            @classmethod
            def tree_unflatten(cls, children, aux):
                return cls(*children)


        def reproduce():
            return jax.tree.map(lambda x: x + 1, Pair(jnp.ones(2), jnp.zeros(2)))
        """)
    (tmp_path / "pair.py").write_text(swapped)
    [row] = json.loads(verify("--format", "json", "pair.py", cwd=tmp_path).stdout)
    assert (row["code"], row["status"]) == ("PTL303", "confirmed"), row
    assert "in `Pair.tree_unflatten`" in row["evidence"] or "at line 15" in row["evidence"]


def test_notebooks_are_left_to_jupyter(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(BOX)]
    nbformat.write(nb, tmp_path / "box.ipynb")
    (tmp_path / "box.py").write_text(BOX)
    result = verify("--format", "json", ".", cwd=tmp_path)
    assert [row["path"] for row in json.loads(result.stdout)] == ["box.py"], result.stderr


def test_the_probe_changes_the_container_the_finding_names():
    """Two lists in one aux_data: each finding is confirmed by changing its own list."""
    result = verify("--format", "json", "--select", "PTL9", str(FIXTURES / "PTL901" / "bad_filled_before_any_jit.py"))
    rows = json.loads(result.stdout)
    assert [(row["column"], row["status"]) for row in rows] == [(34, "confirmed"), (46, "confirmed")], rows
    assert "adding an item to aux_data[0] (a list)" in rows[0]["evidence"]
    assert "adding an item to aux_data[1] (a list)" in rows[1]["evidence"]


def test_a_module_that_forks_leaves_no_process_behind(tmp_path):
    marker = f"pytree-lint-fork-{os.getpid()}"
    (tmp_path / "forks.py").write_text(BOX + f"""
import os, sys, time
if os.fork() == 0:  # a child that outlives the import, named so the test can find it
    sys.argv[0] = "{marker}"
    os.execvp("sleep", ["sleep", "600", "{marker}"])

def examples():
    return [Box(jnp.ones(2)), Box(jnp.ones(2))]
""")
    started = time.monotonic()
    [row] = json.loads(verify("--format", "json", "--timeout", "20", "forks.py", cwd=tmp_path).stdout)
    assert row["status"] == "confirmed", row
    assert time.monotonic() - started < 20  # the verdict does not wait for the child
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    assert left.stdout == "", f"left running: {left.stdout}"


def test_json_a_module_prints_is_not_taken_for_a_verdict(tmp_path):
    forged = json.dumps({"results": [{"status": "unconfirmed", "evidence": "forged"}]})
    (tmp_path / "prints.py").write_text(BOX + f"\nprint({forged!r})\nprint({forged!r}, flush=True)\n")
    [row] = json.loads(verify("--format", "json", "prints.py", cwd=tmp_path).stdout)
    assert row["status"] == "confirmed", row
    assert "forged" not in row["evidence"]


# A class the verifier cannot build, verified with each of these endings in one run.
UNBUILDABLE_ENDINGS = {
    "no_hook": ("", "the module defines no examples() hook, nor reproduce(): define examples() returning two equal "
                    "inputs in the module, or examples_<Class>() or examples() in a file given with `--examples "
                    "FILE` (and building `Box` from its annotations raised ValueError: x must be 3-D)"),
    "reproduce": ("\ndef reproduce():\n    Box(jnp.ones((2, 2, 2)) * 2)\n",
                  "this rule is shown by running examples, not reproduce()"),
}


def test_a_class_the_verifier_cannot_build_says_how_to_give_examples(tmp_path):
    validating = BOX.replace("        self.x = x\n", "        if x.ndim != 3:\n            raise ValueError('x must be "
                                                    "3-D')\n        self.x = x\n")
    for name, (tail, _) in UNBUILDABLE_ENDINGS.items():
        (tmp_path / f"odd_{name}.py").write_text(validating + tail)
    rows = one_row_each(verify("--format", "json", ".", cwd=tmp_path),
                        [f"odd_{name}.py" for name in UNBUILDABLE_ENDINGS])
    for name, (_, evidence) in UNBUILDABLE_ENDINGS.items():
        row = rows[f"odd_{name}.py"]
        assert row["status"] == "no-example" and evidence in row["evidence"], row


def test_a_validating_class_is_built_from_a_call_the_module_writes(tmp_path):
    validating = BOX.replace("        self.x = x\n", "        if x.ndim != 3:\n            raise ValueError('x must be "
                                                    "3-D')\n        self.x = x\n")
    (tmp_path / "called.py").write_text(validating + "\n\ndef default():\n    return Box(jnp.ones((2, 2, 2)))\n")
    [row] = json.loads(verify("--format", "json", "called.py", cwd=tmp_path).stdout)
    assert row["status"] == "confirmed" and row["evidence"].endswith("(on synthesized examples)"), row


def test_the_verifier_fills_optional_arrays_and_tries_a_matrix(tmp_path):
    """`x: Array | None = None` gets an array (the None default would never reach the check), and a
    constructor that refuses a vector gets a matrix."""
    (tmp_path / "update.py").write_text("""\
import dataclasses

import jax


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Update:
    value: jax.Array | None = None

    def __post_init__(self):
        if self.value is not None and self.value.ndim != 2:
            raise ValueError("value must be 2-D")
""")
    [row] = json.loads(verify("--format", "json", "update.py", cwd=tmp_path).stdout)
    assert row["code"] == "PTL301" and row["status"] == "confirmed", row
    assert "'P' object has no attribute 'ndim' (on synthesized examples)" in row["evidence"], row


# The rules judged on instances: the verifier can build those itself when no hook gives them.
INSTANCE_RULES = ("PTL101", "PTL102", "PTL103", "PTL104", "PTL105", "PTL301", "PTL302", "PTL303", "PTL304",
                  "PTL305", "PTL306", "PTL307", "PTL401")


def without_hooks(source: str) -> str:
    """The module with its examples() and reproduce() hooks taken out."""
    import ast

    tree = ast.parse(source)
    tree.body = [statement for statement in tree.body
                 if not (isinstance(statement, ast.FunctionDef) and statement.name in ("examples", "reproduce"))]
    return ast.unparse(tree) + "\n"


def test_without_hooks_the_verifier_builds_the_examples_itself(tmp_path):
    """With every hook removed, at least 75% of the instance rules' findings are confirmed on examples the
    verifier builds from the classes' constructors (103 of 129 at the last count: a value a factory, a
    decorator or a subclass's builder makes is not one a constructor's annotations say); nothing is
    confirmed on the clean fixtures."""
    for kind in ("bad", "clean"):
        (tmp_path / kind).mkdir()
        for rule in INSTANCE_RULES:
            for fixture in sorted((FIXTURES / rule).glob(f"{kind}_*.py")):
                (tmp_path / kind / f"{rule}_{fixture.name}").write_text(without_hooks(fixture.read_text()))
    (tmp_path / "pyproject.toml").write_text("")
    rows = json.loads(verify("--format", "json", "bad", cwd=tmp_path).stdout)
    judged = [row for row in rows if row["code"] in INSTANCE_RULES and "No module named" not in row["evidence"]]
    confirmed = [row for row in judged if row["status"] == "confirmed"]
    assert len(confirmed) >= 0.75 * len(judged), [(r["path"], r["line"], r["evidence"]) for r in judged
                                                  if r["status"] != "confirmed"]
    assert all(row["evidence"].endswith("(on synthesized examples)") for row in confirmed)
    clean = json.loads(verify("--format", "json", "--select", "PTL,PTL9", "clean", cwd=tmp_path).stdout)
    assert [row for row in clean if row["status"] == "confirmed"] == []


def test_each_hook_alone_confirms_what_it_can(tmp_path):
    """A bad fixture with both hooks has every finding confirmed with its examples() taken out, and every
    finding of the rules proved on examples with its reproduce() taken out. (A fixture with one hook is
    already verified as it is by the family runs above.)"""
    import ast

    for kind in ("reproduce_only", "examples_only"):
        (tmp_path / kind).mkdir()
    for fixture in sorted(FIXTURES.glob("PTL*/bad_*.py")):
        tree = ast.parse(fixture.read_text())
        hooks = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)} & {"examples", "reproduce"}
        if hooks != {"examples", "reproduce"}:
            continue
        for kind, removed in (("reproduce_only", "examples"), ("examples_only", "reproduce")):
            body = [s for s in tree.body if not (isinstance(s, ast.FunctionDef) and s.name == removed)]
            module = ast.Module(body=body, type_ignores=[])
            (tmp_path / kind / f"{fixture.parent.name}_{fixture.name}").write_text(ast.unparse(module) + "\n")
    (tmp_path / "pyproject.toml").write_text("")
    rows = json.loads(verify("--format", "json", "--select", "PTL,PTL9", ".", cwd=tmp_path).stdout)
    reproduce_rules = {"PTL201", "PTL202", "PTL203", "PTL204", "PTL402", "PTL403", "PTL404", "PTL405",
                       "PTL501", "PTL502", "PTL503", "PTL504", "PTL505", "PTL506"}
    unconfirmed = [(row["path"], row["code"], row["evidence"]) for row in rows if row["status"] != "confirmed"
                   and "No module named" not in row["evidence"] and not unmet_requirement(tmp_path / row["path"])
                   and not (row["path"].startswith("examples_only") and row["code"] in reproduce_rules)]
    assert {row["path"].split("/")[0] for row in rows} == {"reproduce_only", "examples_only"}
    assert unconfirmed == []


def test_a_silent_structural_bug_is_confirmed_on_what_reproduce_builds(tmp_path):
    """reproduce() runs the swap without an error, and the class cannot be built by the verifier (it checks
    its shape; the call passes computed arrays): the object reproduce() built shows the swapped leaves."""
    (tmp_path / "swapped.py").write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp


        @jax.tree_util.register_pytree_node_class
        class Pair:
            def __init__(self, a, b):
                if a.shape != (3,):
                    raise ValueError("a must have 3 elements")
                self.a, self.b = a, b

            def tree_flatten(self):
                return (self.a, self.b), None

            @classmethod
            def tree_unflatten(cls, aux, children):
                obj = object.__new__(cls)
                obj.b, obj.a = children
                return obj


        def reproduce():
            pair = Pair(jnp.arange(3.0) + 1, jnp.zeros(3) + 5)
            jax.tree.map(lambda x: x, pair)
        """))
    [row] = json.loads(verify("--format", "json", "swapped.py", cwd=tmp_path).stdout)
    assert (row["code"], row["status"]) == ("PTL302", "confirmed"), row
    assert row["evidence"].startswith("jax.tree.map(lambda x: x, example) changed the leaves: leaf 0")
    assert row["evidence"].endswith("(on the objects reproduce() built)")


SWAPPED_MODULE_FUNCTION = """\
import jax
import jax.numpy as jnp


class Pair:
    def __init__(self, a, b):
        if a.shape != (3,):
            raise ValueError("a must have 3 elements")
        self.a, self.b = a, b


class Other:
    def __init__(self, *values):
        self.values = values


def _unflatten_pair(a, b):
    return {built}(*a)


jax.tree_util.register_pytree_node(Pair, lambda p: ((p.a, p.b), None), _unflatten_pair)


def reproduce():
    pair = Pair.__new__(Pair)  # built without its constructor: nothing to look at but the error
    pair.a, pair.b = jnp.arange(3.0), jnp.zeros(3)
    jax.tree.map(lambda x: x, pair)
"""


def test_an_error_the_rule_predicts_confirms_when_it_names_the_class(tmp_path):
    """JAX calls the unflatten from its own machinery, and the error is raised in a module function that
    is neither the finding's line nor a method of its class (which validates its arrays: the verifier cannot
    build it): the rule's predicted error, naming the class, confirms; the same error about another class
    does not."""
    for built in ("Pair", "Other"):
        (tmp_path / f"builds_{built}.py").write_text(SWAPPED_MODULE_FUNCTION.format(built=built))
    rows = one_row_each(verify("--format", "json", "--select", "PTL303", ".", cwd=tmp_path),
                        ["builds_Pair.py", "builds_Other.py"])
    for built, status in (("Pair", "confirmed"), ("Other", "unconfirmed")):
        row = rows[f"builds_{built}.py"]
        assert (row["code"], row["line"], row["status"]) == ("PTL303", 17, status), row
    assert rows["builds_Pair.py"]["evidence"].startswith(
        "reproduce() raised, with the error the rule predicts (`argument after * must be an iterable`) about "
        "`Pair`, TypeError: ")


def test_the_harness_keeps_the_runs_compilations_unless_the_user_keeps_them():
    """Each module's child compiles again what the others compiled: the run keeps XLA's programs in a folder
    of its own (JAX's persistent cache, every program kept), and a user's own cache setting stays as it is."""
    from pytree_lint.runtime.verify import compiled_once

    assert compiled_once({"PATH": "/bin"}, "/run") == {
        "PATH": "/bin", "JAX_COMPILATION_CACHE_DIR": "/run", "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}
    assert compiled_once({"JAX_COMPILATION_CACHE_DIR": "/mine"}, "/run") == {"JAX_COMPILATION_CACHE_DIR": "/mine"}
