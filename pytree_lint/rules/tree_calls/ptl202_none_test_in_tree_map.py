"""PTL202 none-test-in-tree-map

What it does:
    Finds a function given to `jax.tree.map` (or `tree_map_with_path`) that tests its leaf argument
    against None (`x is None`, `x is not None`), when the call has no `is_leaf` that admits None.

Why is this bad:
    None is an empty pytree node, not a leaf: the mapped function never receives it, so the test never
    fires (measured, jax 0.10.2): `jax.tree.map(lambda x: 0 if x is None else x, [None, 1.0])` returns
    `[None, 1.0]`. Defaults meant for missing entries are silently never filled in. (Only a later tree
    can pass None to the function: the structure comes from the first.)

Example:
    filled = jax.tree.map(lambda x: default if x is None else x, overrides)    # PTL202

Use instead:
    `jax.tree.map(lambda x: default if x is None else x, overrides, is_leaf=lambda x: x is None)`

Known false positives:
    None known. Not reported: a call with an `is_leaf` that may admit None (anything but a lambda, or a
    def that only returns, whose result is a plain `isinstance(x, ...)` test of types that exclude None),
    a def that the module also calls directly, where its None test serves those calls, and a test whose None
    branch gives None or the leaf back (`None if x is None else f(x)`, `if x is None: return None`): the map
    keeps a None subtree as it is, as that branch would.

    A multi-tree map whose first tree holds None where another holds a value (seen, or expected by the
    function's test of its first parameter) is PTL204's: there the None breaks the map.

Known limits:
    The function must be a lambda or a def of the module; only its leaf parameter (the first, or the
    second for `map_with_path`) is judged.
"""

from __future__ import annotations

import ast
from typing import Any

from ...analysis.pytrees.treecalls import TreeCall, leaf_parameter, none_test_of
from ...analysis.syntax.model import is_name, nodes_of, returned_expression
from ...knowledge.jax import MAP_KINDS
from ...knowledge.triggers import TREE_CALL_TRIGGERS
from ...runtime.observe import Outcome, TreeCallRecord, jax_module
from ...runtime.probes import TreeCallProbe
from ..base import Report, Rule


def _none_paths(tree: Any) -> list[str]:
    jax = jax_module()
    pairs = jax.tree_util.tree_leaves_with_path(tree, is_leaf=lambda x: x is None)
    return [jax.tree_util.keystr(path) or "(the root)" for path, leaf in pairs if leaf is None]


def judge_none(record: TreeCallRecord) -> Outcome | None:
    """The tree held None, and the mapped function never received it."""
    nones = _none_paths(record.first_tree)
    if not nones or None in record.received:
        return None
    return Outcome("confirmed", f"the tree holds None at {', '.join(nones[:3])}, but the mapped function "
                                f"was called {len(record.received)} times and never with None")


class NoneTestInTreeMap(Rule):
    code = "PTL202"
    name = "none-test-in-tree-map"
    summary = "a function given to a tree map tests its leaf against None, which never reaches it"
    runtime = TreeCallProbe(judge_none)
    triggers = TREE_CALL_TRIGGERS

    def check(self, analysis):
        for call in analysis.tree_call_sites:
            if id(call.node) in analysis.nones_in_first_trees:
                continue  # the None does reach the map, and breaks it: PTL204
            test = none_test(analysis, call)
            if test is not None:
                yield Report(call.node,
                             f"the mapped function tests `{analysis.snippet(test)}` "
                             f"({analysis.located(test).split(' at ')[-1]}), but None is an empty subtree: "
                             "this tree map never passes it to the function, so the test never fires; add "
                             "`is_leaf=lambda x: x is None`")


def none_test(analysis, call: TreeCall) -> ast.Compare | None:
    """The None test of the leaf parameter of the function a tree map applies, when the call's `is_leaf`
    (if any) rejects None and nothing else calls the function (whose test may serve those calls)."""
    if call.kind not in MAP_KINDS or call.function is None:
        return None
    if call.is_leaf is not None and not _rejects_none(analysis, call):
        return None
    function = analysis.tree_calls.function_of(call.function, call)
    parameter = leaf_parameter(function, call.kind) if function is not None else None
    if parameter is None or analysis.tree_calls.called_directly(function):
        return None
    return none_test_of(function, parameter)


def _rejects_none(analysis, call: TreeCall) -> bool:
    """`is_leaf=lambda x: isinstance(x, T)` (or a def that returns that, however it is reached) with types T
    that None is not an instance of: None still never reaches the function. Anything else may admit it
    (`lambda x: not isinstance(x, dict)` does)."""
    function = analysis.tree_calls.function_of(call.is_leaf, call)
    if function is None or not function.params:
        return False
    body = function.node.body if function.is_lambda else returned_expression(function)
    parameter = function.params[0].name
    if not (isinstance(body, ast.Call) and is_name(body.func, "isinstance")
            and analysis.index.is_builtin("isinstance") and len(body.args) == 2 and not body.keywords
            and is_name(body.args[0], parameter)):
        return False
    types = body.args[1].elts if isinstance(body.args[1], ast.Tuple) else [body.args[1]]
    return not _mentions_none(body.args[1]) and not any(
        is_name(t, "object") or isinstance(t, ast.Call) for t in types)


def _mentions_none(expr: ast.AST) -> bool:
    return any(node.value is None for node in nodes_of(expr, ast.Constant))
