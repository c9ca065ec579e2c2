"""Calls of JAX's tree functions (`jax.tree.map`, `jax.tree_util.tree_leaves`, ... through any alias), with
the function they map, the trees they consume and what those trees are made of.

Rules PTL201-PTL203 ask about the tree a call consumes (`values_of`: what a name holds where the call
reads it) and the function it applies (`function_of`).
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from functools import partial
from itertools import pairwise, repeat

from ...knowledge.jax import MAP_KINDS, MAP_NAMES, TREE_FUNCTIONS
from ..record import record
from ..syntax.model import (
    DEFINITIONS,
    FUNCTIONS,
    WITHOUT_CALLS,
    FunctionInfo,
    ModuleIndex,
    bound_arguments,
    changed_names,
    child_nodes,
    display_element,
    element_key,
    elements,
    excludes_none,
    is_inlined,
    is_name,
    is_none,
    keyword_arguments,
    none_test,
    sole_return,
    statement_blocks,
    walk_statements,
    written_as,
)
from ..values.inference import Elsewhere

TREE_MODULES = frozenset({"jax.tree", "jax.tree_util"})
# The statements a call in them is made by: all but defs and classes (their bodies hold their own statements).
_NOT_DEFINITIONS = frozenset(kind for kind in ast.stmt.__subclasses__() if kind not in DEFINITIONS)


@record
class TreeCall:
    node: ast.Call
    kind: str  # "map", "leaves", "reduce", ...
    function: ast.expr | None  # what a map or reduce applies
    trees: list[ast.expr]  # the trees it consumes, the first (which gives the structure) first
    is_leaf: ast.expr | None
    scope: FunctionInfo | None  # the def or lambda the call is in
    statement: ast.stmt | None  # the statement of `scope` that makes the call
    # A call of a function that maps its own parameters as the trees (see TreeCalls.forwarded): the map
    # it makes (in this module, or in another one); `trees` are then the arguments it passes, read here.
    forwarded_to: TreeCall | Elsewhere | None = None

    @property
    def map_made(self) -> TreeCall | Elsewhere:
        """The tree function's own call this call ends in: itself, or the map a chain of functions passing
        their parameters on makes (in this module, or another's, as messages cite it)."""
        made: TreeCall | Elsewhere = self
        while isinstance(made, TreeCall) and made.forwarded_to is not None:
            made = made.forwarded_to
        return made


@record
class MapSink:
    """A function that maps its own parameters, untouched, as every tree of a multi-tree map: how a call
    binds its parameters, which of them are the trees (the first tree's first), and the map it makes."""

    positional: list[tuple[str, ast.expr | None]]
    keyword_only: list[tuple[str, ast.expr | None]]
    trees: list[str]
    kind: str
    mapped: TreeCall | Elsewhere


@record
class MapForwarding:
    """The module's functions that map their parameters as trees (by name: the map, or the call of
    another such function, each makes of them) and the calls of such functions, as the maps they make."""

    sinks: dict[str, TreeCall]
    calls: list[TreeCall]


@record
class NoneInFirstTree:
    """A None the first tree of a multi-tree map holds (`none`, at `path`), paired with a value of another
    tree (`paired`), or with what the mapped function expects there (`test`: it tests its first
    parameter against None). With a first tree that is not seen (`none` is None), the test alone says the
    author pairs a None there with the other trees' values."""

    call: TreeCall
    none: ast.expr | None
    path: str
    paired: ast.expr | None
    test: ast.Compare | None


class TreeCalls:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._changed: dict[int, frozenset[str]] = {}  # id of a scope's node -> the names changed in it

    def spellings(self) -> tuple[str, ...]:
        """Text a statement must contain to call a tree function: "tree", or a local name that stands for
        one (`from jax.tree_util import tree_map as tm`) or for its module (`from jax import tree as T`)."""
        local = [name for name, qualified in self.index.aliases.items()
                 if qualified in TREE_FUNCTIONS or qualified in TREE_MODULES]
        return ("tree", *local)

    def find(self) -> list[TreeCall]:
        """Every tree call of the module, with the innermost def or lambda and statement around it.
        Only the top-level statements whose text spells a tree function are walked."""
        return self._find(self.spellings(), self._tree_call)

    def find_maps(self) -> list[TreeCall]:
        """The tree calls outside the module's classes, on the lines that spell a tree map (`.map`,
        `.tree_map`; a name imported by itself or by `*`; not `vmap`): those among which a function mapping its
        own parameters makes its map (see maps_parameters)."""
        aliases = self.index.aliases
        local = [name for name, qualified in aliases.items() if TREE_FUNCTIONS.get(qualified, ("",))[0] in MAP_KINDS]
        bare = MAP_NAMES if aliases.star_modules else ()
        return self._find((*(f".{name}" for name in MAP_NAMES), *local, *bare), self._tree_call,
                          outside_classes=True)

    def _find(self, words: tuple[str, ...], recognise, outside_classes: bool = False) -> list[TreeCall]:
        found: list[TreeCall] = []
        for statement, lines in self.index.lines_spelling(words, outside_classes):
            self._collect(statement, sorted(lines), found, recognise)
        return found

    def forwarded(self, calls: list[TreeCall], outside_classes: bool = False) -> MapForwarding:
        """The calls of functions that pass their own parameters on as every tree of a multi-tree map
        (`def combine(a, b): return jax.tree.map(f, a, b)`), each as the map it makes with the trees it is
        given: a sink summary, so a None its caller puts in the first tree is seen where it is written.
        Such functions are this module's (`calls` holds their maps), those that pass their parameters on
        to one in turn, and those another module of the project defines (from its summary).
        `outside_classes`: the calls in the module's classes are not looked for (a method is never a sink)."""
        sinks: dict[str, TreeCall] = {}
        found: list[TreeCall] = []
        new = self._imported_sinks()
        pending = calls
        for _ in range(len(self.index.functions) + 1):  # each round adds a function: a chain ends here
            local = {call.scope.name: call for call in pending  # type: ignore[union-attr]
                     if self.maps_parameters(call) and call.scope.name not in sinks}  # type: ignore[union-attr]
            sinks.update(local)
            new.update((name, self._local_sink(call)) for name, call in local.items())
            if not new:
                break
            pending = self._find(tuple(new), partial(self._forwarding, sinks=new), outside_classes)
            found.extend(pending)
            new = {}
        return MapForwarding(sinks, found)

    def _local_sink(self, call: TreeCall) -> MapSink:
        function = self.index.functions[call.scope.name]  # type: ignore[union-attr]
        return MapSink([(p.name, p.default) for p in function.positional_params],
                       [(p.name, p.default) for p in function.keyword_only_params],
                       [tree.id for tree in call.trees], call.kind, call)  # type: ignore[attr-defined]

    def _imported_sinks(self) -> dict[str, MapSink]:
        """The functions the module imports from the project that map their parameters as trees (their
        parameters' defaults are not known: a call must give each of them)."""
        project = self.index.project
        if project is None:
            return {}
        found = {}
        for local, _target in self.index.aliases.items():
            definition = self.index.definition(ast.Name(local))
            made = project.tree_map(definition) if definition is not None else None
            if made is not None:
                facts, module = made
                found[local] = MapSink([(name, None) for name in definition.function.params],  # type: ignore
                                       [], list(facts.trees), facts.kind,
                                       Elsewhere(facts.text, module.display_path, facts.line))
        return found

    def maps_parameters(self, call: TreeCall) -> bool:
        """A multi-tree map, with no `is_leaf`, in a module-level function that gives it its own positional
        parameters, untouched, as every tree."""
        scope = call.scope
        if call.kind not in MAP_KINDS or len(call.trees) < 2 or call.is_leaf is not None \
                or scope is None or scope.is_lambda:
            return False
        own = self.index.functions.get(scope.name)
        if own is None or own.node is not scope.node or not self.index.aliases.is_module_local(scope.name):
            return False
        names = {p.name for p in scope.positional_params}
        return all(isinstance(tree, ast.Name) and tree.id in names and not scope.bindings_before(
            tree.id, call.statement) and not self._changed_in_place(tree.id, call) for tree in call.trees)

    def _forwarding(self, call: ast.Call, scope: FunctionInfo | None, statement: ast.stmt | None,
                    sinks: dict[str, MapSink]) -> TreeCall | None:
        """A call of one of `sinks` by name, as the map it makes (its trees the arguments it passes)."""
        if not isinstance(call.func, ast.Name) or call.func.id not in sinks or (
                scope is not None and not scope.is_lambda and call.func.id in scope.local_bindings):
            return None
        sink = sinks[call.func.id]
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        bound = bound_arguments(call.args, call.keywords, sink.positional, sink.keyword_only)
        if bound is None:
            return None
        return TreeCall(call, sink.kind, None, [bound[tree] for tree in sink.trees], None, scope, statement,
                        sink.mapped)

    def _collect(self, node: ast.AST, lines: list[int], found: list[TreeCall], recognise) -> None:
        """The calls below `node` that `recognise` makes a TreeCall of, walking only the nodes whose lines
        hold a spelling (`lines`), never into a name or a constant (no call is below one)."""
        pending: list[tuple[ast.AST, FunctionInfo | None, ast.stmt | None]] = [(node, None, None)]
        last = len(lines)
        while pending:
            node, scope, statement = pending.pop()
            end = getattr(node, "end_lineno", None)
            if end is not None:
                nearest = bisect_left(lines, node.lineno)
                if nearest == last or lines[nearest] > end:
                    continue
            kind = type(node)
            if kind is ast.Call:
                call = recognise(node, scope, statement)
                if call is not None:
                    found.append(call)
            elif kind in _NOT_DEFINITIONS:
                statement = node
            elif kind in FUNCTIONS:
                scope, statement = FunctionInfo(node), None
            elif kind is ast.Lambda:
                scope = FunctionInfo(node)
            children = [child for child in child_nodes(node) if type(child) not in WITHOUT_CALLS]
            if children:
                children.reverse()
                pending.extend(zip(children, repeat(scope), repeat(statement)))

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
        """The expressions a name can hold where `call` reads it, each as a def's body writes it when it is
        what a def returns (see _as_a_def_writes; itself for anything else); empty when some assignment is
        unknown (a loop target, a parameter)."""
        if not isinstance(expr, ast.Name):
            return [self._as_a_def_writes(expr, call.scope)]
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
        return [self._as_a_def_writes(value, scope) for value in values]

    def _as_a_def_writes(self, expr: ast.expr, scope: FunctionInfo | None, depth: int = 0) -> ast.expr:
        """A call of a def that returns one value (`def shapes_of(p): return jax.tree.map(f, p)`, its only
        `return`, after other statements or in a loop), an element
        of one's returned display (`make(p)[0]`) or an attribute its returned construction keeps (`make(p).x`),
        or a conditional whose branches are written alike, as the def's body writes it (through a chain of
        such defs): the module's own nodes, whose tree calls are the module's (unlike written_as, which copies
        them to the call); another module's def, from its summary, copied to the call (see tree_call_of)."""
        caller = scope if scope is not None and not scope.is_lambda else None
        for _ in range(8):  # a chain of defs is short; a def returning its own call ends here
            if isinstance(expr, ast.IfExp) and ast.dump(expr.body) == ast.dump(expr.orelse):
                written = expr.body  # two branches written alike
            elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
                callee = self.index.function_named(expr.func.id, caller)
                written = sole_return(callee) if callee is not None else self.index.inlined(expr, caller)
                caller = callee if callee is not None and written is not None else caller  # its names are
                # the callee's from here (another module's expression, inlined: the caller's)
            elif isinstance(expr, ast.Subscript) and (key := element_key(expr.slice)) is not None and depth < 8:
                written = display_element(self._as_a_def_writes(expr.value, caller, depth + 1), key)
            elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Call) and depth < 8:
                built = self._as_a_def_writes(expr.value, caller, depth + 1)
                written = self.index.kept_argument(built, expr.attr) if isinstance(built, ast.Call) else None
            else:
                written = None
            if written is None:
                break
            expr = written
        return expr

    def tree_call_of(self, node: ast.AST, known: dict[int, TreeCall], scope: FunctionInfo | None) -> TreeCall | None:
        """The tree call a value is: one of the module's (`known`, by node), or another module's copied to
        the call that makes it (an inlined expression: see _as_a_def_writes)."""
        found = known.get(id(node))
        if found is None and isinstance(node, ast.Call) and is_inlined(node):
            found = self._tree_call(node, scope, None)
        return found

    def called_directly(self, function: FunctionInfo) -> bool:
        """A def that the module also calls by name (`fill(x)`), outside the tree maps."""
        if function.is_lambda:
            return False
        return any(isinstance(call.func, ast.Name) and call.func.id == function.name
                   for call, _in_function in self.index.calls_mentioning((function.name,)))

    def function_of(self, expr: ast.expr | None, call: TreeCall) -> FunctionInfo | None:
        """The lambda or def a tree map applies: written there (or returned by a helper: see written_as), a
        local def, or a module-level def."""
        if expr is not None:
            expr = written_as(expr, call.scope, self.index)
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

    # None in the first tree ----------------------------------------------------------------------------------
    def none_in_first_tree(self, call: TreeCall) -> NoneInFirstTree | None:
        """The first None of a multi-tree map's first tree that another tree pairs with a value, or, for a
        first tree not seen, a None test of the mapped function's first leaf parameter; when the call has
        no `is_leaf` (which may admit None). JAX takes the structure from the first tree, where None is an
        empty subtree, so the other trees no longer match it there."""
        if call.kind not in MAP_KINDS or len(call.trees) < 2 or call.is_leaf is not None:
            return None
        function = self.function_of(call.function, call)
        parameter = leaf_parameter(function, call.kind) if function is not None else None
        # A def the module also calls directly may test None for those calls (diffrax's `_maybe_static`).
        test = none_test_of(function, parameter) if parameter is not None and not self.called_directly(function) \
            else None
        for steps, none in self._nones(call.trees[0], call, ()):
            paired = [self._at(tree, steps, call) for tree in call.trees[1:]]
            if any(is_none(value) or _may_be_none(value) for value in paired if value is not None):
                continue  # None there too: both are empty subtrees, and they match
            value = next((value for value in paired if value is not None), None)
            if value is not None or test is not None:
                return NoneInFirstTree(call, none, "".join(f"[{step!r}]" for step in steps), value, test)
        if test is not None and self._display(call.trees[0], call) is None:
            return NoneInFirstTree(call, None, "", None, test)  # the first tree is not seen: the test speaks
        return None

    def _nones(self, tree: ast.expr, call: TreeCall, steps: tuple,
               names: frozenset[str] = frozenset()) -> list[tuple[tuple, ast.expr]]:
        """(steps, node) for each None a display holds, or a name bound once to one: a None literal, or a
        conditional expression with a None branch. `names`: those read on the way, each read once (`x = (a,
        x)` rebinds `x` to a display holding its earlier value, which a name read where the call is cannot
        tell from the display itself)."""
        if steps and (is_none(tree) or _may_be_none(tree)):
            return [(steps, tree)]
        if isinstance(tree, ast.Name):
            if tree.id in names:
                return []
            names = names | {tree.id}
        display = self._display(tree, call)
        if display is None:
            return []
        return [found for step, element in display for found in self._nones(element, call, (*steps, step), names)]

    def _at(self, tree: ast.expr, steps: tuple, call: TreeCall) -> ast.expr | None:
        """The element of a display at `steps` (None: unknown)."""
        for step in steps:
            display = self._display(tree, call)
            tree = dict(display).get(step) if display is not None else None
            if tree is None:
                return None
        return tree

    def _display(self, tree: ast.expr, call: TreeCall) -> list[tuple[object, ast.expr]] | None:
        """(index or key, element) of a list, tuple or dict display with literal keys, or of the one such
        display a name is bound to where the call reads it."""
        if isinstance(tree, ast.Name):
            values = self.values_of(tree, call)
            if len(values) != 1 or isinstance(values[0], ast.Name) or self._changed_in_place(tree.id, call):
                return None
            tree = values[0]
        tree = written_as(tree, call.scope, self.index)
        items = elements(tree)
        if items is not None:
            return list(enumerate(items))
        if isinstance(tree, ast.Dict) and all(isinstance(k, ast.Constant) for k in tree.keys):
            return [(k.value, v) for k, v in zip(tree.keys, tree.values)]
        return None

    def _changed_in_place(self, name: str, call: TreeCall) -> bool:
        """Whether the scope of the call changes `name` after binding it (`masks[i] = m`, `masks.append(m)`,
        `masks += [m]`): its display no longer says what it holds. One walk per scope, for every name (a
        walk per tree of each call: 2% of a cold optimistix run's instructions, its maps at module level)."""
        scope = call.scope.node if call.scope is not None else self.index.tree
        changed = self._changed.get(id(scope))
        if changed is None:
            changed = self._changed[id(scope)] = changed_names(scope)
        return name in changed


def _may_be_none(node: ast.expr) -> bool:
    """`x if cond else None`: the element is None on some path."""
    return isinstance(node, ast.IfExp) and (is_none(node.body) or is_none(node.orelse))


def leaf_parameter(function: FunctionInfo, kind: str, tree: int = 0) -> str | None:
    """The parameter a tree map passes the leaves of its tree `tree` to (after the key path for
    `map_with_path`)."""
    position = tree + (1 if kind == "map_with_path" else 0)
    return function.params[position].name if len(function.params) > position else None


def none_test_of(function: FunctionInfo, parameter: str) -> ast.Compare | None:
    """A test of `parameter` against None in a function's body (`x is None`, `x is not None`, `x == None`;
    not in its nested defs) whose None branch would change the result: `x if x is None else f(x)`,
    `None if x is None else f(x)`, `if x is None: return None` and `if y is None or x is None: return x` keep
    None, as JAX does anyway."""
    harmless: set[int] = set()
    body = function.node.body
    following = _following(body) if isinstance(body, list) else {}
    pending: list[ast.AST] = list(reversed(body)) if isinstance(body, list) else [body]
    while pending:
        node = pending.pop()
        deciding = _none_branch_test(node.test, parameter) if isinstance(node, (ast.IfExp, ast.If)) else None
        if deciding is not None:
            branch = node.body if _holds_when_none(deciding, parameter) else node.orelse
            if isinstance(node, ast.If):
                branch = _branch_result(function, node, branch, following.get(id(node)))
            if (isinstance(branch, ast.Name) and branch.id == parameter) or (
                    isinstance(branch, ast.Constant) and branch.value is None):
                harmless.add(id(deciding))
        if isinstance(node, ast.Compare) and _holds_when_none(node, parameter) is not None and id(node) not in harmless:
            return node
        if isinstance(node, (ast.If, ast.IfExp)):  # a branch a type test keeps None from is not walked
            walked: list[ast.AST] = [node.test]
            for holds, branch in ((True, node.body), (False, node.orelse)):
                if not excludes_none(node.test, holds, lambda tested: is_name(tested, parameter)):
                    walked.extend(branch if isinstance(branch, list) else [branch])
            pending.extend(reversed(walked))
        elif not isinstance(node, (*FUNCTIONS, ast.Lambda)):
            pending.extend(reversed(child_nodes(node)))
    return None


def _following(body: list[ast.stmt]) -> dict[int, ast.stmt]:
    """The statement right after each statement of a body in its block, by the statement's id (nested defs
    not entered)."""
    blocks = [body, *(block for statement, _blocks in walk_statements(body) if not isinstance(statement, DEFINITIONS)
                      for block in statement_blocks(statement))]
    return {id(first): second for block in blocks for first, second in pairwise(block)}


def _branch_result(function: FunctionInfo, statement: ast.If, branch: list[ast.stmt],
                   after: ast.stmt | None) -> ast.expr | None:
    """What the function returns when a branch of an `if` runs: a branch that only returns (`return None`);
    or, when the statement right after the `if` returns a name (`return res`), what the branch last assigns
    it (`res = None`) or, for an empty branch, the one assignment before the `if` (`res = None`, then `if x
    is not None: res = f(x)`); an empty branch, what the function returns right after the `if` (`if x is not
    None: return f(x)`, then `return None`, or nothing more: None). None when it cannot be told."""
    if len(branch) == 1 and isinstance(branch[0], ast.Return):
        return branch[0].value or ast.Constant(None)
    if not branch and after is None and isinstance(function.node.body, list) and function.node.body[-1] is statement:
        return ast.Constant(None)  # the function ends with the `if`
    if not branch and isinstance(after, ast.Return) and not isinstance(after.value, ast.Name):
        return after.value or ast.Constant(None)
    if not (isinstance(after, ast.Return) and isinstance(after.value, ast.Name)):
        return None
    name = after.value.id
    if not branch:
        bound = function.bindings_before(name, statement)
        if not bound and name in function.all_params:  # the parameter itself, as it was given
            return after.value
        return bound[0].value if len(bound) == 1 and isinstance(bound[0].value, ast.expr) else None
    last = branch[-1]
    earlier = [node for statement in branch[:-1] for node in ast.walk(statement)]
    if any(isinstance(node, (ast.Return, ast.Raise)) for node in earlier) or not (
            isinstance(last, ast.Assign) and len(last.targets) == 1 and is_name(last.targets[0], name)):
        return None
    rebound = {node.id for node in earlier if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return None if isinstance(last.value, ast.Name) and last.value.id in rebound else last.value  # `x = 0; res = x`


def _none_branch_test(test: ast.expr, parameter: str) -> ast.Compare | None:
    """The None test of `parameter` that decides which branch of an `if` runs when it is None: the test
    itself, a `x is None` an `or` holds (its body runs then), or a `x is not None` an `and` holds (its `else`
    runs then)."""
    if isinstance(test, ast.Compare) and _holds_when_none(test, parameter) is not None:
        return test
    if isinstance(test, ast.BoolOp):
        positive = isinstance(test.op, ast.Or)
        return next((value for value in test.values if isinstance(value, ast.Compare)
                     and _holds_when_none(value, parameter) is positive), None)
    return None


def _holds_when_none(node: ast.AST, parameter: str) -> bool | None:
    """Whether a None test of `parameter` (see none_test) holds when it is None; None for any other node."""
    found = none_test(node)
    return found[1] if found is not None and is_name(found[0], parameter) else None
