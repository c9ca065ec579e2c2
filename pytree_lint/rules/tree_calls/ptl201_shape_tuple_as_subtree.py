"""PTL201 shape-tuple-as-subtree

What it does:
    Follows the result of a tree map whose function returns a shape (`lambda x: x.shape`, `jnp.shape`,
    `np.shape`, `tuple(x.shape)`), directly, through local variables, or through a def of the module
    (or one nested in it) that returns it from its only `return` (alone, as an element of its tuple or
    dict, or kept by the object it builds: `shapes, n = shapes_and_count(params)`), to a tree function
    that takes it as its first tree
    (`jax.tree.map`, `jax.tree.leaves`, `jax.tree.reduce`, ...) without `is_leaf`.

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

Known false positives:
    None known. Not reported: shapes passed as the second or a later tree (the first tree gives the
    structure), any call with `is_leaf`, and `jax.eval_shape` results (ShapeDtypeStruct leaves).

Known limits:
    Followed through local and module-level names, the defs of the module with one `return`, and the
    functions of other project modules whose body only returns it; a def with several returns, or another
    module's that does more than return it, is not followed.
"""

from __future__ import annotations

import ast
from typing import Any

from ...analysis.pytrees.treecalls import TreeCall
from ...analysis.syntax.model import written_as
from ...knowledge.jax import MAP_KINDS, SHAPE_FUNCTIONS
from ...knowledge.triggers import TREE_CALL_TRIGGERS
from ...runtime.observe import Outcome, TreeCallRecord, describe, jax_module
from ...runtime.probes import TreeCallProbe
from ..base import Report, Rule


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
        producers = {id(call.node): call for call in analysis.tree_call_sites if call.kind in MAP_KINDS}
        for call in analysis.tree_call_sites:
            if call.is_leaf is not None or not call.trees:
                continue
            for value in calls.values_of(call.trees[0], call):
                producer = calls.tree_call_of(value, producers, call.scope)
                shape = returned_shape(analysis, producer.function, producer) if producer is not None else None
                if shape is not None:
                    yield Report(call.node,
                                 f"the first tree of this `{call.kind}` is a tree of shapes "
                                 f"({analysis.located(producer.node)} returns `{analysis.snippet(shape)}`): a "
                                 "shape is a tuple, so its ints become the leaves; map over the arrays, use "
                                 "`jax.eval_shape`, or pass `is_leaf=lambda x: isinstance(x, tuple)`")
                    break


def returned_shape(analysis, expr: ast.expr | None, call: TreeCall) -> ast.AST | None:
    """The shape a mapped function returns (`x.shape`, `jnp.shape(x)`, `tuple(x.shape)`), if it does."""
    if expr is not None and analysis.index.qualify(written_as(expr, call.scope, analysis.index)) in SHAPE_FUNCTIONS:
        return expr  # `jnp.shape`, or a helper returning it
    function = analysis.tree_calls.function_of(expr, call)
    if function is None:
        return None
    if function.is_lambda:
        results = [function.node.body]
    else:
        results = [r.value for r in function.return_statements if r.value is not None]
    leaf = function.params[0].name if function.params else None
    shapes = [r for r in results if _is_shape(analysis.index, r, leaf)]
    return shapes[0] if shapes and len(shapes) == len(results) else None


def _is_shape(index, expr: ast.expr, leaf: str | None) -> bool:
    if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("tuple", "list")
            and len(expr.args) + len(expr.keywords) == 1 and expr.args):
        return _is_shape(index, expr.args[0], leaf)
    if isinstance(expr, ast.Subscript):
        first = expr.slice.elts[0] if isinstance(expr.slice, ast.Tuple) and expr.slice.elts else expr.slice
        return _is_shape(index, expr.value, leaf) and isinstance(first, ast.Slice)
    if isinstance(expr, ast.Attribute) and expr.attr == "shape":
        return isinstance(expr.value, ast.Name) and expr.value.id == leaf
    if isinstance(expr, ast.Call) and index.qualify(expr.func) in SHAPE_FUNCTIONS and expr.args:
        return isinstance(expr.args[0], ast.Name) and expr.args[0].id == leaf
    return False
