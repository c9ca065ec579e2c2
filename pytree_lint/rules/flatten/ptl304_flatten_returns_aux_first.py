"""PTL304 flatten-returns-aux-first

What it does:
    Finds a flatten function that returns `(aux_data, children)`: `None`, literals or other hashable
    values (ints, strings, shapes) first, and arrays second.

Why is this bad:
    JAX takes the first element as the children and the second as aux_data, whatever they hold
    (measured, jax 0.10.2). With `None` first it raises `ValueError: The to_iterable function for a custom
    PyTree node should return a (children, aux_data) tuple where 'children' is iterable, got (None, ...)`.
    With a tuple of ints first it is silently accepted: the ints become the leaves, the arrays become
    aux_data (compared with `==` on every jitted call), and `jax.grad` raises `TypeError: grad requires
    real- or complex-valued inputs ... but got int32`.

Example:
    def tree_flatten(self):
        return (self.n,), (self.w, self.b)      # PTL304

Use instead:
    `return (self.w, self.b), (self.n,)`

Known false positives:
    None known. The first element must be values known to be hashable and the second an array or the
    attributes unflatten rebuilds from the children: a flatten whose first element is unknown is left alone.

Known limits:
    Reported only when the first element is known to be hashable (a literal, None, an int or a shape)
    and the second is known to hold an array, or holds the attributes unflatten rebuilds from the
    children.
"""

from __future__ import annotations

from typing import Any

from ...runtime.observe import Outcome, aux_values, describe, first_line, held, is_array, jax_module
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_aux_first(examples: list[Any], target: str | None) -> Outcome:
    try:
        leaves = jax_module().tree.leaves(examples[0])
    except Exception as error:
        return Outcome("confirmed", f"flattening the example raised {first_line(error)}")
    found = held(aux_values(examples[0], target), is_array)
    if found is not None and not any(is_array(leaf) for leaf in leaves):
        return Outcome("confirmed", f"the leaves are {describe(leaves)} while {found[0]} is a "
                                    f"{describe(found[1])}: children and aux_data are swapped")
    return Outcome("unconfirmed", f"the leaves are {describe(leaves)}")


class FlattenReturnsAuxFirst(Rule):
    code = "PTL304"
    name = "flatten-returns-aux-first"
    summary = "flatten returns `(aux_data, children)`"
    runtime = ExamplesProbe(probe_aux_first, structural=True)

    def check(self, analysis):
        for swap in analysis.swapped_returns.values():
            if swap.array is not None:
                second = f"an array second ({analysis.origin(swap.array)})"
            else:
                second = ("second the attributes unflatten rebuilds from the children ("
                          + ", ".join(f"`{a}`" for a in swap.expected) + ")")
            yield Report(swap.node,
                         f"flatten of {swap.registration.class_named} returns hashable values first "
                         f"(`{analysis.snippet(swap.children)}`) and {second}: JAX reads `(children, aux_data)`, "
                         "so the arrays become aux_data and the hashable values the leaves; swap them",
                         target=swap.registration.target)
