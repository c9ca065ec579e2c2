"""PTL204 none-in-first-tree-of-multi-tree-map

What it does:
    Finds a tree map over several trees (`jax.tree.map(f, priors, data)`, `tree_map_with_path`) whose
    first tree holds None where another tree holds a value, with no `is_leaf`. The first tree's None is
    seen in a list, tuple or dict display (or the one such display a name holds): a None literal or a
    conditional with a None branch. The other tree's value is seen the same way, or the mapped function
    tests its first parameter against None, which says its author pairs that None with the others' values.
    Where the first tree is not seen (a parameter, a call's result), that test alone is the evidence,
    unless the module also calls the function directly (its test may serve those calls). A function that
    maps its own parameters, untouched, as every tree of such a map (`def combine(a, b): return
    jax.tree.map(f, a, b)`, or one returning a call of such a function that passes them on), in this
    module or another of the project, is a map too: a call of it whose first tree holds None where
    another holds a value is reported at that call, and the message cites the map it makes.

Why is this bad:
    JAX takes the structure from the first tree, and None is an empty subtree, a prefix only of None
    (since jax 0.4.34; a deprecation warning from 0.4.29). Where another tree holds a value, the map
    raises (measured, jax 0.10.2): `ValueError: pytree structure error: different types at key path
    tree_map tree[0] ... the prefix pytree tree_map tree has a subtree of type <class 'NoneType'> but at
    the same key path the full pytree has a subtree of different type <class 'float'>`. Code written for
    the old behaviour (optax's masked updates, jaxpruner's masks) broke when JAX changed.

Example:
    priors = [None, jnp.zeros(3)]
    jax.tree.map(lambda p, d: d if p is None else p + d, priors, data)       # PTL204

Use instead:
    Let None reach the function as a leaf: `jax.tree.map(f, priors, data, is_leaf=lambda x: x is None)`,
    or put a tree without None first (`jax.tree.map(lambda d, p: ..., data, priors)`: a None in a later
    tree is passed to the function).

Known false positives:
    A first tree that never holds None, mapped by a function that tests its first parameter anyway: the
    test is then dead code, and the map does not raise. Not reported: a call with any `is_leaf`, and a
    None that every other tree also holds (or may hold) at the same place: both are empty subtrees and match.

Known limits:
    Only displays written in the module, and names bound once to one, are read; Nones held by dataclass
    fields or built by loops are not seen.
"""

from __future__ import annotations

from ...analysis.pytrees.treecalls import TreeCall
from ...knowledge.triggers import TREE_CALL_TRIGGERS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule


class NoneInFirstTreeOfMultiTreeMap(Rule):
    code = "PTL204"
    name = "none-in-first-tree-of-multi-tree-map"
    summary = "a tree map over several trees whose first tree holds None where another holds a value"
    runtime = ReproduceProbe(("pytree structure error", "Expected None"), where="line")
    triggers = TREE_CALL_TRIGGERS

    def check(self, analysis):
        for none in analysis.nones_in_first_trees.values():
            first = f"`{analysis.snippet(none.call.trees[0])}`"
            if none.call.forwarded_to is not None:  # given to a function that maps it first (maybe through others)
                mapped = none.call.map_made
                where = analysis.located(mapped.node if isinstance(mapped, TreeCall) else mapped)
                given = analysis.snippet(none.call.node.func)
                first += f" given to `{given}`, which maps it as the first tree ({where}),"
            if none.none is None:
                found = (f"the mapped function expects None in the first tree {first} "
                         f"({analysis.located(none.test)}) paired with the other trees' values, but None is an "
                         "empty subtree: wherever the first tree holds None and another a value,")
            else:
                holds = f"the first tree {first} holds None at `{none.path}` ({analysis.located(none.none)})"
                against = (f"where another tree holds {analysis.located(none.paired)}" if none.paired is not None
                           else f"which the mapped function pairs with the other trees' values "
                                f"({analysis.located(none.test)})")
                found = f"{holds}, {against}: None is an empty subtree, so the structures differ and"
            yield Report(none.call.node,
                         f"{found} the map raises `ValueError: pytree structure error`; pass "
                         "`is_leaf=lambda x: x is None`, or put a tree without None first")
