"""PTL305 flatten-children-not-a-sequence

What it does:
    Finds a flatten function that returns one array as the children, `return self.val, None` or
    `return (arr, aux)`, instead of a tuple or list of children such as `(self.val,)`.

Why is this bad:
    JAX iterates the children, so an array is split into its rows (measured, jax 0.10.2: a 4-element
    vector gives 4 scalar leaves). `A(*children)` then raises `TypeError: __init__() takes 2 positional
    arguments but 5 were given`, and `A(children[0])` is silently wrong: `jax.jit(lambda a: a.val)`
    returned `Array(0.)` instead of `[0, 1, 2, 3]`.

Example:
    def tree_flatten(self):
        return self.val, None               # PTL305

Use instead:
    `return (self.val,), None`

Known false positives:
    None known. Not reported: a name or attribute that may hold a tuple or list of arrays (only a
    single array, by its origin, or by unflatten reading child 0 back into it, counts).

Known limits:
    Reported only when the value is known to be an array (an array constructor, an array annotation or
    conversion) or unflatten reads child 0 back into that same attribute; a name or attribute holding a
    list or tuple of children is fine and not reported.
"""

from __future__ import annotations

import ast

from ...analysis.pytrees.aux import flatten_context, flatten_returns
from ...analysis.pytrees.registrations import Registration
from ...analysis.pytrees.structure import Structure
from ...analysis.record import record
from ...analysis.syntax.model import FunctionInfo, written_as
from ...analysis.values.inference import Evidence
from ...analysis.values.kinds import Kind
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_round_trip


class FlattenChildrenNotASequence(Rule):
    code = "PTL305"
    name = "flatten-children-not-a-sequence"
    summary = "flatten returns one array as the children instead of a tuple/list of children"
    runtime = ExamplesProbe(probe_round_trip, structural=True,
                            signatures=("positional arguments but",))

    def check(self, analysis):
        for registration in analysis.registrations:
            for function in (registration.flatten, registration.flatten_with_keys):
                if function is None:
                    continue
                for bare in bare_array_children(analysis.structure, registration, function):
                    if bare.array is not None:
                        why = analysis.origin(bare.array)
                    else:
                        why = f"unflatten reads child 0 back into it ({analysis.located(bare.read)})"
                    code = analysis.snippet(bare.children)
                    yield Report(bare.node,
                                 f"flatten of {registration.class_named} returns one array as the children "
                                 f"(`{code}`: {why}): JAX iterates it into its rows, one leaf each; return "
                                 f"`({code},)`", target=registration.target)


SEQUENCES = (ast.Tuple, ast.List, ast.ListComp, ast.GeneratorExp)


@record
class BareArrayChildren:
    """A flatten return whose children are one array; proved by its evidence or by the unflatten read
    that puts child 0 back whole (one of the two is None)."""

    node: ast.AST
    children: ast.expr
    array: Evidence | None
    read: ast.AST | None


def bare_array_children(structure: Structure, registration: Registration,
                        function: FunctionInfo) -> list[BareArrayChildren]:
    """Each flatten return whose children are one array rather than a sequence of children."""
    found = []
    for returned in flatten_returns(function, structure.index):
        children = returned.children
        if isinstance(children, (ast.Call, ast.IfExp, ast.Subscript)):  # made by a helper or a method (or an
            # element of what one returns); a conditional
            children = written_as(children, function, structure.index)
        if not isinstance(children, (ast.Name, ast.Attribute)):
            continue
        evidence = structure.inference.infer(children, flatten_context(function, registration, returned.node))
        if any(not _one_array(e) for e in evidence):
            continue  # a sequence, or something else that may be one
        if evidence:
            found.append(BareArrayChildren(returned.node, children, evidence[0], None))
            continue
        attributes = structure.child_attributes(function, ast.Tuple([children]), keyed=False)
        unflatten = structure.unflatten(registration)
        if attributes and attributes[0] is not None and unflatten is not None:
            target = structure.children_targets(unflatten, 1)[0]
            if target is not None and target.attribute == attributes[0]:
                found.append(BareArrayChildren(returned.node, children, None, target.node))
    return found


def _one_array(evidence: Evidence) -> bool:
    """An array itself, not an array element of a tuple or list the value was assigned or returned."""
    return evidence.kind is Kind.ARRAY and not evidence.elements and not isinstance(evidence.node, SEQUENCES) \
        and not any(isinstance(hop.node, SEQUENCES) for hop in evidence.trail)
