"""PTL301 unflatten-runs-validating-init

What it does:
    Finds an unflatten function (a def, a lambda or a `tree_unflatten` classmethod) that rebuilds the
    object by calling the class, when the class's `__init__` or `__post_init__` raises, asserts, checks
    `.ndim`/`.shape`/`.dtype`/`.size`, or converts with `jnp.asarray`/`np.asarray`/`jnp.array` on an argument
    that receives a child. `register_dataclass` and `flax.struct` classes are rebuilt through `__init__`
    too, so a validating `__post_init__` (or `__init__`) there is reported at its `def`.

Why is this bad:
    JAX calls unflatten with whatever its transformations put in the leaves, not only arrays: None (and
    nested instances) under `jax.jacobian`, ShapeDtypeStructs under `jax.eval_shape`, per-example
    tracers inside `vmap`, `PytreeLeaf()` placeholders when it reports a `vmap` `in_axes` error.
    (`object()` sentinels, which JAX's docs still mention, are gone since jax 0.8.0.) Measured on jax
    0.10.2: a `w.ndim != 2` check
    raises `ValueError: w must be 2-D, got ndim=1` under vmap and `AttributeError: 'NoneType' object has
    no attribute 'ndim'` under jacobian; `jnp.asarray` in `__init__` raises `TypeError: float() argument
    must be a string or a real number, not 'ShapeDtypeStruct'` under eval_shape and silently turns
    `jax.tree.map(lambda x: x.shape, t)` into an array. JAX does not warn.

Example:
    @jax.tree_util.register_pytree_node_class
    class Linear:
        def __init__(self, w):
            if w.ndim != 2:
                raise ValueError("w must be 2-D")
            self.w = w

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)               # PTL301

Use instead:
    Rebuild without running `__init__`, and keep validation in `__init__` or a factory for users:

        @classmethod
        def tree_unflatten(cls, aux, children):
            obj = object.__new__(cls)
            obj.w, = children
            return obj

Known false positives:
    None known. Not reported: `len(child)` and `isinstance(child, SomeModule)` (they hold for a subtree
    child), checks of arguments fed by aux_data, and unflattens that rebuild with `object.__new__`.

Known limits:
    Only constructors written in the module are read; checks of arguments that come from aux_data
    are not reported (aux_data comes back unchanged). Equinox modules are not reported: equinox does not
    run `__init__` or `__check_init__` on unflatten.
"""

from __future__ import annotations

import ast
import os
from dataclasses import replace
from typing import Any

from ...analysis.model import (
    DEFINITIONS,
    FunctionInfo,
    ModuleIndex,
    arguments_in_order,
    child_nodes,
    nodes_of,
    statement_blocks,
)
from ...analysis.record import record
from ...analysis.structure import Constructor, names_in, self_attributes
from ...knowledge.numpy import ARRAY_TYPE_SUFFIXES, CHECKED_ATTRIBUTES, CONVERSIONS, SCALAR_ANNOTATIONS
from ...runtime.observe import Outcome, first_line, jax_module
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule

CONSEQUENCE = ("JAX unflattens with None (jacobian), ShapeDtypeStruct (eval_shape) and per-example tracers "
               "(vmap), so this fails or silently converts; rebuild with `object.__new__` and set the attributes "
               "instead")


def _constructor_frame(error: BaseException) -> str | None:
    """The `__init__`/`__post_init__` outside JAX that an error was raised in, as "name (file:line)"."""
    jax_dir = os.path.dirname(jax_module().__file__)
    import traceback  # here: the static path never needs it

    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.name in ("__init__", "__post_init__") and not frame.filename.startswith(jax_dir):
            return f"{frame.name} ({os.path.basename(frame.filename)}:{frame.lineno})"
    return None


def probe_validating_init(examples: list[Any], target: str | None) -> Outcome:
    jax = jax_module()
    import jax.numpy as jnp

    transformations = {
        "jax.jacobian(lambda t: t)": lambda t: jax.jacobian(lambda x: x)(t),
        "jax.eval_shape(lambda t: t)": lambda t: jax.eval_shape(lambda x: x, t),
        "jax.vmap(lambda t: t) over two stacked examples": lambda t: jax.vmap(lambda x: x)(
            jax.tree.map(lambda *xs: jnp.stack(xs), t, examples[1])),
    }
    for name, transformation in transformations.items():
        try:
            transformation(examples[0])
        except Exception as error:
            frame = _constructor_frame(error)
            if frame is not None:
                return Outcome("confirmed", f"{name} raised, in {frame} run by unflatten, {first_line(error)}")
    return Outcome("unconfirmed", f"{', '.join(transformations)} all rebuilt the example without an error")


class UnflattenRunsValidatingInit(Rule):
    code = "PTL301"
    name = "unflatten-runs-validating-init"
    summary = "unflatten rebuilds the object through a constructor that validates or converts its arguments"
    runtime = ExamplesProbe(probe_validating_init, structural=True)

    def check(self, analysis):
        structure = analysis.structure
        for registration in analysis.registrations:
            cls = registration.cls
            if cls is None:
                continue
            unflatten = structure.unflatten(registration)
            if unflatten is not None:
                count = structure.child_count(registration)
                calls = [] if unflatten.builds_with_new else [
                    (call, cls, arguments_in_order(call)) for call in unflatten.constructor_calls]
                calls += [(init.node, init.cls, init.arguments) for init in unflatten.init_calls]
                for call, built, arguments in calls:
                    constructor = structure.constructor(built)
                    if constructor is None:
                        continue
                    children = self._child_parameters(structure, unflatten, constructor, arguments, count)
                    validation = find_validation(analysis.index, constructor, children)
                    if validation is not None:
                        yield self._report(analysis, call, cls, validation, registration)
                        break
            elif registration.unflatten is None and registration.unflatten_runs:
                constructor = structure.constructor(cls)
                if constructor is None:
                    continue
                if "__init__" not in registration.unflatten_runs:  # built with `__new__`: only `__post_init__`
                    constructor = replace(constructor, init=None)
                static = {field.name for field in registration.static_fields}
                children = {p.name for p in constructor.parameters if p.name not in static}
                validation = find_validation(analysis.index, constructor, children)
                if validation is not None:  # no unflatten of the user's: report the method to change
                    yield self._report(analysis, validation.method.node, cls, validation, registration)

    @staticmethod
    def _child_parameters(structure, unflatten, constructor, arguments, count: int | None) -> set[str]:
        """The parameters a constructor call fills with the children themselves (`children[0]`, a name
        unpacked from them, `*children` when flatten's child count is known). A value computed from a
        child (`len(xs)`) is not one, and positions behind a star argument of unknown length are unknown."""
        parameters = constructor.parameters
        found, position = set(), 0
        for argument in arguments:
            if isinstance(argument, ast.keyword):
                if argument.arg is not None and structure.child_read(unflatten, argument.value) is not None:
                    found.add(argument.arg)
                elif argument.arg is None:
                    break
            elif isinstance(argument, ast.Starred):
                if not (structure.is_children(unflatten, argument.value) and count is not None):
                    break
                found.update(p.name for p in parameters[position:position + count])
                position += count
            else:
                if position < len(parameters) and structure.child_read(unflatten, argument) is not None:
                    found.add(parameters[position].name)
                position += 1
        return found

    @staticmethod
    def _report(analysis, node, cls, validation, registration) -> Report:
        owner = validation.method.cls.name if validation.method.cls is not None else cls.name
        method = f"{owner}.{validation.method.name}"
        return Report(node, f"unflatten rebuilds `{cls.name}` through `{method}`, which {validation.what} "
                            f"({analysis.located(validation.node)}): {CONSEQUENCE}",
                      target=registration.target)


VALUE_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq, ast.Is, ast.IsNot)


@record
class Validation:
    """A statement of a constructor that fails on the leaves JAX passes to unflatten."""

    method: FunctionInfo
    node: ast.AST  # the test, assertion or conversion
    what: str  # "raises", "asserts", "checks `.ndim`", "converts with `jnp.asarray`"


def _is_compound(statement: ast.stmt) -> bool:
    return hasattr(statement, "body") or isinstance(statement, ast.Match)


def guarded_statements(function: FunctionInfo):
    """(statement, the if/while tests around it) for each statement of a body, nested blocks included."""
    def walk(block: list[ast.stmt], tests: tuple):
        for statement in block:
            if isinstance(statement, DEFINITIONS):
                continue
            yield statement, tests
            inner = (*tests, statement.test) if isinstance(statement, (ast.If, ast.While)) else tests
            for nested in statement_blocks(statement):
                yield from walk(nested, inner)

    if not function.is_lambda:
        yield from walk(function.node.body, ())


def find_validation(index: ModuleIndex, constructor: Constructor, child_parameters: set[str]) -> Validation | None:
    """The first check or conversion `__init__` / `__post_init__` applies to a parameter (or the attribute
    it fills) that receives a child. Only what fails on a leaf that is not a concrete array counts: its
    `.ndim`/`.shape`/`.dtype`/`.size`, an `isinstance` against an array or number type, a value comparison,
    a conversion. `len(child)` and `isinstance(child, SomeModule)` hold for a subtree child, and checks of
    aux-fed parameters are fine: aux_data comes back as is."""
    attributes = {p.attribute for p in constructor.parameters if p.name in child_parameters and p.attribute}
    for method, names in ((constructor.init, child_parameters), (constructor.post_init, set())):
        if method is None or method.self_name is None:
            continue
        self_name = method.self_name

        # The closures below are called in this iteration only: they see this iteration's names.
        def is_child(node: ast.AST) -> bool:
            return (isinstance(node, ast.Name) and node.id in names) or (  # noqa: B023
                isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == self_name and node.attr in attributes)  # noqa: B023

        def mentions(node: ast.AST) -> bool:
            return bool(names_in(node) & names or self_attributes(node, self_name) & attributes)  # noqa: B023

        def leaf_check(test: ast.AST) -> str | None:
            """What in a test fails on a leaf that is None, a ShapeDtypeStruct or a placeholder."""
            pending = [test]
            while pending:
                node = pending.pop()
                if isinstance(node, ast.Attribute) and node.attr in CHECKED_ATTRIBUTES and is_child(node.value):
                    return f"checks `.{node.attr}`"
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
                    continue
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                    if len(node.args) == 2 and is_child(node.args[0]) and _array_types(index, node.args[1]):
                        return "checks `isinstance`"
                    continue
                if isinstance(node, ast.Compare) and any(isinstance(op, VALUE_COMPARISONS) for op in node.ops):
                    if any(mentions(o) and not _only_in_len(o) for o in (node.left, *node.comparators)):
                        return "compares values"
                pending.extend(child_nodes(node))
            return None

        for statement, tests in guarded_statements(method):
            if isinstance(statement, ast.Raise):
                guard = next(((t, check) for t in tests if (check := leaf_check(t))), None)
                if guard is not None:
                    return Validation(method, guard[0], f"raises when it {guard[1]}")
            if isinstance(statement, ast.Assert) and (check := leaf_check(statement.test)):
                return Validation(method, statement.test, f"asserts and {check}")
            if isinstance(statement, (ast.If, ast.While)):
                attribute = next((n for n in nodes_of(statement.test, ast.Attribute)
                                  if n.attr in CHECKED_ATTRIBUTES and is_child(n.value)), None)
                if attribute is not None:
                    return Validation(method, statement.test, f"checks `.{attribute.attr}`")
                continue
            if _is_compound(statement):
                continue
            for call in nodes_of(statement, ast.Call):
                if index.qualify(call.func) in CONVERSIONS and any(
                        mentions(a) for a in [*call.args, *(k.value for k in call.keywords)]):
                    return Validation(method, call, f"converts with `{index.code(call.func)}`")
    return None


def _only_in_len(operand: ast.expr) -> bool:
    return isinstance(operand, ast.Call) and isinstance(operand.func, ast.Name) and operand.func.id == "len"


def _array_types(index: ModuleIndex, types: ast.expr) -> bool:
    """An isinstance type (or tuple of types) that a None, ShapeDtypeStruct or placeholder leaf fails."""
    candidates = types.elts if isinstance(types, ast.Tuple) else [types]
    for candidate in candidates:
        name = index.qualify(candidate) or (candidate.id if isinstance(candidate, ast.Name) else "")
        if name in SCALAR_ANNOTATIONS or name.endswith(ARRAY_TYPE_SUFFIXES):
            return True
    return False
