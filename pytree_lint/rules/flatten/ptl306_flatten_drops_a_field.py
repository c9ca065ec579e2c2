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

Known limits:
    Only children displays of known length are counted, and constructors written in the module.
"""

from __future__ import annotations

from ..base import Report, Rule
from ...runtime.probes import ExamplesProbe
from .probes import probe_round_trip


class FlattenDropsAField(Rule):
    code = "PTL306"
    name = "flatten-drops-a-field"
    summary = "flatten returns fewer children than unflatten or the constructor needs"
    runtime = ExamplesProbe(probe_round_trip)

    def check(self, analysis):
        for registration in analysis.registrations:
            for dropped in analysis.structure.dropped_children(registration):
                count, need = dropped.count, dropped.need
                yield Report(dropped.node,
                             f"flatten of `{registration.class_name}` returns {count} "
                             f"child{'ren' if count != 1 else ''}, but unflatten needs {need.count}: {need.why} "
                             f"({analysis.located(need.node)}); the object cannot be rebuilt and the first "
                             "tree.map or jitted call returning it raises", target=registration.target)
