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

Known limits:
    Reported only when the value is known to be an array (an array constructor, an array annotation or
    conversion) or unflatten reads child 0 back into that same attribute; a name or attribute holding a
    list or tuple of children is fine and not reported.
"""

from __future__ import annotations

from ..base import Report, Rule
from ...runtime.probes import ExamplesProbe
from .probes import probe_round_trip


class FlattenChildrenNotASequence(Rule):
    code = "PTL305"
    name = "flatten-children-not-a-sequence"
    summary = "flatten returns one array as the children instead of a tuple/list of children"
    runtime = ExamplesProbe(probe_round_trip)

    def check(self, analysis):
        for registration in analysis.registrations:
            for function in (registration.flatten, registration.flatten_with_keys):
                if function is None:
                    continue
                for bare in analysis.structure.bare_array_children(registration, function):
                    if bare.array is not None:
                        why = analysis.origin(bare.array)
                    else:
                        why = f"unflatten reads child 0 back into it ({analysis.located(bare.read)})"
                    code = analysis.snippet(bare.children)
                    yield Report(bare.node,
                                 f"flatten of `{registration.class_name}` returns one array as the children "
                                 f"(`{code}`: {why}): JAX iterates it into its rows, one leaf each; return "
                                 f"`({code},)`", target=registration.target)
