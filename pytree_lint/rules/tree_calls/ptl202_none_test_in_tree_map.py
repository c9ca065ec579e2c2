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

Known limits:
    The function must be a lambda or a def of the module; only its leaf parameter (the first, or the
    second for `map_with_path`) is judged.
"""

from __future__ import annotations

from typing import Any

from ..base import TREE_CALL_TRIGGERS, Report, Rule
from ...runtime.observe import Outcome, TreeCallRecord, jax_module
from ...runtime.probes import TreeCallProbe


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
            test = analysis.tree_calls.none_test(call)
            if test is not None:
                yield Report(call.node,
                             f"the mapped function tests `{analysis.snippet(test)}` "
                             f"({analysis.located(test).split(' at ')[-1]}), but None is an empty subtree: "
                             "this tree map never passes it to the function, so the test never fires; add "
                             "`is_leaf=lambda x: x is None`")
