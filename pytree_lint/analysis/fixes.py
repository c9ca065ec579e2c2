"""Fixes as the analysis sees them: a plan (which codemod, on which node) and whether it is safe.

A rule that can mend its finding returns a `FixPlan` (PTL102 and PTL303 say which, in their modules); the
libcst fix engine (pytree_lint.codemods) turns plans into edits, only when a fix is asked for (`--fix`,
`--diff`, JSON). Safe means the edit cannot change what the module does where it is correct: `--fix`
applies only those; unsafe fixes are shown, never applied.

The module-wide questions that decide safety (who calls a function, who mutates a name) are answered from
one walk of the module, made the first time a fix asks, so their cost does not grow with the findings.
"""

from __future__ import annotations

import ast
import enum
from functools import cached_property

from .pytrees.mutations import changed_in_place, receiver_name
from .record import record
from .syntax.model import FunctionInfo, ModuleIndex, is_name, nodes_of


class Codemod(enum.Enum):
    SWAP_PARAMETERS = "swap-parameters"  # the first two parameters of a def or lambda
    IMMUTABLE_CONTAINER = "immutable-container"  # a list/set display, comprehension or list()/set() call
    UNWRAP = "unwrap"  # a call replaced by its first argument: `nnx.data(depth)` -> `depth`
    WRAP = "wrap"  # an expression given to a call: `[...]` -> `nnx.List([...])` (the call's spelling in `names`)


@record
class FixPlan:
    """A fix to make: `description` may hold `{replacement}`, which the fix engine fills with the code
    it writes."""

    description: str
    safe: bool
    codemod: Codemod
    node: ast.AST
    names: tuple[str, ...] = ()  # SWAP_PARAMETERS: the two parameters, in the order written; WRAP: the call


class FixSafety:
    """The module-wide facts that decide whether a fix is safe, gathered in one walk."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    @cached_property
    def _sites(self) -> tuple[dict[str, ast.Call], dict[str, tuple[int, ast.AST]]]:
        """The first call of each function name, and the first mutation or isinstance check of each name
        (with its place in source order)."""
        calls: dict[str, ast.Call] = {}
        mutations: dict[str, tuple[int, ast.AST]] = {}

        def mutated(name: str | None, order: int, node: ast.AST) -> None:
            if name is not None and name not in mutations:
                mutations[name] = (order, node)

        for order, node in enumerate(nodes_of(self.index.tree, (ast.Call, ast.AugAssign, ast.Assign, ast.Delete))):
            for receiver in changed_in_place(node):
                mutated(receiver_name(receiver), order, node)
            if isinstance(node, ast.Call):
                called = receiver_name(node.func)
                if called is not None:
                    calls.setdefault(called, node)
                if is_name(node.func, "isinstance") and node.args:
                    mutated(receiver_name(node.args[0]), order, node)
        return calls, mutations

    def called(self, function: FunctionInfo) -> ast.Call | None:
        """A call of the function written in the module (`unflatten(...)`, `cls.tree_unflatten(...)`)."""
        if function.is_lambda:
            return None  # a lambda handed to the registration is referenced nowhere else
        return self._sites[0].get(function.name)

    def mutation(self, names: list[str]) -> ast.AST | None:
        """Where the module first mutates `x` or `obj.x` for a name x of `names`, or checks it for list/set."""
        found = [self._sites[1][name] for name in names if name in self._sites[1]]
        return min(found, key=lambda site: site[0])[1] if found else None
