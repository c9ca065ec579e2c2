"""Where a class's methods use an attribute as static configuration: a value that must be a concrete
Python int or bool when the method runs, so that a tracer in its place raises.

Three uses (measured, jax 0.10.2, the attribute a traced int): `range(self.n)` raises
`TracerIntegerConversionError`; a shape (`jnp.zeros((self.n, 3))`, `x.reshape(self.n, -1)`,
`jax.random.normal(key, (self.n,))`) raises `TypeError: Shapes must be 1D sequences of concrete values of
integer type` (`jnp.arange(self.n)`, `jnp.linspace(0, 1, self.n)`: `ConcretizationTypeError`); an
`if`/`while`/conditional-expression test comparing it (`if self.n > 3`, `while i < self.n`) raises
`TracerBoolConversionError`. The attribute counts when it is the value itself or an operand of arithmetic
(`self.n - 1`, `int(self.n)`, a local `n = self.n`), never through `.shape`, `len()` or an index. A bare
truth test (`if self.mask:`) is not a use: the attribute may be a container or None, which is fine.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .index import ClassInfo, FunctionInfo, ModuleIndex, nodes_of
from .values import ValueInference

SHAPE_ERROR = "`TypeError: Shapes must be 1D sequences of concrete values of integer type`"
CONCRETIZATION = "`ConcretizationTypeError`"
# Array constructors by short name: the positions and keywords that take a shape or a size, and the error.
SHAPE_PARAMETERS: dict[str, tuple[tuple[int, ...], tuple[str, ...], str]] = {
    "zeros": ((0,), ("shape",), SHAPE_ERROR),
    "ones": ((0,), ("shape",), SHAPE_ERROR),
    "empty": ((0,), ("shape",), SHAPE_ERROR),
    "full": ((0,), ("shape",), SHAPE_ERROR),
    "eye": ((0, 1), ("N", "M"), SHAPE_ERROR),
    "identity": ((0,), ("n",), SHAPE_ERROR),
    "broadcast_to": ((1,), ("shape",), SHAPE_ERROR),
    "reshape": ((1,), ("shape", "newshape"), SHAPE_ERROR),
    "arange": ((0, 1, 2), ("start", "stop", "step"), CONCRETIZATION),
    "linspace": ((2,), ("num",), CONCRETIZATION),
    "normal": ((1,), ("shape",), SHAPE_ERROR),
    "uniform": ((1,), ("shape",), SHAPE_ERROR),
}
ARRAY_MODULES = ("jax.numpy.", "numpy.", "jax.random.")
ORDERINGS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
EQUALITIES = (cst.Equal, cst.NotEqual)
# Methods that do not run on the leaves of a transformed instance: construction, printing, hashing.
NOT_TRACED = frozenset({"__init__", "__post_init__", "__new__", "__repr__", "__str__", "__format__", "__hash__",
                        "__eq__", "__ne__", "__getstate__", "__setstate__", "__reduce__", "__del__",
                        "tree_flatten", "tree_unflatten", "tree_flatten_with_keys"})


@dataclass(eq=False)
class ConfigurationUse:
    attribute: str
    method: FunctionInfo
    node: cst.CSTNode  # the `range(...)` call, the shape-taking call, or the test
    symptom: str  # the error a tracer raises there


class ConfigurationUses:
    def __init__(self, index: ModuleIndex, inference: ValueInference) -> None:
        self.index = index
        self.inference = inference
        self._by_class: dict[int, list[ConfigurationUse]] = {}

    def of(self, cls: ClassInfo) -> list[ConfigurationUse]:
        """Every configuration use in the methods of `cls` and of its bases in this module."""
        if id(cls) not in self._by_class:
            self._by_class[id(cls)] = [use for owner in self.index.class_and_bases(cls)
                                       for method in owner.methods.values() if method.name not in NOT_TRACED
                                       for use in self._in_method(method)]
        return self._by_class[id(cls)]

    def _in_method(self, method: FunctionInfo) -> list[ConfigurationUse]:
        instance = method.self_name
        if instance is None or not isinstance(method.node, cst.FunctionDef):
            return []
        found = []

        def record(node: cst.CSTNode, expressions, symptom: str) -> None:
            for expression in expressions:
                found.extend(ConfigurationUse(attribute, method, node, symptom)
                             for attribute in self._attributes(expression, instance, method))

        builtin_range = self.index.is_builtin("range", method)
        for node in nodes_of(method.node.body, (cst.Call, cst.If, cst.While, cst.IfExp)):
            if not isinstance(node, cst.Call):
                record(node.test, self._compared(node.test), "`TracerBoolConversionError`")
            elif isinstance(node.func, cst.Name) and node.func.value == "range" and builtin_range:
                record(node, [a.value for a in node.args], "`TracerIntegerConversionError`")
            else:
                shape = self._shape_arguments(node)
                if shape is not None:
                    record(node, shape[0], shape[1])
        return found

    def _shape_arguments(self, call: cst.Call) -> tuple[list[cst.BaseExpression], str] | None:
        """The arguments of an array constructor (or `x.reshape(...)`) that take a shape or a size."""
        qualified = self.index.qualify(call.func) or ""
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "reshape" and not qualified:
            arguments = [a.value for a in call.args if not a.star]  # `x.reshape(...)`: every argument is shape
            return _shape_elements(arguments), SHAPE_ERROR
        if not qualified.startswith(ARRAY_MODULES):
            return None
        parameters = SHAPE_PARAMETERS.get(qualified.rsplit(".", 1)[-1])
        if parameters is None:
            return None
        positions, keywords, symptom = parameters
        arguments = [a.value for position, a in enumerate(a for a in call.args if a.keyword is None)
                     if position in positions]
        arguments += [a.value for a in call.args if a.keyword is not None and a.keyword.value in keywords]
        return _shape_elements(arguments), symptom

    def _compared(self, test: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The operands of the comparisons in a test that need a concrete number: both sides of an
        ordering, the other side of `==`/`!=` against a number; never `is`, `in`, or a str/None literal."""
        if isinstance(test, cst.BooleanOperation):
            return self._compared(test.left) + self._compared(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._compared(test.expression)
        if not isinstance(test, cst.Comparison):
            return []
        found = []
        left = test.left
        for target in test.comparisons:
            right = target.comparator
            pair = [left, right]
            if isinstance(target.operator, ORDERINGS) and not any(_is_text_or_none(side) for side in pair):
                found.extend(pair)
            elif isinstance(target.operator, EQUALITIES):
                found.extend(side for side, other in (pair, pair[::-1]) if _is_number(other))
            left = right
        return found

    def _attributes(self, expression: cst.BaseExpression, instance: str, method: FunctionInfo,
                    through_local: bool = True) -> list[str]:
        """The attributes of `instance` an expression's value is made of by arithmetic."""
        if isinstance(expression, cst.Attribute) and isinstance(expression.value, cst.Name):
            return [expression.attr.value] if expression.value.value == instance else []
        if isinstance(expression, cst.BinaryOperation):
            return (self._attributes(expression.left, instance, method, through_local)
                    + self._attributes(expression.right, instance, method, through_local))
        if isinstance(expression, cst.UnaryOperation):
            return self._attributes(expression.expression, instance, method, through_local)
        if (isinstance(expression, cst.Call) and isinstance(expression.func, cst.Name)
                and expression.func.value in ("int", "float", "bool", "abs") and len(expression.args) == 1):
            return self._attributes(expression.args[0].value, instance, method, through_local)
        if isinstance(expression, cst.Name) and through_local:
            bound = method.local_bindings.get(expression.value, [])
            if len(bound) == 1 and isinstance(bound[0], cst.BaseExpression):
                return self._attributes(bound[0], instance, method, through_local=False)
        return []


def _shape_elements(arguments: list[cst.BaseExpression]) -> list[cst.BaseExpression]:
    """A shape's sizes: the elements of a tuple or list display, or the argument itself."""
    found = []
    for argument in arguments:
        if isinstance(argument, (cst.Tuple, cst.List)):
            found.extend(e.value for e in argument.elements if not isinstance(e, cst.StarredElement))
        else:
            found.append(argument)
    return found


def _is_text_or_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) or (
        isinstance(node, cst.Name) and node.value == "None")


def _is_number(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))
