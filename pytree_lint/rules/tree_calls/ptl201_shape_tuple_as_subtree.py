"""PTL201 shape-tuple-as-subtree

What it does:
    Follows the result of a tree map whose function returns a shape (`lambda x: x.shape`, `jnp.shape`,
    `np.shape`, `tuple(x.shape)`), directly or through local variables, to a tree function that takes it
    as its first tree (`jax.tree.map`, `jax.tree.leaves`, `jax.tree.reduce`, ...) without `is_leaf`.

Why is this bad:
    A shape is a tuple, and a tuple is a pytree node: its ints are the leaves, not the shape (measured,
    jax 0.10.2). `jax.tree.map(jnp.ones, shapes)` silently returns `[((2,), (3,)), ((3,), (4,))]` (one
    array per dimension); `jax.tree.leaves(shapes)` is `[2, 3, 3, 4]`, and a parameter count made with
    `tree.reduce` gives 14 instead of 25. JAX does not warn.

Example:
    shapes = jax.tree.map(lambda x: x.shape, params)
    zeros = jax.tree.map(jnp.zeros, shapes)             # PTL201

Use instead:
    Map over the arrays themselves (`jax.tree.map(jnp.zeros_like, params)`), use `jax.eval_shape`
    (ShapeDtypeStruct leaves), pass the shapes as a second tree (`jax.tree.map(f, params, shapes)`), or
    say where the leaves are: `is_leaf=lambda x: isinstance(x, tuple)`.

Known limits:
    Followed through local and module-level names in one module; a tree of shapes returned by another
    function is not followed.
"""

from __future__ import annotations

from typing import Any

from ..base import TREE_CALL_TRIGGERS, Report, Rule
from ...runtime.observe import Outcome, TreeCallRecord, describe, jax_module
from ...runtime.probes import TreeCallProbe


def _shape_tuples(tree: Any) -> list[tuple]:
    jax = jax_module()
    return [node for node in jax.tree.leaves(tree, is_leaf=lambda x: isinstance(x, tuple))
            if isinstance(node, tuple) and node and all(isinstance(n, int) for n in node)]


def judge_shapes(record: TreeCallRecord) -> Outcome | None:
    """The first tree of the call held shape tuples, and JAX took their ints as the leaves."""
    if record.has_is_leaf:
        return None
    shapes = _shape_tuples(record.first_tree)
    if not shapes:
        return None
    leaves = jax_module().tree.leaves(record.first_tree)
    return Outcome("confirmed", f"the first tree of this `{record.kind}` holds shape tuples such as "
                                f"{shapes[0]}; JAX took their ints as the leaves: {describe(leaves)}")


class ShapeTupleAsSubtree(Rule):
    code = "PTL201"
    name = "shape-tuple-as-subtree"
    summary = "a tree of shape tuples is the first tree of a tree map, leaves or reduce (its ints become leaves)"
    runtime = TreeCallProbe(judge_shapes)
    triggers = TREE_CALL_TRIGGERS

    def check(self, analysis):
        calls = analysis.tree_calls
        producers = {id(call.node): call for call in analysis.tree_call_sites if call.kind in ("map", "map_with_path")}
        for call in analysis.tree_call_sites:
            if call.is_leaf is not None or not call.trees:
                continue
            for value in calls.values_of(call.trees[0], call):
                producer = producers.get(id(value))
                shape = calls.returns_shape(producer.function, producer) if producer is not None else None
                if shape is not None:
                    yield Report(call.node,
                                 f"the first tree of this `{call.kind}` is a tree of shapes "
                                 f"({analysis.located(producer.node)} returns `{analysis.snippet(shape)}`): a "
                                 "shape is a tuple, so its ints become the leaves; map over the arrays, use "
                                 "`jax.eval_shape`, or pass `is_leaf=lambda x: isinstance(x, tuple)`")
                    break
