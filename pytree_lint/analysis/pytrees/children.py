"""The places where a value becomes a pytree child: a leaf that jit, vmap and grad trace.

A site is one element of a flatten function's children (the child of a `(key, child)` pair for a keyed
flatten), or a field of a dataclass-style registration that is not static. Equinox modules are left out:
their filter transformations treat non-array leaves as static by design.
"""

from __future__ import annotations

import ast
from collections.abc import Container

from ...knowledge.flax import INIT_FALSE_FIELDS
from ...knowledge.python import NAMED_TUPLE
from ..record import record
from ..syntax.model import ClassField, ClassInfo, FunctionInfo, ModuleIndex, written_as
from ..values.inference import Evidence, ValueInference
from ..values.kinds import Leaf
from .aux import flatten_context, flatten_returns
from .fields import declared_fields, sets_init_false
from .registrations import Registration
from .structure import Structure


@record
class ChildSite:
    registration: Registration
    report_node: ast.AST
    evidence: list[Evidence]
    subject: str  # "a child of `Box`", "field `Box.name`"


@record
class ChildAttribute:
    """An attribute of the registered class that is a child, and where that is said."""

    registration: Registration
    attribute: str
    report_node: ast.AST  # the flatten return (or lambda), or the field declaration


@record
class NonArrayLeaf:
    """A field (`batch.meta.split`) that jit traces as a leaf although it is a str, class or function."""

    path: str
    evidence: Evidence


class ChildSiteFinder:
    def __init__(self, index: ModuleIndex, inference: ValueInference, swapped: Container[int]) -> None:
        """`swapped`: the flatten returns written `(aux_data, children)` (PTL304), by node id."""
        self.index = index
        self.inference = inference
        self.swapped = swapped

    def sites(self, registrations: list[Registration]) -> list[ChildSite]:
        found: list[ChildSite] = []
        for registration in registrations:
            if registration.flatten is not None:
                found.extend(self._flatten_children(registration, registration.flatten, keyed=False))
            if registration.flatten_with_keys is not None:
                found.extend(self._flatten_children(registration, registration.flatten_with_keys, keyed=True))
            found.extend(self._field_children(registration))
        return found

    def _flatten_children(self, registration: Registration, function: FunctionInfo, keyed: bool):
        subject = f"a child of {registration.class_named}"
        for returned in flatten_returns(function, self.index):
            children = written_as(returned.children, function, self.index)
            if not isinstance(children, (ast.Tuple, ast.List)) or id(returned.node) in self.swapped:
                continue
            context = flatten_context(function, registration, returned.node)
            for child in children.elts:
                if isinstance(child, ast.Starred):
                    continue
                if keyed:
                    if not (isinstance(child, ast.Tuple) and len(child.elts) == 2):
                        continue
                    child = child.elts[1]
                yield ChildSite(registration, child, self.inference.infer(child, context), subject)

    def attributes(self, registrations: list[Registration], structure: Structure) -> list[ChildAttribute]:
        """The class attributes each registration makes children: by its flatten returns (plain first),
        or by its non-static fields."""
        found = []
        for registration in registrations:
            for function, keyed in ((registration.flatten, False), (registration.flatten_with_keys, True)):
                for children in structure.flatten_children(function, keyed) if function is not None else ():
                    if id(children.node) not in self.swapped:
                        found.extend(ChildAttribute(registration, attribute, children.node)
                                     for attribute in children.attributes or () if attribute is not None)
            found.extend(ChildAttribute(registration, field.name, field.statement)
                         for field in self.child_fields(registration))
        return found

    def child_fields(self, registration: Registration) -> list[ClassField]:
        """The fields of a dataclass-style registration that are children: not static, not `init=False`,
        not shadowed by a method or property of the same name (the class attribute is then the function,
        and the annotation declares no field: netket's `LinearPreconditioner.lhs_constructor`)."""
        if registration.cls is None or not registration.fields_are_children:
            return []
        static = {field.name for field in registration.static_fields}
        methods = {name for owner in self.index.class_and_bases(registration.cls) for name in owner.methods}
        return [field for field in declared_fields(self.index, registration.cls)
                if field.name not in static and field.name not in methods and not self._not_in_init(field)]

    def _not_in_init(self, field: ClassField) -> bool:
        """`field(init=False)`: not a constructor argument, so not one of the flattened fields either."""
        return sets_init_false(field.value) and self.index.qualify(field.value.func) in INIT_FALSE_FIELDS

    def leaf_fields(self, cls: ClassInfo, registrations: list[Registration]) -> list[ClassField] | None:
        """The fields jit traces as leaves when it is passed a `cls`: every field of a NamedTuple that the
        module does not register otherwise, the child fields of a dataclass-style registration; None for
        any other class (its flatten decides, or it is no pytree)."""
        own = [r for r in registrations if r.cls is cls]
        if any(r.fields_are_children for r in own):
            return [field for r in own for field in self.child_fields(r)]
        if not own and any(self.index.qualify(base) == NAMED_TUPLE for base in cls.bases):
            return declared_fields(self.index, cls)
        return None

    def _field_children(self, registration: Registration):
        cls = registration.cls
        for field in self.child_fields(registration):
            evidence = self.inference.attribute(cls, field.name, field.name)
            yield ChildSite(registration, field.statement, evidence, f"field `{cls.name}.{field.name}`")

    def non_array_leaves(self, cls: ClassInfo, registrations: list[Registration],
                         seen: frozenset[int] = frozenset()) -> list[NonArrayLeaf]:
        """The fields of `cls` (through nested NamedTuples and registered dataclasses of this module) that
        jit traces as leaves and that are a str, a class or a function, by annotation or by what is
        assigned (`Callable` alone is not enough: see Evidence.proves_leaf)."""
        fields = self.leaf_fields(cls, registrations)
        if fields is None or id(cls) in seen:
            return []
        found = []
        for field in fields:
            evidence = self.inference.attribute(cls, field.name, field.name)
            if any(e.leaf is Leaf.CALLABLE for e in evidence):
                # a function passed anywhere proves it
                evidence = evidence + self.inference.constructor_arguments(
                    cls, field.name, self.inference.field_position(cls, field.name), everywhere=True)
            leaf = next((e for e in evidence if e.proves_leaf), None)
            if leaf is not None:
                found.append(NonArrayLeaf(field.name, leaf))
                continue
            for nested in {e.cls.name: e.cls for e in evidence if e.cls is not None}.values():
                found.extend(NonArrayLeaf(f"{field.name}.{inner.path}", inner.evidence)
                             for inner in self.non_array_leaves(nested, registrations, seen | {id(cls)}))
        return found
