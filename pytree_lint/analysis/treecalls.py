"""Calls of JAX's tree functions (`jax.tree.map`, `jax.tree_util.tree_leaves`, ... through any alias), with
the function they map, the trees they consume and what those trees are made of.

Rules PTL201-PTL203 ask about the tree a call consumes: a tree of shape tuples, a dict view or
generator, or a function that waits for a None the tree map never passes.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..slicing import DICT_VIEWS, ITERATOR_NAMES
from .index import FunctionInfo, ModuleIndex, nodes_of

# Qualified name -> (what it does, the position of its first tree argument).
TREE_FUNCTIONS = {
    **{f"jax.tree.{name}": (name, 1 if name in ("map", "map_with_path", "reduce") else 0) for name in (
        "map", "map_with_path", "leaves", "leaves_with_path", "flatten", "flatten_with_path", "structure",
        "reduce", "all")},
    **{f"jax.tree_util.tree_{name}": (name, 1 if name in ("map", "map_with_path", "reduce") else 0) for name in (
        "map", "map_with_path", "leaves", "leaves_with_path", "flatten", "flatten_with_path", "structure",
        "reduce", "all")},
    "jax.tree_map": ("map", 1), "jax.tree_leaves": ("leaves", 0), "jax.tree_flatten": ("flatten", 0),
    "jax.tree_structure": ("structure", 0), "jax.tree_reduce": ("reduce", 1),
}
SHAPE_FUNCTIONS = frozenset({"jax.numpy.shape", "numpy.shape"})


@dataclass(eq=False)
class TreeCall:
    node: cst.Call
    kind: str  # "map", "leaves", "reduce", ...
    function: cst.BaseExpression | None  # what a map or reduce applies
    trees: list[cst.BaseExpression]  # the trees it consumes, the first (which gives the structure) first
    is_leaf: cst.BaseExpression | None
    scope: FunctionInfo | None  # the def or lambda the call is in
    statement: cst.CSTNode | None  # the statement of `scope` that makes the call


class _Collector(cst.CSTVisitor):
    """Every call with the innermost function and statement around it."""

    def __init__(self) -> None:
        self.functions: list[FunctionInfo | None] = [None]
        self.statements: list[cst.CSTNode | None] = [None]
        self.calls: list[tuple[cst.Call, FunctionInfo | None, cst.CSTNode | None]] = []

    def visit_FunctionDef(self, node) -> None:
        self.functions.append(FunctionInfo(node))
        self.statements.append(None)

    def leave_FunctionDef(self, original_node) -> None:
        self.functions.pop()
        self.statements.pop()

    def visit_Lambda(self, node) -> None:
        self.functions.append(FunctionInfo(node))

    def leave_Lambda(self, original_node) -> None:
        self.functions.pop()

    def on_visit(self, node) -> bool:
        if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)) and not isinstance(
                node, (cst.FunctionDef, cst.ClassDef)):
            self.statements.append(node)
        return super().on_visit(node)

    def on_leave(self, original_node) -> None:
        super().on_leave(original_node)
        if isinstance(original_node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)) and not isinstance(
                original_node, (cst.FunctionDef, cst.ClassDef)):
            self.statements.pop()

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append((node, self.functions[-1], self.statements[-1]))


class TreeCalls:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    def find(self, statements) -> list[TreeCall]:
        """The tree calls of these top-level statements of the module."""
        collector = _Collector()
        for statement in statements:
            statement.visit(collector)
        found = []
        for call, scope, statement in collector.calls:
            known = TREE_FUNCTIONS.get(self.index.qualify(call.func) or "")
            if known is None:
                continue
            kind, first_tree = known
            positional = [a.value for a in call.args if a.keyword is None and not a.star]
            keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
            function = positional[0] if first_tree == 1 and positional else keywords.get("f", keywords.get("function"))
            trees = positional[first_tree:] if kind != "reduce" else positional[1:2]
            if "tree" in keywords:
                trees = [keywords["tree"], *trees]
            found.append(TreeCall(call, kind, function, trees, keywords.get("is_leaf"), scope, statement))
        return found

    # what values are ----------------------------------------------------------------------------------------
    def values_of(self, expr: cst.BaseExpression, call: TreeCall) -> list[cst.BaseExpression]:
        """The expressions a name can hold where `call` reads it (itself for anything else); empty when
        some assignment is unknown (a loop target, a parameter)."""
        if not isinstance(expr, cst.Name):
            return [expr]
        scope = call.scope
        if scope is not None and isinstance(scope.node, cst.FunctionDef):
            if expr.value in scope.all_params:
                return []
            bindings = scope.bindings_before(expr.value, call.statement)
            values = [b.value for b in bindings]
        elif scope is None and self.index.aliases.is_module_local(expr.value):
            values = self.index.bindings.get(expr.value, [])
        else:
            return []
        if not values or any(not isinstance(v, cst.BaseExpression) for v in values):
            return []
        return values

    def function_of(self, expr: cst.BaseExpression | None, call: TreeCall) -> FunctionInfo | None:
        """The lambda or def a tree map applies: written there, a local def, or a module-level def."""
        if isinstance(expr, cst.Lambda):
            return FunctionInfo(expr)
        if not isinstance(expr, cst.Name):
            return None
        scope = call.scope
        if scope is not None and isinstance(scope.node, cst.FunctionDef):
            local = scope.local_bindings.get(expr.value)
            if local is not None:
                return FunctionInfo(local[0]) if len(local) == 1 and isinstance(
                    local[0], (cst.FunctionDef, cst.Lambda)) else None
        return self.index.module_function(expr.value)

    def returns_shape(self, expr: cst.BaseExpression | None, call: TreeCall) -> cst.CSTNode | None:
        """The shape a mapped function returns (`x.shape`, `jnp.shape(x)`, `tuple(x.shape)`), if it does."""
        if expr is not None and self.index.qualify(expr) in SHAPE_FUNCTIONS:
            return expr
        function = self.function_of(expr, call)
        if function is None:
            return None
        if isinstance(function.node, cst.Lambda):
            results = [function.node.body]
        else:
            results = [r.value for r in function.return_statements if r.value is not None]
        leaf = function.params[0].name.value if function.params else None
        shapes = [r for r in results if self._is_shape(r, leaf)]
        return shapes[0] if shapes and len(shapes) == len(results) else None

    def _is_shape(self, expr: cst.BaseExpression, leaf: str | None) -> bool:
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("tuple", "list") \
                and len(expr.args) == 1:
            return self._is_shape(expr.args[0].value, leaf)
        if isinstance(expr, cst.Subscript):
            return self._is_shape(expr.value, leaf) and isinstance(expr.slice[0].slice, cst.Slice)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "shape":
            return isinstance(expr.value, cst.Name) and expr.value.value == leaf
        if isinstance(expr, cst.Call) and self.index.qualify(expr.func) in SHAPE_FUNCTIONS and expr.args:
            return isinstance(expr.args[0].value, cst.Name) and expr.args[0].value.value == leaf
        return False

    def iterator(self, expr: cst.BaseExpression) -> str | None:
        """What single-use iterable an expression makes: "a dict view", "a generator", "a `zip` object"."""
        if isinstance(expr, cst.GeneratorExp):
            return "a generator"
        if not isinstance(expr, cst.Call):
            return None
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value in DICT_VIEWS and not expr.args:
            return f"a dict view (`.{func.attr.value}()`)"
        if isinstance(func, cst.Name) and func.value in ITERATOR_NAMES and self.index.is_builtin(func.value):
            return f"a `{func.value}` object"
        return None

    def none_test(self, call: TreeCall) -> cst.Comparison | None:
        """The None test of the leaf parameter of the function a tree map applies, when no `is_leaf` of the
        call may admit None (one that is a lambda never naming None does not)."""
        if call.kind not in ("map", "map_with_path") or call.function is None:
            return None
        if call.is_leaf is not None and not (isinstance(call.is_leaf, cst.Lambda) and not _mentions_none(call.is_leaf)):
            return None
        function = self.function_of(call.function, call)
        parameter = _leaf_parameter(function, call.kind) if function is not None else None
        return _none_test_in(function, parameter) if parameter is not None else None


def _none_test_in(function: FunctionInfo, parameter: str) -> cst.Comparison | None:
    """A test of `parameter` against None in a function's body (`x is None`, `x is not None`, `x == None`)
    whose None branch would change the result; `x if x is None else f(x)` keeps None, as JAX does anyway."""
    harmless: set[int] = set()
    pending = [function.node.body]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.IfExp) and _is_none_test(node.test, parameter):
            is_none = isinstance(node.test.comparisons[0].operator, (cst.Is, cst.Equal))
            branch = node.body if is_none else node.orelse
            if isinstance(branch, cst.Name) and branch.value in (parameter, "None"):
                harmless.add(id(node.test))
        if _is_none_test(node, parameter) and id(node) not in harmless:
            return node
        if not isinstance(node, (cst.FunctionDef, cst.Lambda)):
            pending.extend(reversed(node.children))
    return None


def _is_none_test(node: cst.CSTNode, parameter: str) -> bool:
    if not (isinstance(node, cst.Comparison) and len(node.comparisons) == 1):
        return False
    operands = (node.left, node.comparisons[0].comparator)
    return isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual)) and any(
        isinstance(o, cst.Name) and o.value == "None" for o in operands) and any(
        isinstance(o, cst.Name) and o.value == parameter for o in operands)


def _leaf_parameter(function: FunctionInfo, kind: str) -> str | None:
    """The parameter a tree map passes the first tree's leaf to (after the key path for `map_with_path`)."""
    position = 1 if kind == "map_with_path" else 0
    return function.params[position].name.value if len(function.params) > position else None


def _mentions_none(expr: cst.CSTNode) -> bool:
    return any(name.value == "None" for name in nodes_of(expr, cst.Name))
