"""Version shims: `nnx.List(xs) if hasattr(nnx, "List") else list(xs)` is `nnx.List(xs)` on every version
of the library the knowledge describes, so it is judged by that branch alone (joining it with the fallback
would read a data container as a static list)."""

from __future__ import annotations

import ast

from ...knowledge import KNOWN_NAMES
from .model import ModuleIndex, literal_string


def taken_branch(index: ModuleIndex, expr: ast.IfExp) -> ast.expr | None:
    """The branch a feature test takes on the supported library versions: `A if hasattr(lib, "name") else
    B` is A (and `B if not hasattr(...) else A` is A) when `lib.name` is a name the knowledge knows; None for
    any other test."""
    test, negated = expr.test, False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, True
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "hasattr"
            and len(test.args) == 2 and not test.keywords and index.is_builtin("hasattr")):
        return None
    owner, name = index.qualify(test.args[0]), literal_string(test.args[1])
    if owner is None or name is None or f"{owner}.{name}" not in KNOWN_NAMES:
        return None
    return expr.orelse if negated else expr.body
