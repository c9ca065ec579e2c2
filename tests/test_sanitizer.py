"""`pytest --pytree-sanitize` run by real pytest over test files that build and jit the fixtures' objects:
each misuse reported once with its code, the line that registered the class and the test that showed it;
nothing on the clean fixtures; the run fails when there is a misuse."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import FIXTURES

pytest.importorskip("jax")

STRUCTURE_CODES = {"PTL302", "PTL303", "PTL304", "PTL305", "PTL306", "PTL307", "PTL308"}
RULES = ("PTL101", "PTL102", "PTL103", "PTL104", "PTL105", "PTL301", "PTL302", "PTL303", "PTL304", "PTL305",
         "PTL306", "PTL307", "PTL308", "PTL401")

BUILD_AND_JIT = """\
import importlib

import jax
import pytest

MODULES = {modules!r}


@pytest.mark.parametrize("name", MODULES)
def test_build_and_jit(name):
    try:
        module = importlib.import_module(name)
    except ImportError:
        pytest.skip("its library is not installed")
    if not hasattr(module, "examples"):
        pytest.skip("no examples")
    identity = jax.jit(lambda tree: tree)
    for example in module.examples():
        try:
            identity(example)
            jax.tree.map(lambda x: x, example)
        except Exception:
            pass  # the misuse may well raise: the sanitizer reports it
"""


def sanitized(folder, *tests: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    report = folder / "misuses.json"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pytree-sanitize",
                             f"--pytree-sanitize-json={report}", *tests], cwd=folder, capture_output=True,
                            text=True, timeout=600)
    return result, json.loads(report.read_text()) if report.exists() else []


def fixtures_project(tmp_path, kind: str):
    names = []
    for rule in RULES:
        for fixture in sorted((FIXTURES / rule).glob(f"{kind}_*.py")):
            name = f"{kind}_{rule}_{fixture.stem[len(kind) + 1:]}"
            shutil.copy(fixture, tmp_path / f"{name}.py")
            names.append(name)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "test_objects.py").write_text(BUILD_AND_JIT.format(modules=names))
    return tmp_path


def test_the_bad_fixtures_objects_show_their_misuses(tmp_path):
    result, rows = sanitized(fixtures_project(tmp_path, "bad"), "test_objects.py")
    assert result.returncode == 1, result.stdout[-3000:]
    found = {(row["path"], row["line"], row["code"]) for row in rows}
    assert found >= {
        ("bad_PTL101_alias_lambda.py", 19, "PTL101"),  # `reg(Lookup, ...)`
        ("bad_PTL101_class_decorator_local_variable.py", 6, "PTL101"),  # the decorator
        ("bad_PTL101_equinox_static.py", 9, "PTL101"),  # the eqx.Module's class statement
        ("bad_PTL101_scipy_sparse_in_aux.py", 15, "PTL105"),
        ("bad_PTL105_elementwise_eq.py", 18, "PTL105"),
        # jit traced again for objects with equal leaves: a closure or an equal-valued object made per object
        ("bad_PTL103_framework_callables.py", 9, "PTL103"),
        ("bad_PTL103_per_instance_callables.py", 27, "PTL103"),
        ("bad_PTL103_per_instance_jit.py", 10, "PTL103"),
        ("bad_PTL104_plain_config.py", 12, "PTL104"),
        ("bad_PTL104_register_static.py", 7, "PTL104"),
        ("bad_PTL103_identity_and_object.py", 6, "PTL103"),  # `object()` made by each flatten of one object
        ("bad_PTL301_validating_constructors.py", 11, "PTL301"),
        ("bad_PTL301_validating_constructors.py", 56, "PTL301"),
        # the flatten/unflatten contract, each class at the line that registers it
        *(("bad_PTL302_swapped_reads.py", line, "PTL302") for line in (23, 26, 46, 53)),
        *(("bad_PTL303_children_first.py", line, "PTL303") for line in (13, 20, 44, 47)),
        ("bad_PTL303_swap_makes_children_look_short.py", 7, "PTL303"),
        *(("bad_PTL304_aux_first.py", line, "PTL304") for line in (7, 28)),
        *(("bad_PTL305_bare_array_children.py", line, "PTL305") for line in (22, 25)),
        *(("bad_PTL306_missing_children.py", line, "PTL306") for line in (7, 28, 49)),
        *(("bad_PTL307_keyed_order.py", line, "PTL307") for line in (13, 21)),
        *(("bad_PTL308_children_passed_whole.py", line, "PTL308") for line in (10, 29, 50)),
    }, sorted(found)
    # A contract broken one way is reported that way only: not as what the broken objects then hold.
    structural = {(path, line) for path, line, code in found if code in STRUCTURE_CODES}
    assert not {(path, line, code) for path, line, code in found
                if (path, line) in structural and code not in STRUCTURE_CODES}, sorted(found)
    assert len([code for *_, code in found if code in STRUCTURE_CODES]) == 21
    swapped = next(row for row in rows if row["path"] == "bad_PTL302_swapped_reads.py" and row["line"] == 23)
    assert swapped["message"].startswith("unflatten of `Point` puts the children back in another order than its "
                                         "flatten gives them: flattened again, child 0 was an array of shape (2,)")
    retraced = next(row for row in rows if row["path"] == "bad_PTL104_plain_config.py")
    assert retraced["message"] == (
        "identity-compared aux_data of `Optimizer`: jit of `test_build_and_jit.<locals>.<lambda>` traced again for "
        "an object of `Optimizer` whose leaves equal an earlier one's, its aux_data holding a new `Config` with the "
        "same attributes (`Config` has no value equality, so equal ones compare unequal): jit retraces for every "
        "new object (seen in test_objects.py::test_build_and_jit[bad_PTL104_plain_config])")
    assert not any(row["path"] == "bad_PTL103_identity_and_object.py" and row["code"] == "PTL104" for row in rows)
    first = next(row for row in rows if row["path"] == "bad_PTL101_alias_lambda.py")
    assert first["message"].startswith("array in aux_data of `Lookup`: aux_data is a ndarray of shape (5,)")
    assert first["message"].endswith("(seen in test_objects.py::test_build_and_jit[bad_PTL101_alias_lambda])")
    assert "pytree-lint sanitizer" in result.stdout and f"{len(rows)} pytree misuses found" in result.stdout


def test_the_clean_fixtures_objects_show_nothing(tmp_path):
    result, rows = sanitized(fixtures_project(tmp_path, "clean"), "test_objects.py")
    assert rows == [] and result.returncode == 0, result.stdout[-3000:]
    assert "no pytree misuse found" in result.stdout


def test_a_container_changed_after_a_flatten_and_a_fresh_closure_per_flatten(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "model.py").write_text(textwrap.dedent("""\
        import jax


        @jax.tree_util.register_pytree_node_class
        class Stack:
            def __init__(self, x, sizes):
                self.x, self.sizes = x, sizes

            def tree_flatten(self):
                return (self.x,), self.sizes

            @classmethod
            def tree_unflatten(cls, sizes, children):
                return cls(children[0], sizes)


        @jax.tree_util.register_pytree_node_class
        class Scaled:
            def __init__(self, x):
                self.x = x

            def tree_flatten(self):
                return (self.x,), (lambda value: value * 2,)

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)
        """))
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp

        from model import Scaled, Stack


        def test_grow():
            stack = Stack(jnp.ones(2), [1, 2])
            jax.jit(lambda s: s.x)(stack)
            stack.sizes.append(3)


        def test_scaled():
            scaled = Scaled(jnp.ones(2))
            for _ in range(2):
                jax.tree.leaves(scaled)
        """))
    result, rows = sanitized(tmp_path, "test_model.py")
    assert [(row["line"], row["code"], row["message"].split(":")[0]) for row in rows] == [
        (4, "PTL102", "mutable aux_data of `Stack`"), (17, "PTL103", "volatile aux_data of `Scaled`")]
    assert rows[0]["message"].endswith("changed in place after a flatten; jit's cache keeps the trace made before, "
                                       "so later calls return stale results (seen in test_model.py::test_grow)")
    assert result.returncode == 1


def test_what_the_sanitizer_keeps_neither_blocks_donation_nor_mistakes_a_build_for_a_flatten(tmp_path):
    """A buffer donated to a jitted call is deleted under the sanitizer too (it keeps copies of the leaves it
    compares, not views); a `register_dataclass` object whose list is filled after it is built, before JAX
    ever flattens it (flax's `Updates`), is no PTL102: building it is no flatten."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "model.py").write_text(textwrap.dedent("""\
        import dataclasses

        import jax


        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self, x):
                self.x = x

            def tree_flatten(self):
                return (self.x,), None

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)


        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class Updates:
            x: jax.Array
            paths: list = dataclasses.field(metadata={"static": True})
        """))
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp

        from model import Box, Updates


        def test_donated():
            box = Box(jnp.ones(3))
            jax.tree.leaves(box)  # the sanitizer compares this flatten's leaves with the next one's
            jax.jit(lambda b: Box(b.x + 1), donate_argnums=0)(box)
            assert box.x.is_deleted()


        def test_filled_while_built():
            updates = Updates(jnp.ones(2), [])
            updates.paths.append("layer")
            jax.tree.leaves(updates)
        """))
    result, rows = sanitized(tmp_path, "test_model.py")
    assert result.returncode == 0 and rows == [], result.stdout[-3000:]


def test_a_jitted_function_traced_again_for_equal_leaves(tmp_path):
    """Each form of jit the project's code writes is watched, jit's cache still hits through the watch, and
    only a retrace that a per-object closure or identity-compared object causes is reported: not one for a
    static value that really changed, nor for a marker with no attributes."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "model.py").write_text(textwrap.dedent("""\
        import dataclasses

        import jax


        class Settings:
            def __init__(self, rate):
                self.rate = rate


        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class Named:
            x: jax.Array
            name: str = dataclasses.field(metadata={"static": True})
            settings: object = dataclasses.field(default=None, metadata={"static": True})
        """))
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""\
        import functools

        import jax
        import jax.numpy as jnp
        from jax import jit

        from model import Named, Settings

        traces = []


        @jax.jit(static_argnames="power")
        def scaled(named, power):
            traces.append(named.name)
            return named.x ** power


        @functools.partial(jit, static_argnums=1)
        def shifted(named, by):
            traces.append(by)
            return named.x + by


        def test_names_that_differ_retrace_rightly():
            first = Named(jnp.ones(2), "a")
            for _ in range(3):
                scaled(first, power=2)
            scaled(Named(jnp.ones(2), "b"), power=2)
            shifted(first, 1)
            shifted(first, 1)
            assert traces == ["a", "b", 1]  # jit's cache hits through the sanitizer's watch


        def test_settings_made_per_object():
            for _ in range(2):
                shifted(Named(jnp.ones(2), "a", Settings(0.1)), 2)


        def test_a_marker_per_object():
            for _ in range(2):
                shifted(Named(jnp.ones(2), "a", object()), 3)
        """))
    result, rows = sanitized(tmp_path, "test_model.py")
    assert [(row["line"], row["code"], row["message"]) for row in rows] == [(
        11, "PTL104", "identity-compared aux_data of `Named`: jit of `shifted` traced again for an object of `Named` "
        "whose leaves equal an earlier one's, its aux_data holding a new `Settings` with the same attributes "
        "(`Settings` has no value equality, so equal ones compare unequal): jit retraces for every new object (seen "
        "in test_model.py::test_settings_made_per_object)")], result.stdout[-3000:]


def test_the_jit_watch_keeps_no_function_alive(tmp_path):
    """A jitted function (and what its closure holds) dies with its last reference under the sanitizer as
    without it: the watch's wrapper lives on the function, not in a table of the sanitizer's."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "test_leak.py").write_text(textwrap.dedent("""\
        import gc
        import weakref

        import jax
        import jax.numpy as jnp


        def make(scale):
            table = jnp.full(1000, scale)

            def apply(x):
                return x * table[0]

            return apply


        def test_functions_die():
            alive = []
            for number in range(20):
                function = make(float(number))
                jax.jit(function)(jnp.ones(2))
                alive.append(weakref.ref(function))
                del function
            gc.collect()
            assert sum(ref() is not None for ref in alive) == 0
        """))
    result, rows = sanitized(tmp_path, "test_leak.py")
    assert result.returncode == 0 and rows == [], result.stdout[-3000:]
