"""How instances of a class compare, which decides what happens when one is aux_data.

JAX compares aux_data with `==` on every cache lookup (PyTreeDef equality). A class without `__eq__`
compares by identity, so each new instance is a cache miss; a generated `__eq__` (dataclass, NamedTuple)
compares fields, and an array field makes that comparison raise; a hand-written `__eq__` may return an
elementwise array.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .index import ClassInfo, ModuleIndex
from .names import dotted_name
from .kinds import Equality, Kind
from .values import Context, Evidence, ValueInference


DATACLASS_DECORATORS = frozenset({
    "dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass", "jax_dataclasses.pytree_dataclass",
    "attr.s", "attr.attrs", "attr.define", "attr.frozen", "attr.mutable", "attrs.define",
    "attrs.frozen", "attrs.mutable", "pydantic.dataclasses.dataclass",
})
VALUE_BASES = frozenset({
    "typing.NamedTuple", "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag",
    "equinox.Module", "flax.struct.PyTreeNode", "tuple", "int", "str", "float", "frozenset", "bytes",
})
NEUTRAL_BASES = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol"})


@dataclass(frozen=True)
class ArrayComparison:
    """A `return` of `__eq__` whose value is an elementwise comparison of arrays."""

    statement: cst.Return
    comparison: cst.Comparison
    evidence: Evidence


class ClassSemantics:
    def __init__(self, index: ModuleIndex, inference: ValueInference) -> None:
        self.index = index
        self.inference = inference

    def _decorator_names(self, cls: ClassInfo):
        for decorator in cls.node.decorators:
            expr = decorator.decorator
            call = expr if isinstance(expr, cst.Call) else None
            yield self.index.qualify(call.func if call else expr) or "", call

    def equality(self, cls: ClassInfo, _seen: frozenset[int] = frozenset()) -> Equality:
        if id(cls) in _seen:
            return Equality.UNKNOWN  # a cycle of base classes: nothing sound to say
        for owner in self.index.class_and_bases(cls):
            if "__eq__" in owner.methods or "__eq__" in owner.fields:
                return Equality.CUSTOM
        for name, call in self._decorator_names(cls):
            if name in DATACLASS_DECORATORS:
                eq_disabled = call is not None and any(
                    a.keyword is not None and a.keyword.value == "eq"
                    and isinstance(a.value, cst.Name) and a.value.value == "False" for a in call.args)
                return Equality.IDENTITY if eq_disabled else Equality.GENERATED
        verdict = Equality.IDENTITY
        for base in cls.node.bases:
            if base.keyword is not None:
                continue
            expr = base.value.value if isinstance(base.value, cst.Subscript) else base.value
            parent = self.index.resolve_class(expr)
            if parent is not None:
                inherited = self.equality(parent, _seen | {id(cls)})
                if inherited is not Equality.IDENTITY:
                    return inherited
                continue
            name = self.index.qualify(expr) or dotted_name(expr) or ""
            if name in VALUE_BASES or name.startswith("enum."):
                return Equality.GENERATED
            if name not in NEUTRAL_BASES:
                verdict = Equality.UNKNOWN
        return verdict

    def array_fields(self, cls: ClassInfo) -> list[Evidence]:
        """Evidence that some attribute of `cls` holds an array (annotation or assignment)."""
        names: list[str] = []
        for owner in self.index.class_and_bases(cls):
            names.extend(owner.fields)
            names.extend(owner.assignments)
        found: list[Evidence] = []
        for name in dict.fromkeys(names):
            found.extend(e for e in self.inference.attribute(cls, name, f"{cls.name}.{name}")
                         if e.kind is Kind.ARRAY and not e.shared)
        return found

    def array_comparisons(self, cls: ClassInfo) -> list[ArrayComparison]:
        """Returns of `cls.__eq__` that compare arrays elementwise (`return self.v == other.v`)."""
        method = self.index.find_method(cls, "__eq__")
        if method is None or isinstance(method.node, cst.Lambda) or len(method.params) < 2:
            return []
        # `other` is compared as the same class: its attributes are this class's attributes.
        names = tuple((p.name.value, cls) for p in method.params[:2])
        found = []
        for statement in method.return_statements:
            context = Context(method, names, statement)
            for value in _returned_comparisons(statement.value):
                if not all(isinstance(c.operator, (cst.Equal, cst.NotEqual)) for c in value.comparisons):
                    continue
                arrays = [e for e in self.inference.infer(value.left, context) if e.kind is Kind.ARRAY]
                if arrays:
                    found.append(ArrayComparison(statement, value, arrays[0]))
                    break
        return found


def _returned_comparisons(value: cst.BaseExpression | None):
    """Comparisons whose result is the returned value: `a == b`, the right side of `isinstance(...) and
    a == b` (the value of `x and y` is `y` when `x` holds), either branch of a conditional expression."""
    if isinstance(value, cst.Comparison):
        yield value
    elif isinstance(value, cst.BooleanOperation):
        yield from _returned_comparisons(value.right)
    elif isinstance(value, cst.IfExp):
        yield from _returned_comparisons(value.body)
        yield from _returned_comparisons(value.orelse)
