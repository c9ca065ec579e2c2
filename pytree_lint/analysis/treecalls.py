"""Calls of JAX's tree functions (`jax.tree.map`, `jax.tree_util.tree_leaves`, ... through any alias), with
the function they map, the trees they consume and what those trees are made of.

Rules PTL201-PTL203 ask about the tree a call consumes: a tree of shape tuples, a dict view or
generator, or a function that waits for a None the tree map never passes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..knowledge.jax import SHAPE_FUNCTIONS, TREE_FUNCTIONS
from ..knowledge.python import DICT_VIEWS, ITERATOR_NAMES
from .model import FUNCTIONS, FunctionInfo, ModuleIndex, keyword_arguments, nodes_of

TREE_MODULES = frozenset({"jax.tree", "jax.tree_util"})


@dataclass(eq=False)
class TreeCall:
    node: ast.Call
    kind: str  # "map", "leaves", "reduce", ...
    function: ast.expr | None  # what a map or reduce applies
    trees: list[ast.expr]  # the trees it consumes, the first (which gives the structure) first
    is_leaf: ast.expr | None
    scope: FunctionInfo | None  # the def or lambda the call is in
    statement: ast.stmt | None  # the statement of `scope` that makes the call


class TreeCalls:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    def spellings(self) -> tuple[str, ...]:
        """Text a statement must contain to call a tree function: "tree", or a local name that stands for
        one (`from jax.tree_util import tree_map as tm`) or for its module (`from jax import tree as T`)."""
        local = [name for name, qualified in self.index.aliases.items()
                 if qualified in TREE_FUNCTIONS or qualified in TREE_MODULES]
        return ("tree", *local)

    def find(self) -> list[TreeCall]:
        """Every tree call of the module, with the innermost def or lambda and statement around it.
        Only the top-level statements whose text spells a tree function are walked."""
        words = self.spellings()
        lines = self.index.source.lines
        found: list[TreeCall] = []
        for statement in self.index.tree.body:
            first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
            text = "".join(lines[first - 1:statement.end_lineno])
            if any(word in text for word in words):
                self._collect(statement, None, None, found)
        return found

    def _collect(self, node: ast.AST, scope: FunctionInfo | None, statement: ast.stmt | None,
                 found: list[TreeCall]) -> None:
        pending: list[tuple[ast.AST, FunctionInfo | None, ast.stmt | None]] = [(node, scope, statement)]
        while pending:
            node, scope, statement = pending.pop()
            if isinstance(node, ast.stmt) and not isinstance(node, (*FUNCTIONS, ast.ClassDef)):
                statement = node
            elif isinstance(node, FUNCTIONS):
                scope, statement = FunctionInfo(node), None
            elif isinstance(node, ast.Lambda):
                scope = FunctionInfo(node)
            if isinstance(node, ast.Call):
                call = self._tree_call(node, scope, statement)
                if call is not None:
                    found.append(call)
            pending.extend((child, scope, statement) for child in reversed(list(ast.iter_child_nodes(node))))

    def _tree_call(self, call: ast.Call, scope: FunctionInfo | None, statement: ast.stmt | None) -> TreeCall | None:
        known = TREE_FUNCTIONS.get(self.index.qualify(call.func) or "")
        if known is None:
            return None
        kind, first_tree = known
        positional = [a for a in call.args if not isinstance(a, ast.Starred)]
        keywords = keyword_arguments(call)
        function = positional[0] if first_tree == 1 and positional else keywords.get("f", keywords.get("function"))
        trees = positional[first_tree:] if kind != "reduce" else positional[1:2]
        if "tree" in keywords:
            trees = [keywords["tree"], *trees]
        return TreeCall(call, kind, function, trees, keywords.get("is_leaf"), scope, statement)

    # what values are ----------------------------------------------------------------------------------------
    def values_of(self, expr: ast.expr, call: TreeCall) -> list[ast.expr]:
        """The expressions a name can hold where `call` reads it (itself for anything else); empty when
        some assignment is unknown (a loop target, a parameter)."""
        if not isinstance(expr, ast.Name):
            return [expr]
        scope = call.scope
        if scope is not None and not scope.is_lambda:
            if expr.id in scope.all_params:
                return []
            values = [b.value for b in scope.bindings_before(expr.id, call.statement)]
        elif scope is None and self.index.aliases.is_module_local(expr.id):
            values = self.index.bindings.get(expr.id, [])
        else:
            return []
        if not values or any(not isinstance(v, ast.expr) for v in values):
            return []
        return values

    def function_of(self, expr: ast.expr | None, call: TreeCall) -> FunctionInfo | None:
        """The lambda or def a tree map applies: written there, a local def, or a module-level def."""
        if isinstance(expr, ast.Lambda):
            return FunctionInfo(expr)
        if not isinstance(expr, ast.Name):
            return None
        scope = call.scope
        if scope is not None and not scope.is_lambda:
            local = scope.local_bindings.get(expr.id)
            if local is not None:
                return FunctionInfo(local[0]) if len(local) == 1 and isinstance(
                    local[0], (*FUNCTIONS, ast.Lambda)) else None
        return self.index.module_function(expr.id)

    def returns_shape(self, expr: ast.expr | None, call: TreeCall) -> ast.AST | None:
        """The shape a mapped function returns (`x.shape`, `jnp.shape(x)`, `tuple(x.shape)`), if it does."""
        if expr is not None and self.index.qualify(expr) in SHAPE_FUNCTIONS:
            return expr
        function = self.function_of(expr, call)
        if function is None:
            return None
        if function.is_lambda:
            results = [function.node.body]
        else:
            results = [r.value for r in function.return_statements if r.value is not None]
        leaf = function.params[0].name if function.params else None
        shapes = [r for r in results if self._is_shape(r, leaf)]
        return shapes[0] if shapes and len(shapes) == len(results) else None

    def _is_shape(self, expr: ast.expr, leaf: str | None) -> bool:
        if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("tuple", "list")
                and len(expr.args) + len(expr.keywords) == 1 and expr.args):
            return self._is_shape(expr.args[0], leaf)
        if isinstance(expr, ast.Subscript):
            first = expr.slice.elts[0] if isinstance(expr.slice, ast.Tuple) and expr.slice.elts else expr.slice
            return self._is_shape(expr.value, leaf) and isinstance(first, ast.Slice)
        if isinstance(expr, ast.Attribute) and expr.attr == "shape":
            return isinstance(expr.value, ast.Name) and expr.value.id == leaf
        if isinstance(expr, ast.Call) and self.index.qualify(expr.func) in SHAPE_FUNCTIONS and expr.args:
            return isinstance(expr.args[0], ast.Name) and expr.args[0].id == leaf
        return False

    def iterator(self, expr: ast.expr) -> str | None:
        """What single-use iterable an expression makes: "a dict view", "a generator", "a `zip` object"."""
        if isinstance(expr, ast.GeneratorExp):
            return "a generator"
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in DICT_VIEWS and not expr.args and not expr.keywords:
            return f"a dict view (`.{func.attr}()`)"
        if isinstance(func, ast.Name) and func.id in ITERATOR_NAMES and self.index.is_builtin(func.id):
            return f"a `{func.id}` object"
        return None

    def none_test(self, call: TreeCall) -> ast.Compare | None:
        """The None test of the leaf parameter of the function a tree map applies, when no `is_leaf` of the
        call may admit None (one that is a lambda never naming None does not)."""
        if call.kind not in ("map", "map_with_path") or call.function is None:
            return None
        if call.is_leaf is not None and not (isinstance(call.is_leaf, ast.Lambda) and not _mentions_none(call.is_leaf)):
            return None
        function = self.function_of(call.function, call)
        parameter = _leaf_parameter(function, call.kind) if function is not None else None
        return _none_test_in(function, parameter) if parameter is not None else None


def _none_test_in(function: FunctionInfo, parameter: str) -> ast.Compare | None:
    """A test of `parameter` against None in a function's body (`x is None`, `x is not None`, `x == None`)
    whose None branch would change the result; `x if x is None else f(x)` keeps None, as JAX does anyway."""
    harmless: set[int] = set()
    body = function.node.body
    pending: list[ast.AST] = list(reversed(body)) if isinstance(body, list) else [body]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.IfExp) and _is_none_test(node.test, parameter):
            is_none = isinstance(node.test.ops[0], (ast.Is, ast.Eq))
            branch = node.body if is_none else node.orelse
            if (isinstance(branch, ast.Name) and branch.id == parameter) or (
                    isinstance(branch, ast.Constant) and branch.value is None):
                harmless.add(id(node.test))
        if _is_none_test(node, parameter) and id(node) not in harmless:
            return node
        if not isinstance(node, (*FUNCTIONS, ast.Lambda)):
            pending.extend(reversed(list(ast.iter_child_nodes(node))))
    return None


def _is_none_test(node: ast.AST, parameter: str) -> bool:
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return False
    operands = (node.left, node.comparators[0])
    return isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) and any(
        isinstance(o, ast.Constant) and o.value is None for o in operands) and any(
        isinstance(o, ast.Name) and o.id == parameter for o in operands)


def _leaf_parameter(function: FunctionInfo, kind: str) -> str | None:
    """The parameter a tree map passes the first tree's leaf to (after the key path for `map_with_path`)."""
    position = 1 if kind == "map_with_path" else 0
    return function.params[position].name if len(function.params) > position else None


def _mentions_none(expr: ast.AST) -> bool:
    return any(node.value is None for node in nodes_of(expr, ast.Constant))
