"""How instances of a class compare, which decides what happens when one is aux_data.

JAX compares aux_data with `==` on every cache lookup (PyTreeDef equality). A class without `__eq__`
compares by identity, so each new instance is a cache miss; a generated `__eq__` (dataclass, NamedTuple)
compares fields, and an array field makes that comparison raise; equinox's Module compares leaf by leaf
and reduces an array to one bool (`tree_equal`): it never raises; a hand-written `__eq__` may return an
elementwise array.
"""

from __future__ import annotations

import ast

from ...knowledge import DATACLASS_DECORATORS, FROZEN_BASES, FROZEN_BY_DEFAULT, LEAF_COMPARING_BASES, VALUE_BASES
from ...knowledge.python import NEUTRAL_BASES
from ..record import record
from ..syntax.model import ClassInfo, ModuleIndex
from ..syntax.names import dotted_name
from ..values.inference import Context, Evidence, ValueInference
from ..values.kinds import Equality, Kind, Relation


@record
class ArrayComparison:
    """A `return` of `__eq__` whose value is an elementwise comparison of arrays."""

    statement: ast.Return
    comparison: ast.Compare
    evidence: Evidence


class ClassSemantics:
    def __init__(self, index: ModuleIndex, inference: ValueInference) -> None:
        self.index = index
        self.inference = inference

    def _decorator_names(self, cls: ClassInfo):
        for expr in cls.decorators:
            call = expr if isinstance(expr, ast.Call) else None
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
                    k.arg == "eq" and isinstance(k.value, ast.Constant) and k.value.value is False
                    for k in call.keywords)
                return Equality.IDENTITY if eq_disabled else Equality.GENERATED
        verdict = Equality.IDENTITY
        for base in cls.bases:
            expr = base.value if isinstance(base, ast.Subscript) else base
            parent = self.index.resolve_class(expr)
            if parent is not None:
                inherited = self.equality(parent, _seen | {id(cls)})
                if inherited is not Equality.IDENTITY:
                    return inherited
                continue
            name = self.index.qualify(expr) or dotted_name(expr) or ""
            if name in LEAF_COMPARING_BASES:
                return Equality.TREE_EQUAL
            if name in VALUE_BASES or name.startswith("enum."):
                return Equality.GENERATED
            if name not in NEUTRAL_BASES:
                verdict = Equality.UNKNOWN
        return verdict

    def hashes_fields(self, cls: ClassInfo) -> bool:
        """`hash()` of an instance reaches its fields: a hand-written `__hash__`, a frozen (or
        `unsafe_hash`) dataclass, flax.struct and equinox classes (frozen), a NamedTuple."""
        for owner in self.index.class_and_bases(cls):
            if "__hash__" in owner.methods:
                return True
            for name, call in self._decorator_names(owner):
                if name in FROZEN_BY_DEFAULT:
                    return True
                if name in DATACLASS_DECORATORS and call is not None and any(
                        k.arg in ("frozen", "unsafe_hash") and isinstance(k.value, ast.Constant)
                        and k.value.value is True for k in call.keywords):
                    return True
            if any(self.index.qualify(base) in FROZEN_BASES for base in owner.bases):
                return True
        return False

    def array_fields(self, cls: ClassInfo, built: ast.AST | None = None) -> list[Evidence]:
        """Evidence that some attribute of `cls` holds an array (annotation or assignment; not an annotation a
        default or a value given contradicts); of the object one constructor call `built` makes, with what
        that call gives where it says (not what other calls give: built with `None` here and an array
        elsewhere is not an array here)."""
        names: list[str] = []
        for owner in self.index.class_and_bases(cls):
            names.extend(owner.fields)
            names.extend(owner.assignments)
        found: list[Evidence] = []
        for name in dict.fromkeys(names):
            evidence = self.inference.attribute(cls, name, f"{cls.name}.{name}")
            given = self.inference.given_at(built, cls, name) if isinstance(built, ast.Call) else None
            if given is not None:  # what this call gives, when known, and not what the other calls give
                evidence = [*(e for e in evidence if not any(hop.relation is Relation.GIVEN for hop in e.trail)),
                            *given]
            arrays = [e for e in evidence if e.kind is Kind.ARRAY and not e.shared]
            if arrays and all(_annotated_only(e) for e in arrays) and any(
                    e.kind is Kind.SAFE and not _annotated_only(e) for e in evidence):
                continue  # `torque_max: Array = 3000.0`: the values it is given say otherwise
            found.extend(arrays)
        return found

    def array_comparisons(self, cls: ClassInfo) -> list[ArrayComparison]:
        """Returns of `cls.__eq__` that compare arrays elementwise (`return self.v == other.v`)."""
        method = self.index.find_method(cls, "__eq__")
        if method is None or method.is_lambda or len(method.params) < 2:
            return []
        # `other` is compared as the same class: its attributes are this class's attributes.
        names = tuple((p.name, cls) for p in method.params[:2])
        found = []
        for statement in method.return_statements:
            context = Context(method, names, statement)
            for value in _returned_comparisons(statement.value):
                if not all(isinstance(op, (ast.Eq, ast.NotEq)) for op in value.ops):
                    continue
                arrays = [e for e in self.inference.infer(value.left, context) if e.kind is Kind.ARRAY]
                if arrays:
                    found.append(ArrayComparison(statement, value, arrays[0]))
                    break
        return found


def _annotated_only(evidence: Evidence) -> bool:
    """Evidence an annotation alone gives (its origin is the annotation, not a value)."""
    return bool(evidence.trail) and evidence.trail[-1].relation is Relation.ANNOTATED


def _returned_comparisons(value: ast.expr | None):
    """Comparisons whose result is the returned value: `a == b`, the last operand of `isinstance(...) and
    a == b` (the value of `x and y` is `y` when `x` holds), either branch of a conditional expression."""
    if isinstance(value, ast.Compare):
        yield value
    elif isinstance(value, ast.BoolOp):
        yield from _returned_comparisons(value.values[-1])
    elif isinstance(value, ast.IfExp):
        yield from _returned_comparisons(value.body)
        yield from _returned_comparisons(value.orelse)
