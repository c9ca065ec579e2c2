"""Focused cases for the analysis layer: aliases, registration forms, dataflow, annotations, odd code."""

from __future__ import annotations

import textwrap

import pytest

from pytree_lint import lint_source
from pytree_lint.config import Config

# Containers that nothing changes are PTL901 (opt-in): these cases follow values, so every rule is on.
EVERY_RULE = Config(extend_select=("PTL9",))


def codes(source: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(textwrap.dedent(source), config=EVERY_RULE)]


CLASS_WITH_TABLE = """
    class Box:
        def __init__(self, x):
            self.x = x
            self.table = np.arange(3)
"""


@pytest.mark.parametrize("imports, call", [
    ("import jax", "jax.tree_util.register_pytree_node"),
    ("import jax.tree_util as jtu", "jtu.register_pytree_node"),
    ("from jax import tree_util as tu", "tu.register_pytree_node"),
    ("from jax.tree_util import register_pytree_node as reg", "reg"),
    ("from jax.tree_util import *", "register_pytree_node"),
    ("import jax._src.tree_util as private", "private.register_pytree_node"),
    ("import jax.tree_util as jtu; register = jtu.register_pytree_node", "register"),
])
def test_registration_through_every_import_form(imports, call):
    source = f"""
        {imports}
        import numpy as np
        {textwrap.indent(textwrap.dedent(CLASS_WITH_TABLE), "        ").strip()}
        {call}(Box, lambda b: ((b.x,), b.table), lambda a, c: Box(*c))
    """
    assert [code for _, code in codes(source)] == ["PTL101"]


def test_keyword_arguments_and_call_form_of_the_class_decorator():
    source = """
        import jax
        import numpy as np

        class Box:
            def __init__(self, x):
                self.x = x
                self.table = np.arange(3)
                self.sizes = [1]

            def tree_flatten(self):
                return (self.x,), self.table

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)

        Box = jax.tree_util.register_pytree_node_class(Box)

        class Other(Box):
            pass

        jax.tree_util.register_pytree_node(
            unflatten_func=lambda a, c: Other(*c), flatten_func=lambda o: ((o.x,), o.sizes), nodetype=Other)
    """
    assert codes(source) == [(12, "PTL101"), (24, "PTL901")]


def test_relative_imports_and_project_modules_are_not_jax():
    source = """
        from . import tree_util
        from .tree_util import register_pytree_node
        import numpy as np

        class Box:
            def __init__(self):
                self.table = np.arange(3)

        tree_util.register_pytree_node(Box, lambda b: ((), b.table), None)
        register_pytree_node(Box, lambda b: ((), b.table), None)
    """
    assert codes(source) == []


def test_a_list_converted_before_the_method_ends_is_a_tuple():
    source = """
        import jax

        @jax.tree_util.register_pytree_node_class
        class Net:
            def __init__(self, sizes):
                self.sizes = []
                for size in sizes:
                    self.sizes.append(size)
                self.sizes = tuple(self.sizes)

            def tree_flatten(self):
                aux = []
                aux.append(self.sizes)
                aux = tuple(aux)
                return (), aux
    """
    assert codes(source) == []


def test_a_conditional_reassignment_keeps_both_values():
    source = """
        import jax
        import numpy as np

        @jax.tree_util.register_pytree_node_class
        class Net:
            def __init__(self, table, frozen):
                self.table = tuple(table)
                if not frozen:
                    self.table = np.asarray(table)

            def tree_flatten(self):
                return (), self.table
    """
    assert codes(source) == [(13, "PTL101")]


def test_module_level_values():
    source = """
        import jax
        import numpy as np

        TABLE = np.arange(3)
        LAYERS = [1, 2]

        @jax.tree_util.register_pytree_node_class
        class Net:
            def __init__(self):
                self.table = TABLE
                self.layers = LAYERS

            def tree_flatten(self):
                return (), (self.table, self.layers)
    """
    # One module-level array is the same object on every flatten (JAX's identity shortcut passes it);
    # a module-level list can still be mutated under jit's cache.
    assert codes(source) == [(15, "PTL901")]


@pytest.mark.parametrize("annotation, expected", [
    ("jax.Array", ["PTL101"]),
    ("Optional[jax.Array]", ["PTL101"]),
    ("jax.Array | None", ["PTL101"]),
    ("'jax.Array'", ["PTL101"]),
    ("np.ndarray", ["PTL101"]),
    ("Float[Array, 'n m']", ["PTL101"]),
    ("tuple[jax.Array, ...]", ["PTL101"]),
    ("int | jax.Array", []),
    ("str | jax.Array | None", []),
    ("Union[int, jax.Array]", []),
    ("tuple[int, ...]", []),
    ("HashableArray", []),
    ("list[int]", ["PTL901"]),
    ("Dict[str, int]", ["PTL901"]),
])
def test_annotations_as_the_only_evidence(annotation, expected):
    source = f"""
        from typing import Dict, Optional, Union
        from dataclasses import dataclass, field
        import jax
        import numpy as np
        from jaxtyping import Array, Float

        class HashableArray:
            def __eq__(self, other):
                return np.array_equal(self.v, other.v)

        @jax.tree_util.register_dataclass
        @dataclass
        class Params:
            w: jax.Array
            meta: {annotation} = field(default=None, metadata=dict(static=True))
    """
    assert [code for _, code in codes(source)] == expected


def test_attributes_of_base_classes_and_setattr():
    source = """
        import jax
        import jax.numpy as jnp

        class Base:
            def __init__(self):
                setattr(self, "grid", jnp.linspace(0, 1, 5))

        @jax.tree_util.register_pytree_node_class
        class Child(Base):
            def tree_flatten(self):
                return (), self.grid
    """
    assert codes(source) == [(12, "PTL101")]


def test_odd_code_does_not_crash():
    source = """
        import jax
        from jax.tree_util import register_pytree_node

        LAYERS = [1]

        class A(B): pass
        class B(A): pass

        @jax.tree_util.register_pytree_node_class
        class Loop(A):
            def __init__(self):
                self.a = self.a
                self.b = self.c
                self.c = self.b

            def tree_flatten(self):
                return (), (self.a, self.b, A())

        register_pytree_node(*SPEC)
        register_pytree_node(**SPEC)
        register_pytree_node()
        register_pytree_node(Loop, make_flatten(), lambda: None)
        register_pytree_node(Loop, lambda: (), lambda: None)
        register_pytree_node(Loop, lambda x: x, lambda: None)

        def nested():
            @jax.tree_util.register_pytree_node_class
            class Inner:
                def tree_flatten(self):
                    return (), LAYERS
            match Inner:
                case _:
                    pass
    """
    assert codes(source) == [(31, "PTL901")]


def test_files_without_registrations_are_not_parsed():
    assert lint_source("this is not python at all (") == []


def test_columns_count_characters_where_ast_counts_bytes():
    """`ast` gives UTF-8 byte offsets; findings, fixes and editors count characters (as libcst does)."""
    from conftest import MISUSE_MODULE

    source = MISUSE_MODULE.replace("        return (self.x,), (self.table, self.sizes)",
                                   '        étiquette = "ñ"; return (self.x,), (self.table, self.sizes)')
    line = source.splitlines()[12]
    found = {f.code: line[f.column:f.end_column] for f in lint_source(source, fixes=True) if f.line == 13}
    assert found == {"PTL101": "self.table", "PTL102": "self.sizes"}


def test_a_quoted_expression_over_several_lines_leaves_out_its_comments():
    source = textwrap.dedent("""\
        import jax


        @jax.tree_util.register_pytree_node_class
        class MLP:
            def __init__(self, weights, sizes):
                self.weights = weights
                self.sizes = list(sizes)

            def add_layer(self, size):
                self.sizes.append(size)

            def tree_flatten(self):
                held = (self.sizes,  # the widths, "#" kept in a string: "a#b"
                        len("a#b"))
                return (self.weights,), held

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(children[0], aux[0])
        """)
    [finding] = lint_source(source)
    assert (finding.code, finding.line, finding.column) == ("PTL102", 16, 32)
    assert finding.message == ('mutable `list` in aux_data of `MLP`: `held` is assigned `(self.sizes, len("a#b"))` at '
                               "line 14, `self.sizes` is assigned `list(sizes)` at line 8; `self.sizes.append(size)` "
                               "at line 11 changes it in place, and jit caches the compiled call under this object, so "
                               "the calls after that change silently return stale results (use a tuple)")


def test_only_assignments_before_a_use_reach_it():
    source = """
        import jax
        import jax.numpy as jnp

        @jax.tree_util.register_pytree_node_class
        class Sampler:
            def __init__(self, betas):
                if isinstance(betas, str):
                    kind = betas[:3]
                    betas = None
                else:
                    betas = jnp.asarray(betas)
                    kind = "custom"
                self.kind = kind
                self.betas = betas

            def tree_flatten(self):
                return (self.betas,), self.kind
    """
    assert codes(source) == []


def test_decorators_stacked_in_any_order():
    source = """
        import dataclasses
        import functools
        import jax
        import numpy as np

        def traced(cls):
            return cls

        @traced
        @jax.tree_util.register_dataclass
        @traced
        @dataclasses.dataclass(frozen=True)
        class A:
            x: jax.Array
            table: np.ndarray = dataclasses.field(metadata=dict(static=True))

        @dataclasses.dataclass
        @functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["names"])
        @traced
        class B:
            x: jax.Array
            names: list
    """
    assert codes(source) == [(16, "PTL101"), (23, "PTL901")]


def test_values_given_by_module_level_constructor_calls():
    source = """
        import jax
        import jax.numpy as jnp
        from jax.tree_util import register_pytree_node_class

        @register_pytree_node_class
        class Simple:
            def __init__(self, x, y):
                self.x = x
                self.y = y

            def tree_flatten(self):
                return (self.y,), (self.x,)

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(aux[0], children[0])

        a = Simple(x=(1, 2), y=jnp.ones(4))
    """
    assert codes(source) == []
    second = "\n        b = Simple(jnp.array([1, 2]), jnp.ones(4))"
    with_array = source.replace("a = Simple(x=(1, 2), y=jnp.ones(4))", "a = Simple(x=(1, 2), y=jnp.ones(4))" + second)
    assert codes(with_array) == [(13, "PTL101")]  # the flatten's return
    # Built by a function: each call makes a new array, as when another module's function builds it.
    in_function = source + "\n        def build():\n            return Simple(jnp.zeros(3), 1.0)\n"
    assert codes(in_function) == [(13, "PTL101")]


@pytest.mark.parametrize("header, aux, expected", [
    # A star import does not make builtins library functions.
    ("from jax.numpy import *", "(int(self.x.shape[0]), tuple(self.sizes), str(self.x.dtype))", []),
    ("from jax.tree_util import *", "(self.sizes, id(self))", ["PTL901", "PTL103"]),
    # NumPy reductions without an axis are NumPy scalars; with one they are arrays.
    ("import numpy as np", "(np.max(np.abs(self.w)), np.count_nonzero(self.w))", []),
    ("import numpy as np", "(np.max(self.w, axis=0),)", ["PTL101"]),
    # A copy is what it copies.
    ("import copy", "(copy.deepcopy(self.shape), copy.copy(self.sizes))", ["PTL901"]),
    # Conversions keep what makes a value volatile, and tuples keep their arrays.
    ("import uuid, time", "(str(uuid.uuid4()), f'layer-{id(self)}', int(time.time()))",
     ["PTL103", "PTL103", "PTL103"]),
    ("import numpy as np", "(tuple(np.asarray(v) for v in self.sizes),)", ["PTL101"]),
])
def test_values_inside_conversions_and_star_imports(header, aux, expected):
    source = f"""
        import jax
        {header}

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self, x):
                self.x = x
                self.w = x * 2
                self.sizes = list((1, 2))  # the builtin `list`, whatever a star import brings
                self.shape = (1, 2)

            def tree_flatten(self):
                return (self.x,), {aux}
    """
    source = source.replace("self.w = x * 2", "self.w = np.ones(3)") if "numpy" in header else source
    assert [code for _, code in codes(source)] == expected


def test_lines_are_counted_as_python_counts_them():
    source = "import jax\nimport numpy as np\nSEP = '\u2028'\n\x0c\n" + textwrap.dedent("""\
        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self):
                self.table = np.arange(3)

            def tree_flatten(self):
                return (), self.table
        """)
    assert [(f.line, f.code) for f in lint_source(source)] == [(11, "PTL101")]


def test_array_equality_in_static_and_isinstance_guarded_eq():
    source = """
        import jax
        import numpy as np

        @jax.tree_util.register_static
        class Table:
            def __init__(self, values):
                self.values = np.asarray(values)

            def __eq__(self, other):
                return isinstance(other, Table) and self.values == other.values

            def __hash__(self):
                return 0
    """
    assert codes(source) == [(11, "PTL105")]


def test_flatten_lambda_delegating_to_a_method():
    source = """
        import jax
        import numpy as np

        class Box:
            def __init__(self):
                self.table = np.arange(3)

            def tree_flatten(self):
                return (), self.table

        jax.tree_util.register_pytree_node(Box, lambda b: b.tree_flatten(), lambda aux, ch: Box())
    """
    assert codes(source) == [(10, "PTL101")]


REBUILT_THEN_FILLED = '''
import jax


@jax.tree_util.register_pytree_node_class
class Graph:
    def __init__(self, weights, edges):
        self.weights = weights
        self.edges = tuple(edges)
        self.incoming = {}

    def finalize(self):
        self.incoming = {}
        for i, (source, target) in enumerate(self.edges):
            self.incoming[target] = self.incoming.get(target, ()) + (i,)

    def tree_flatten(self):
        return (self.weights,), (self.edges, self.incoming)

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.weights, = children
        obj.edges, obj.incoming = aux
        return obj
'''


def test_a_method_that_rebuilds_a_container_and_fills_it_does_not_change_one_jit_saw():
    """nnx-ppo's PopulationGraph.finalize: `self.incoming = {}` then filled is a new object, not a change
    (PTL901 advice, not PTL102)."""
    codes = [f.code for f in lint_source(REBUILT_THEN_FILLED, "graph.py", Config(extend_select=("PTL9",)))]
    assert codes == ["PTL901"]


def test_a_long_chain_of_helpers_with_several_returns_is_followed_once_each():
    """Each helper returns one of three calls of the one before: 3**60 paths, one summary per helper (before
    summaries were kept, a chain like this one in scikit-hep/awkward ran for over 15 minutes)."""
    helpers = "".join(f"""
        def step{i}(x):
            if x > 0:
                return step{i - 1}(x)
            if x < 0:
                return step{i - 1}(-x)
            return step{i - 1}(x + 1)
        """ for i in range(1, 61))
    source = textwrap.dedent("""
        import jax
        import jax.numpy as jnp

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self, x, meta):
                self.x = x
                self.meta = meta

            def tree_flatten(self):
                return (self.x,), self.meta

            @classmethod
            def tree_unflatten(cls, meta, children):
                return cls(*children, meta)

        def step0(x):
            return jnp.zeros(3) + x
        """) + textwrap.dedent(helpers) + "\nBOX = Box(jnp.ones(2), step60(1))\n"
    [finding] = lint_source(source)
    assert (finding.code, finding.line, finding.column) == ("PTL101", 12, 26)
    # The message spells out the two ends of the way and counts the steps between.
    assert finding.message == (
        "array in aux_data of `Box`: `self.meta` is assigned `meta` at line 9, `meta` is given `step60(1)` at "
        "line 441, which returns `step59(x)` at line 436, which returns `step58(x)` at line 429, which returns "
        "`step57(x)` at line 422, which returns `step56(x)` at line 415, then 56 more steps, which returns "
        "`jnp.zeros(3) + x` at line 19; JAX compares aux_data with `==`, so the first jitted call with a new, equal "
        "array raises `ValueError: Exception raised while checking equality of metadata fields of pytree`")


def test_the_prefilter_keeps_the_rules_one_of_whose_words_a_file_spells():
    """The prefilter searches each family of words only until one is found, and only the words holding no
    other of the family's: it keeps exactly the rules one of whose words (and, for a rule that requires one,
    one of those) the file spells, on every fixture and with no word at all."""
    from pathlib import Path

    from pytree_lint.config import DEFAULT_CONFIG
    from pytree_lint.engine import load_analysis, prefilter, selected_rules

    load_analysis()
    rules = selected_rules(DEFAULT_CONFIG)
    texts = [path.read_text() for path in sorted((Path(__file__).parent / "fixtures").rglob("*.py"))]
    texts += ["", "x = jax.tree_util.tree_map_with_path(f, t)", "@register_pytree_node_class\nclass A: pass"]
    for text in texts:
        spelled = [rule for rule in rules if any(word in text for word in rule.triggers)
                   and (not rule.requires or any(word in text for word in rule.requires))]
        assert prefilter(text, rules, DEFAULT_CONFIG) == spelled


@pytest.mark.parametrize(("body", "inlined"), [
    ("widths = [(1, 1)]\n    return build(widths)", "build([(1, 1)])"),
    ("first = [1]\n    second = wrap(first)\n    return build(second)", "build(wrap([1]))"),
    ('"""Doc."""\n    from .m import build\n    widths = [1]\n    return build(widths)', "build([1])"),
    ("widths = [1]\n    return widths, widths", None),  # read twice: its one object would become two
    ("widths = sizes\n    sizes = [1]\n    return widths", None),  # read before it is bound
    ("widths = [1]\n    widths.append(2)\n    return widths", None),  # a statement that is no binding
    ("widths = [1]\n    return [w for w in widths]", None),  # read in a scope of its own
])
def test_a_body_that_binds_locals_read_once_is_inlined_as_its_return(body, inlined):
    """What a summary inlines at other modules' calls (Inline): the return with the locals written in."""
    import ast

    from pytree_lint.analysis.syntax.model import FunctionInfo, returned_with_locals

    written = returned_with_locals(FunctionInfo(ast.parse(f"def made():\n    {body}\n").body[0]))
    assert (ast.unparse(written) if written is not None else None) == inlined
