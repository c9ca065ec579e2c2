"""The places where a value becomes aux_data, each with the evidence of what that value can be.

A site is one aux element of a flatten function's `return` (`return children, (self.n, self.table)`
gives two sites), a static field of a registered dataclass, or the instance itself for
`register_static`. Rules PTL101-PTL105 read the evidence; the site says where to report.
"""

from __future__ import annotations

import ast
from collections.abc import Container
from dataclasses import dataclass

from ..knowledge.jax import Mechanism
from .kinds import Kind, Leaf
from .model import FunctionInfo, ModuleIndex, is_none
from .registrations import Registration
from .values import Context, Evidence, ValueInference


@dataclass(eq=False)
class AuxSite:
    registration: Registration
    report_node: ast.AST
    evidence: list[Evidence]
    subject: str  # "aux_data of `Box`", "static field `Box.table`"
    held_by_instance: bool = False  # a static field or a static object: the value lives on the instance

    def first(self, kind: Kind) -> Evidence | None:
        """The first evidence of `kind` for a value made per instance (not one module-level object)."""
        for evidence in self.evidence:
            if evidence.kind is kind and not evidence.shared:
                return evidence
        return None


@dataclass(frozen=True, eq=False)
class FlattenReturn:
    """What one return of a flatten function gives JAX: `(children, aux_data)`, and where it says so (the
    return statement, or the lambda itself: the place a finding about that return is reported)."""

    children: ast.expr
    aux: ast.expr
    node: ast.AST


def _flatten_pair(value: ast.expr, function: FunctionInfo) -> tuple[ast.expr, ast.expr] | None:
    """(children, aux) of a flatten return value: a 2-tuple display, directly or via one local."""
    if isinstance(value, ast.Name):
        bound = function.local_bindings.get(value.id, [])
        if len(bound) == 1 and isinstance(bound[0], ast.expr):
            value = bound[0]
    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == 2:
        if not any(isinstance(e, ast.Starred) for e in value.elts):
            return value.elts[0], value.elts[1]
    return None


def flatten_returns(function: FunctionInfo) -> list[FlattenReturn]:
    """Each `(children, aux_data)` a flatten function returns."""
    if function.is_lambda:
        statements = [(function.node.body, function.node)]
    else:
        statements = [(r.value, r) for r in function.return_statements if r.value is not None]
    found = []
    for value, statement in statements:
        pair = _flatten_pair(value, function)
        if pair is not None:
            found.append(FlattenReturn(*pair, statement))
    return found


def hashable_only(inference: ValueInference, children: ast.expr, context: Context) -> bool:
    """`None`, or a non-empty display of values known to be hashable (literals, ints, strings, shapes)."""
    if is_none(children):
        return True
    if not isinstance(children, (ast.Tuple, ast.List)) or not children.elts:
        return False
    for element in children.elts:
        evidence = [] if isinstance(element, ast.Starred) else inference.infer(element, context)
        if not evidence or any(e.kind is not Kind.SAFE or e.leaf in (Leaf.CALLABLE, Leaf.CLASS)
                               for e in evidence):
            return False
    return True


def array_in(inference: ValueInference, aux: ast.expr, context: Context) -> Evidence | None:
    """An array made per instance in a value or in the elements of its display."""
    elements = [aux]
    if isinstance(aux, (ast.Tuple, ast.List)):
        elements = [e for e in aux.elts if not isinstance(e, ast.Starred)]
    for element in elements:
        for evidence in inference.infer(element, context):
            if evidence.kind is Kind.ARRAY and not evidence.shared:
                return evidence
    return None


def flatten_context(function: FunctionInfo, registration: Registration, statement: ast.AST | None = None) -> Context:
    """Inside a flatten function, its first parameter is an instance of the registered class."""
    if registration.cls is None or not function.params:
        return Context(function, statement=statement)
    return Context(function, ((function.params[0].name, registration.cls),), statement)


class AuxSiteFinder:
    def __init__(self, index: ModuleIndex, inference: ValueInference, swapped: Container[int]) -> None:
        """`swapped`: the flatten returns written `(aux_data, children)` (PTL304), by node id: their
        elements are not judged as aux_data."""
        self.index = index
        self.inference = inference
        self.swapped = swapped

    def sites(self, registrations: list[Registration]) -> list[AuxSite]:
        found: list[AuxSite] = []
        for registration in registrations:
            for function in (registration.flatten, registration.flatten_with_keys):
                if function is not None:
                    found.extend(self._flatten_sites(registration, function))
            cls = registration.cls
            for static in registration.static_fields:
                if cls is not None:
                    # A static field that a method keeps updating marks a stateful object, not a cache key
                    # someone forgot: only a flatten function that returns such a value is reported.
                    evidence = [e for e in self.inference.attribute(cls, static.name, static.name)
                                if not isinstance(e.node, ast.AugAssign)]
                    found.append(AuxSite(registration, static.declaration, evidence,
                                         f"static field `{cls.name}.{static.name}` ({static.how})", True))
            if registration.mechanism is Mechanism.REGISTER_STATIC and cls is not None:
                found.append(AuxSite(registration, registration.node, self._static_instances(registration),
                                     f"`{cls.name}` (registered static: the whole object is aux_data)", True))
        return found

    def _flatten_sites(self, registration: Registration, function: FunctionInfo) -> list[AuxSite]:
        subject = f"aux_data of `{registration.class_name}`"
        sites = []
        for returned in flatten_returns(function):
            if id(returned.node) in self.swapped:
                continue
            context = flatten_context(function, registration, returned.node)
            aux = returned.aux
            elements = [e for e in aux.elts if not isinstance(e, ast.Starred)] if isinstance(aux, ast.Tuple) else [aux]
            for element in elements:
                sites.append(AuxSite(registration, element, self.inference.infer(element, context), subject))
        return sites

    def _static_instances(self, registration: Registration) -> list[Evidence]:
        """A `register_static` class built inside a function (or lambda) is a new aux object on every call."""
        cls = registration.cls
        for call, in_function in self.index.calls_mentioning((cls.name,)):
            if in_function and self.index.resolve_class(call.func) is cls:
                return [Evidence(Kind.INSTANCE, call, f"a new `{cls.name}`", cls=cls, constructed=True)]
        # Built nowhere in a function here: still the aux_data class (its `__eq__` matters, PTL105).
        return [Evidence(Kind.INSTANCE, registration.node, f"a `{cls.name}`", cls=cls)]
