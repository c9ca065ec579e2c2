"""PTL302 children-order-mismatch

What it does:
    Compares the order in which a flatten function returns the children (`return (self.x, self.y), aux`)
    with the order its unflatten reads them back: indexes (`cls(children[1], children[0])`), unpacking
    (`y, x = children`), `cls(*children)` against the constructor's parameters, keyword arguments, and
    `obj.x, obj.y = children`. It reports the read that puts a child into another attribute than the one
    flatten took it from.

Why is this bad:
    JAX is silent about it (measured, jax 0.10.2): every `jax.tree.map` and every jitted function that
    returns the object swaps the fields. With `P(ch[1], ch[0])`, eager `p.x - p.y` is `-9.` and under jit
    `9.`; `jax.jit(lambda p: p)` hides it by swapping twice. With different shapes the error surfaces
    far away, as a `dot_general` shape error.

Example:
    def flatten(p):
        return (p.x, p.y), None

    def unflatten(aux, children):
        y, x = children
        return Point(y, x)                  # PTL302: child 0 (`p.x`) becomes `Point.y`

Use instead:
    Read the children in the order flatten wrote them, or by keyword: `x, y = children; return Point(x=x,
    y=y)`.

Known false positives:
    None known. Not reported: unflattens that rebuild by keyword, and flattens whose returns disagree
    among themselves (there is no single order to compare with).

Known limits:
    Children are matched by attribute: flatten must return `self.<attr>` elements and the constructor
    must store each parameter in one attribute (or be a dataclass). Anything else is not judged.
"""

from __future__ import annotations

from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_round_trip


class ChildrenOrderMismatch(Rule):
    code = "PTL302"
    name = "children-order-mismatch"
    summary = "unflatten reads the children in another order than flatten produced them"
    runtime = ExamplesProbe(probe_round_trip, structural=True)

    def check(self, analysis):
        structure = analysis.structure
        for registration in analysis.registrations:
            unflatten = structure.unflatten(registration)
            # With both flattens, unflatten is compared with the keyed one; PTL307 compares the two.
            flatten = registration.flatten_with_keys or registration.flatten
            if unflatten is None or flatten is None:
                continue
            keyed = flatten is registration.flatten_with_keys
            orders = [(children.attributes, children.node)
                      for children in structure.flatten_children(flatten, keyed) if children.attributes]
            if len({tuple(a) for a, _statement in orders}) != 1:
                continue  # no return, or returns that disagree among themselves: nothing to compare with
            attributes, statement = orders[0]
            mismatch = self._first_mismatch(structure, registration, unflatten, attributes)
            if mismatch is not None:
                node, index, target = mismatch
                yield Report(node, f"unflatten puts child {index} into `{target}` of {registration.class_named}, "
                                   f"but flatten returns attribute `{attributes[index]}` there "
                                   f"({analysis.located(statement)}): every tree.map and every jitted function "
                                   "returning the object swaps the fields silently; read the children in "
                                   "flatten's order or by keyword",
                             target=registration.target)

    @staticmethod
    def _first_mismatch(structure, registration, unflatten, attributes):
        """(node, child index, attribute) of the first read that puts a child in another attribute of the
        ones flatten returns."""
        known = {a for a in attributes if a is not None}
        for index, target in enumerate(structure.children_targets(unflatten, len(attributes))):
            if target is not None and attributes[index] is not None and target.attribute != attributes[index] \
                    and target.attribute in known:
                return target.node, index, target.attribute
        return None
