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

from .base import TREE_CALL_TRIGGERS, Report, Rule


class NoneTestInTreeMap(Rule):
    code = "PTL202"
    name = "none-test-in-tree-map"
    summary = "a function given to a tree map tests its leaf against None, which never reaches it"
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
