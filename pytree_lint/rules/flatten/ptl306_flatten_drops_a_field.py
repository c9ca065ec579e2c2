"""PTL306 flatten-drops-a-field

What it does:
    Counts the children a flatten function returns and compares them with what its unflatten needs: the
    required positional parameters of the constructor it calls with `*children` (arguments supplied from
    aux_data counted), the names it unpacks (`a, b, c = children`) and the indexes it reads
    (`children[2]`).

Why is this bad:
    The object cannot be rebuilt, and JAX only tells you deep inside a transformation (measured, jax
    0.10.2): `TypeError: P.__init__() missing 1 required positional argument: 'y'` from the first
    `jax.tree.map` or jitted call that returns the object; `ValueError: not enough values to unpack` or
    `IndexError` for the other forms.

Example:
    def tree_flatten(self):
        return (self.x,), None                  # PTL306: `y` is dropped

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

Use instead:
    Return every field the constructor needs: `return (self.x, self.y), None` (or put the static ones in
    aux_data and pass them to the constructor from there).

Known false positives:
    None known. Not reported: an unflatten written `(children, aux_data)`: its children look too few
    because it reads aux_data as the children, and that is PTL303's one finding; children a flatten grows
    after the display (`children += (self.photons,)` when the object has them); a child unflatten reads only
    under a test of aux_data, when another return of flatten gives that many (`if has_scale: ...
    children[1]`, flatten saying by aux_data which return it took).

Known limits:
    Only children displays of known length are counted, and constructors written in the module.
"""

from __future__ import annotations

import ast

from ...analysis.pytrees.aux import flatten_returns
from ...analysis.pytrees.registrations import Registration
from ...analysis.pytrees.structure import Structure, Unflatten, display_elements
from ...analysis.record import record
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_round_trip
from .ptl303_unflatten_arguments_swapped import swapped_unflatten


class FlattenDropsAField(Rule):
    code = "PTL306"
    name = "flatten-drops-a-field"
    summary = "flatten returns fewer children than unflatten or the constructor needs"
    runtime = ExamplesProbe(probe_round_trip, structural=True,
                            signatures=("required positional argument",))

    def check(self, analysis):
        for registration in analysis.registrations:
            if swapped_unflatten(analysis.structure, registration) is not None:
                continue  # one finding per root cause: unflatten reads aux_data as the children (PTL303)
            for dropped in dropped_children(analysis.structure, registration):
                count, need = dropped.count, dropped.need
                yield Report(dropped.node,
                             f"flatten of {registration.class_named} returns {count} "
                             f"child{'ren' if count != 1 else ''}, but unflatten needs {need.count}: {need.why} "
                             f"({analysis.located(need.node)}); the object cannot be rebuilt and the first "
                             "tree.map or jitted call returning it raises", target=registration.target)


@record
class ChildrenNeed:
    """How many children an unflatten needs, why, and where it says so."""

    count: int
    why: str
    node: ast.AST


@record
class DroppedChildren:
    """A flatten return with fewer children than its unflatten needs."""

    node: ast.AST
    count: int
    need: ChildrenNeed


def dropped_children(structure: Structure, registration: Registration) -> list[DroppedChildren]:
    """Each flatten return with fewer children than its unflatten needs."""
    unflatten = structure.unflatten(registration)
    if unflatten is None:
        return []
    found = []
    for function in (registration.flatten, registration.flatten_with_keys):
        flattened = flatten_returns(function, structure.index) if function is not None else ()
        returns = [(returned, children) for returned in flattened
                   if (children := display_elements(returned.children, function, structure.index)) is not None]
        most = max((len(children) for _returned, children in returns), default=0)
        for returned, children in returns:
            aux = display_elements(returned.aux, function, structure.index)
            # A read made only where aux_data says a return with more children was taken is met by that one.
            needs = [need for need in _children_needs(structure, unflatten, len(aux) if aux is not None else None)
                     if not (need.count <= most and structure.decided_by_aux(unflatten, need.node))]
            need = max(needs, key=lambda need: need.count, default=None)
            if need is not None and need.count > len(children):
                found.append(DroppedChildren(returned.node, len(children), need))
    return found


def _children_needs(structure: Structure, unflatten: Unflatten, aux_length: int | None) -> list[ChildrenNeed]:
    """Each read of unflatten that needs a number of children."""
    needs = [ChildrenNeed(count, f"it unpacks {count} names", node) for node, count in unflatten.unpacked]
    needs += [ChildrenNeed(index + 1, f"it reads index {index}", node) for node, index in unflatten.indexed]
    constructor = structure.constructor(unflatten.cls) if unflatten.constructor_calls else None
    if constructor is not None and not constructor.star:
        for call in unflatten.constructor_calls:
            positional = [p for p in constructor.parameters if p.required]
            fixed, star_children, unknown = 0, False, False
            for argument in call.args:
                if isinstance(argument, ast.Starred) and structure.is_children(unflatten, argument.value):
                    star_children = True
                elif (isinstance(argument, ast.Starred) and aux_length is not None
                      and isinstance(argument.value, ast.Name) and argument.value.id == unflatten.aux):
                    fixed += aux_length
                elif isinstance(argument, ast.Starred):
                    unknown = True
                else:
                    fixed += 1
            for keyword in call.keywords:
                if keyword.arg is None:
                    unknown = True
                else:
                    positional = [p for p in positional if p.name != keyword.arg]
            required = len(positional) - fixed
            if star_children and not unknown and required > 0:
                needs.append(ChildrenNeed(required, f"the constructor it calls with `*{unflatten.children}` "
                                                    f"requires {len(positional)} positional arguments", call))
    return needs
