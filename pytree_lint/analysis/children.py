"""The places where a value becomes a pytree child: a leaf that jit, vmap and grad trace.

A site is one element of a flatten function's children (the child of a `(key, child)` pair for a keyed
flatten), or a field of a dataclass-style registration that is not static. Equinox modules are left out:
their filter transformations treat non-array leaves as static by design.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

import libcst as cst

from .aux import flatten_context, flatten_returns
from .frameworks import is_class_var
from .index import FunctionInfo, ModuleIndex
from .registrations import Registration
from .values import Evidence, ValueInference

# Registrations whose non-static fields are children (by their qualified decorator/base, or JAX's own).
DATACLASS_MECHANISMS = ("register_dataclass", "flax.", "jax_dataclasses.", "chex.", "penzai.", "netket.",
                        "jax_md.", "simple_pytree.")


@dataclass(eq=False)
class ChildSite:
    registration: Registration
    report_node: cst.CSTNode
    evidence: list[Evidence]
    subject: str  # "a child of `Box`", "field `Box.name`"


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
            if registration.cls is not None and registration.mechanism.startswith(DATACLASS_MECHANISMS):
                found.extend(self._field_children(registration))
        return found

    def _flatten_children(self, registration: Registration, function: FunctionInfo, keyed: bool):
        subject = f"a child of `{registration.class_name}`"
        for children, _aux, statement in flatten_returns(function):
            if not isinstance(children, (cst.Tuple, cst.List)):
                continue
            if id(statement) in self.swapped:
                continue
            context = flatten_context(function, registration, statement)
            for element in children.elements:
                child = element.value
                if isinstance(element, cst.StarredElement):
                    continue
                if keyed:
                    if not (isinstance(child, cst.Tuple) and len(child.elements) == 2):
                        continue
                    child = child.elements[1].value
                yield ChildSite(registration, child, self.inference.infer(child, context), subject)

    def _field_children(self, registration: Registration):
        cls = registration.cls
        static = {field.name for field in registration.static_fields}
        for field in cls.fields.values():
            if field.annotation is None or field.name in static or is_class_var(self.index, field.annotation):
                continue
            if isinstance(field.value, cst.Call) and self.index.qualify(field.value.func) in (
                    "dataclasses.field", "flax.struct.field") and any(
                    a.keyword is not None and a.keyword.value == "init" and isinstance(a.value, cst.Name)
                    and a.value.value == "False" for a in field.value.args):
                continue  # not a constructor argument: not part of the flattened fields either
            evidence = self.inference.attribute(cls, field.name, field.name)
            yield ChildSite(registration, field.statement, evidence, f"field `{cls.name}.{field.name}`")
