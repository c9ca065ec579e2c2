"""PTL404 static-config-as-child

What it does:
    Finds a pytree child (an attribute a flatten function returns among the children, or a non-static
    field of a dataclass-style registration) that the class's own methods use as static configuration:
    in `range(self.n)`, as a shape or size (`jnp.zeros((self.n, 3))`, `x.reshape(self.n, -1)`,
    `jnp.arange(self.n)`), or in a Python `if`/`while` test that compares it (`if self.n > 3:`).
    Arithmetic, locals and the helpers and methods that return a size or shape are followed
    (`range(self.n - 1)`, `n = self.n`, `jnp.zeros(self._padding(n))`).

Why is this bad:
    Children are traced: inside jit, vmap or grad the method sees a tracer, not the int (measured, jax
    0.10.2): `range(self.n)` raises `TracerIntegerConversionError: The __index__() method was called on
    traced array`; `jnp.zeros(self.n)` raises `TypeError: Shapes must be 1D sequences of concrete values
    of integer type`; `jnp.arange(self.n)` raises `ConcretizationTypeError`; `if self.n > 3:` raises
    `TracerBoolConversionError`. grad over such an object fails too (`grad requires real- or
    complex-valued inputs`).

Example:
    def flatten(lf):
        return (lf.step_size, lf.num_steps), None    # PTL404: num_steps is configuration

    class Leapfrog:
        def integrate(self, q, p):
            for _ in range(self.num_steps):           # a tracer under jit
                ...

Use instead:
    Put it in aux_data (`return (lf.step_size,), lf.num_steps`) or declare the field static
    (`field(metadata=dict(static=True))`, `struct.field(pytree_node=False)`); or use `jax.lax.fori_loop`
    if it really must be traced.

Known false positives:
    None known. Not reported: bare truth tests (`if self.mask:`), uses through `.shape`, `len()` or an
    index, constructors and printing methods, library dataclasses (flax.struct, netket, chex, equinox),
    whose float children are state as often as configuration, and a class with another child that jit,
    vmap and grad reject (a str or a function: PTL401's), which never reaches them traced (jax_scm's
    `Simulation`, used eagerly).

Known limits:
    Only the class's own methods (and its bases in the module) are read, not functions that receive an
    instance; constructors and printing methods are skipped, since they run on concrete values. A bare
    truth test (`if self.flag:`) is not reported: the child may be a container or None. Only classes
    registered through jax.tree_util (register_pytree_node*, register_dataclass, ...) are checked: a
    flax.struct, netket or chex dataclass is a pytree by idiom, often never traced, and its float children
    are state as often as configuration (on flax's EarlyStopping and netket's groups and timers, reporting
    them cried wolf). Equinox modules are exempt too: their filter transformations keep non-array leaves
    static.
"""

from __future__ import annotations

import ast

from ...analysis.record import record
from ...analysis.syntax.model import ClassInfo, FunctionInfo, ModuleIndex, nodes_of, shape_arguments, written_as
from ...knowledge.jax import SHAPE_ERROR
from ...knowledge.python import NOT_TRACED_METHODS
from ...knowledge.triggers import REGISTRATION_TRIGGERS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule

ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
EQUALITIES = (ast.Eq, ast.NotEq)


@record
class ConfigurationUse:
    attribute: str
    method: FunctionInfo
    node: ast.AST  # the `range(...)` call, the shape-taking call, or the test
    symptom: str  # the error a tracer raises there


class ConfigurationUses:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._by_class: dict[int, list[ConfigurationUse]] = {}

    def of(self, cls: ClassInfo) -> list[ConfigurationUse]:
        """Every configuration use in the methods of `cls` and of its bases in this module."""
        if id(cls) not in self._by_class:
            self._by_class[id(cls)] = [use for owner in self.index.class_and_bases(cls)
                                       for method in owner.methods.values() if method.name not in NOT_TRACED_METHODS
                                       for use in self._in_method(method)]
        return self._by_class[id(cls)]

    def _in_method(self, method: FunctionInfo) -> list[ConfigurationUse]:
        instance = method.self_name
        if instance is None or method.is_lambda:
            return []
        found = []

        def record(node: ast.AST, expressions, symptom: str) -> None:
            for expression in expressions:
                found.extend(ConfigurationUse(attribute, method, node, symptom)
                             for attribute in self._attributes(expression, instance, method))

        builtin_range = self.index.is_builtin("range", method)
        for node in self._uses(method):
            if not isinstance(node, ast.Call):
                record(node.test, self._compared(node.test), "`TracerBoolConversionError`")
            elif isinstance(node.func, ast.Name) and node.func.id == "range" and builtin_range:
                record(node, [a.value if isinstance(a, ast.Starred) else a for a in node.args]
                       + [k.value for k in node.keywords], "`TracerIntegerConversionError`")
            else:
                shape = self._shape_arguments(node, method)
                if shape is not None:
                    record(node, shape[0], shape[1])
        return found

    def _uses(self, method: FunctionInfo) -> list[ast.AST]:
        """The calls and tests of a method, and those of the helpers, methods and properties it calls whose
        body returns one expression, written at the call (their parameters are the call's arguments)."""
        found = []
        for node in method.nodes(ast.Call, ast.If, ast.While, ast.IfExp, ast.Attribute):
            if not isinstance(node, ast.Attribute):
                found.append(node)
            if isinstance(node, (ast.Call, ast.Attribute)):
                written = written_as(node, method, self.index)
                if written is not node:
                    found.extend(nodes_of(written, (ast.Call, ast.IfExp)))
        return found

    def _shape_arguments(self, call: ast.Call, method: FunctionInfo) -> tuple[list[ast.expr], str] | None:
        """The arguments of an array constructor (or `x.reshape(...)`) that take a shape or a size, as they
        are written (a helper's or a method's returned shape, at the call: see written_as)."""
        qualified = self.index.qualify(call.func) or ""
        if isinstance(call.func, ast.Attribute) and call.func.attr == "reshape" and not qualified:
            # `x.reshape(...)`: every argument is shape
            arguments = [a for a in call.args if not isinstance(a, ast.Starred)]
            arguments += [k.value for k in call.keywords if k.arg is not None]
            return _shape_elements(self._written(arguments, method)), SHAPE_ERROR
        taken = shape_arguments(self.index, call)
        if taken is None:
            return None
        arguments, symptom = taken
        return _shape_elements(self._written(arguments, method)), symptom

    def _written(self, arguments: list[ast.expr], method: FunctionInfo) -> list[ast.expr]:
        return [written_as(argument, method, self.index) for argument in arguments]

    def _compared(self, test: ast.expr) -> list[ast.expr]:
        """The operands of the comparisons in a test that need a concrete number: both sides of an
        ordering, the other side of `==`/`!=` against a number; never `is`, `in`, or a str/None literal."""
        if isinstance(test, ast.BoolOp):
            return [operand for value in test.values for operand in self._compared(value)]
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._compared(test.operand)
        if not isinstance(test, ast.Compare):
            return []
        found = []
        left = test.left
        for operator, right in zip(test.ops, test.comparators):
            pair = [left, right]
            if isinstance(operator, ORDERINGS) and not any(_is_text_or_none(side) for side in pair):
                found.extend(pair)
            elif isinstance(operator, EQUALITIES):
                found.extend(side for side, other in (pair, pair[::-1]) if _is_number(other))
            left = right
        return found

    def _attributes(self, expression: ast.expr, instance: str, method: FunctionInfo,
                    through_local: bool = True) -> list[str]:
        """The attributes of `instance` an expression's value is made of by arithmetic."""
        if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
            return [expression.attr] if expression.value.id == instance else []
        if isinstance(expression, ast.BinOp):
            return (self._attributes(expression.left, instance, method, through_local)
                    + self._attributes(expression.right, instance, method, through_local))
        if isinstance(expression, ast.UnaryOp):
            return self._attributes(expression.operand, instance, method, through_local)
        if (isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name)
                and expression.func.id in ("int", "float", "bool", "abs")
                and len(expression.args) + len(expression.keywords) == 1 and expression.args):
            return self._attributes(expression.args[0], instance, method, through_local)
        if isinstance(expression, ast.Call) and (written := written_as(expression, method, self.index)) \
                is not expression:  # a helper's or a method's returned expression of the call's arguments
            return self._attributes(written, instance, method, through_local)
        if isinstance(expression, ast.Name) and through_local:
            bound = method.local_bindings.get(expression.id, [])
            if len(bound) == 1 and isinstance(bound[0], ast.expr):
                return self._attributes(bound[0], instance, method, through_local=False)
        return []


def _shape_elements(arguments: list[ast.expr]) -> list[ast.expr]:
    """A shape's sizes: the elements of a tuple or list display, or the argument itself."""
    found = []
    for argument in arguments:
        if isinstance(argument, (ast.Tuple, ast.List)):
            found.extend(e for e in argument.elts if not isinstance(e, ast.Starred))
        else:
            found.append(argument)
    return found


def _is_text_or_none(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, bytes))))


def _is_number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


class StaticConfigAsChild(Rule):
    code = "PTL404"
    name = "static-config-as-child"
    summary = "a child is used as static configuration (`range()`, a shape, a Python `if`) in the class's methods"
    runtime = ReproduceProbe(("ConcretizationTypeError", "TracerIntegerConversionError",
                              "Shapes must be 1D sequences of concrete values"), where="method")
    triggers = REGISTRATION_TRIGGERS

    def check(self, analysis):
        uses = ConfigurationUses(analysis.index)
        reported = set()
        # A class with a child jit, vmap and grad reject (a str, a function) never reaches them traced.
        untraced = {id(site.registration.cls) for site in analysis.child_sites
                    if site.registration.cls is not None and any(e.proves_leaf for e in site.evidence)}
        for child in analysis.child_attributes:
            cls = child.registration.cls
            if cls is None or not child.registration.through_jax or (id(cls), child.attribute) in reported \
                    or id(cls) in untraced:
                continue
            use = next((u for u in uses.of(cls) if u.attribute == child.attribute), None)
            if use is None:
                continue
            reported.add((id(cls), child.attribute))
            yield Report(child.report_node,
                         f"`{child.attribute}` is a child of `{cls.name}`, but `{use.method.cls.name}."
                         f"{use.method.name}` uses it as static configuration ({analysis.located(use.node)}): "
                         f"under jit, vmap or grad it is a tracer and this raises {use.symptom} (put it in "
                         "aux_data or make the field static)", target=cls.name)
