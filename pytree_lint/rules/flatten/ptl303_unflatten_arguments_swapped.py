"""PTL303 unflatten-arguments-swapped

What it does:
    Finds an unflatten function written `(children, aux_data)`: its first parameter is named like the
    children (`children`, `leaves`, `xs`, `flat`, ...) and its second is not, or its second is named like
    aux_data (`aux`, `aux_data`, `metadata`, `meta`, `static`) and its first is not, or, with neutral
    names, the first is star-unpacked into the constructor (`cls(*a)`) while the second is used whole.

Why is this bad:
    JAX calls `unflatten(aux_data, children)`, whatever the parameters are called (measured, jax 0.10.2).
    With `aux_data=None` it raises `TypeError: ... argument after * must be an iterable, not NoneType`;
    with aux_data a tuple of strings, `jax.tree.map` silently returns an object built from the strings,
    and jit then fails with `... returned a value of type <class 'str'>, which is not a valid JAX type`.

Example:
    jax.tree_util.register_pytree_node(
        Point,
        lambda p: ((p.x, p.y), None),
        lambda children, aux: Point(*children),     # PTL303
    )

Use instead:
    `lambda aux, children: Point(*children)`. `pytree-lint --fix` swaps the two parameters when the
    function is used nowhere else.

Known limits:
    Judged by the names and by star-unpacking; an unflatten with other names that reads its parameters
    some other way is not reported.

Fix safety:
    `--fix` swaps the two parameters in the signature (names and annotations), so each name holds what
    the body expects. Safe when nothing in the module calls the function itself (JAX always passes
    `(aux_data, children)`); otherwise the fix is only shown (`--diff`).
"""

from __future__ import annotations

from ..base import Report, Rule
from ...runtime.probes import ExamplesProbe
from .probes import probe_round_trip


class UnflattenArgumentsSwapped(Rule):
    code = "PTL303"
    name = "unflatten-arguments-swapped"
    summary = "unflatten is written `(children, aux_data)` instead of `(aux_data, children)`"
    runtime = ExamplesProbe(probe_round_trip)

    def check(self, analysis):
        for registration in analysis.registrations:
            function = registration.unflatten
            if function is None or (function.cls is not None and not (function.is_classmethod
                                                                      or function.is_staticmethod)):
                continue
            swapped = analysis.structure.swapped_parameters(function)
            if swapped is not None:
                first, second = swapped.first, swapped.second
                yield Report(function.name_node,
                             f"unflatten of `{registration.class_name}` takes `({first}, {second})`, but JAX calls "
                             f"it with `(aux_data, children)`: it receives aux_data as `{first}` (with "
                             "`aux_data=None`: `TypeError: ... must be an iterable`; otherwise a silently wrong "
                             f"object); write `({second}, {first})`", target=registration.target,
                             fix=analysis.swap_parameters_fix(function))
