"""PTL307 keyed-flatten-disagrees

What it does:
    For a registration with both a keyed and a plain flatten (`register_pytree_with_keys` with
    `flatten_func`, or a `register_pytree_with_keys_class` class with `tree_flatten` and
    `tree_flatten_with_keys`), compares the attributes each returns as children, in order.

Why is this bad:
    JAX uses the plain flatten for `tree.leaves`, `tree.map` and jit, and the keyed one for the `*_with_path`
    functions, and never checks that they agree (measured, jax 0.10.2): `tree.leaves` gave `[100, 1]`
    while `tree_leaves_with_path` gave `[('.a', 1.0), ('.b', 100.0)]`, and a `tree.map` round trip
    gave `(100.0, 1.0)` where `tree_map_with_path` gave `(1.0, 100.0)`. Paths label the wrong leaves.

Example:
    jax.tree_util.register_pytree_with_keys(
        Pair,
        lambda p: (((GetAttrKey("a"), p.a), (GetAttrKey("b"), p.b)), None),
        lambda aux, children: Pair(*children),
        lambda p: ((p.b, p.a), None),          # PTL307
    )

Use instead:
    Return the same attributes in the same order from both, or leave out `flatten_func`: JAX derives it
    from `flatten_with_keys`.

Known false positives:
    None known. Not reported: flattens whose children are not all `self.<attribute>` (their order cannot
    be compared).

Known limits:
    Compared only when both return displays of `self.<attr>` children.
"""

from __future__ import annotations

from typing import Any

from ...runtime.observe import Outcome, jax_module, same_leaves
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_keyed(examples: list[Any], target: str | None) -> Outcome:
    jax = jax_module()
    plain = jax.tree.leaves(examples[0])
    with_path = jax.tree_util.tree_leaves_with_path(examples[0])
    difference = same_leaves(plain, [leaf for _path, leaf in with_path])
    if difference is not None:
        paths = ", ".join(jax.tree_util.keystr(path) for path, _leaf in with_path)
        return Outcome("confirmed", f"tree.leaves and tree_leaves_with_path (paths {paths}) disagree: {difference}")
    return Outcome("unconfirmed", "tree.leaves and tree_leaves_with_path give the same leaves")


class KeyedFlattenDisagrees(Rule):
    code = "PTL307"
    name = "keyed-flatten-disagrees"
    summary = "`flatten_with_keys` and `flatten_func` of one registration disagree on order or content"
    runtime = ExamplesProbe(probe_keyed, structural=True)

    def check(self, analysis):
        structure = analysis.structure
        for registration in analysis.registrations:
            plain, keyed = registration.flatten, registration.flatten_with_keys
            if plain is None or keyed is None or plain is keyed:
                continue
            keyed_orders = {tuple(c.attributes) for c in structure.flatten_children(keyed, True)
                            if c.attributes and None not in c.attributes}
            if len(keyed_orders) != 1:
                continue
            keyed_order = next(iter(keyed_orders))
            for children in structure.flatten_children(plain, False):
                attributes = children.attributes
                if attributes and None not in attributes and tuple(attributes) != keyed_order:
                    yield Report(children.node,
                                 f"the plain flatten of {registration.class_named} returns "
                                 f"{_listed(attributes)} but its keyed flatten returns {_listed(keyed_order)}: "
                                 "tree.leaves/tree.map and the *_with_path functions then label different "
                                 "leaves, silently; return the same attributes in the same order",
                                 target=registration.target)


def _listed(attributes) -> str:
    return "(" + ", ".join(f"`{a}`" for a in attributes) + ")"
