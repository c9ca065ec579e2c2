"""Give libcst only the statements that can matter.

libcst parses about ten times slower than CPython's `ast`. A file that passes the text prefilter still
registers its pytrees in a few statements, so `relevant_source` uses `ast` (fast, in C) to keep the
top-level statements that mention a trigger, every import, and, transitively, the module-level
definitions those statements name (the registered classes, flatten functions, constants); a def that
kept code only calls keeps its signature, and its body becomes `...`. Everything else is left out, blank
lines included (libcst builds nodes for them too): the first line of each kept statement, returned with
the text, maps positions back to the file.
"""

from __future__ import annotations

import ast
import builtins
import io
import warnings
from bisect import bisect_right
from itertools import accumulate
from typing import Iterable

BUILTIN_NAMES = frozenset(dir(builtins))


def python_lines(text: str) -> list[str]:
    """The lines of `text` as Python numbers them: split at \\n, \\r\\n and \\r only (`str.splitlines`
    also splits at form feeds and Unicode separators, which would shift every later line)."""
    return io.StringIO(text, newline="").readlines()


def line_starts(lines: list[str]) -> list[int]:
    """The offset in the text at which each of its `lines` starts, and the text's length last."""
    return list(accumulate(map(len, lines), initial=0))


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _defined_names(statement: ast.stmt) -> set[str]:
    """Module-level names a top-level statement binds (looking inside if/try/with blocks)."""
    names: set[str] = set()
    pending = [statement]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name.split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in _nodes(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            pending.extend(node.body)
            pending.extend(getattr(node, "orelse", []))
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return names


def _nodes(node: ast.AST, lines: set[int] | None = None) -> list[ast.AST]:
    """Every node under `node`, itself included, in no particular order; with `lines`, only the nodes whose
    lines take in one of them (the path to a call written there, not the rest of a long def).
    `ast.walk` without its generators, which made walking the slicer's main cost."""
    found = []
    stack: list = [node]
    while stack:
        node = stack.pop()
        if not isinstance(node, ast.AST):
            continue  # None, or a str in a list field (`global a, b`)
        if lines is not None and hasattr(node, "lineno") and not any(
                node.lineno <= line <= (node.end_lineno or node.lineno) for line in lines):
            continue
        found.append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend(value)
            else:
                stack.append(value)
    return found


def _call_lines(text: str, lines: list[str], spans: list[tuple[int, int]],
                names: Iterable[str]) -> dict[int, set[int]]:
    """Per top-level statement (by index, from its `spans`), the lines on which it writes `name(` for one of
    `names`: one search of the whole text per name."""
    offsets = line_starts(lines)
    statement_starts = [start for start, _end in spans]
    found: dict[int, set[int]] = {}
    for name in names:
        call = f"{name}("
        position = text.find(call)
        while position >= 0:
            line = bisect_right(offsets, position)
            index = bisect_right(statement_starts, line) - 1
            while index >= 0 and spans[index][1] >= line:  # every statement on the line (`a = f([1]); b = 2`)
                found.setdefault(index, set()).add(line)
                index -= 1
            position = text.find(call, position + len(call))
    return found


def _used_names(node: ast.AST) -> set[str]:
    """The names a node reads or binds."""
    return {n.id for n in _nodes(node) if type(n) is ast.Name}


def _trigger_aliases(statements: list[ast.stmt], sources: list[str], triggers: tuple[str, ...]) -> set[str]:
    """Names that stand for a trigger without spelling it: `import ... register_pytree_node as reg`,
    `from flax import struct`, `register = jax.tree_util.register_pytree_node_class`."""
    aliases = set()
    for statement, source in zip(statements, sources):
        if not isinstance(statement, (ast.Import, ast.ImportFrom, ast.Assign)):
            continue
        if not any(t in source for t in triggers):
            continue
        if isinstance(statement, ast.Import):
            aliases.update(a.asname for a in statement.names
                           if a.asname and any(t in a.name for t in triggers))
        elif isinstance(statement, ast.ImportFrom):
            module = statement.module or ""
            aliases.update(a.asname or a.name for a in statement.names
                           if a.name != "*" and any(t in f"{module}.{a.name}" for t in triggers))
        elif (isinstance(statement, ast.Assign) and isinstance(statement.value, (ast.Name, ast.Attribute))
              and all(isinstance(target, ast.Name) for target in statement.targets)):
            aliases.update(target.id for target in statement.targets)
    return aliases


def _registered_classes(statement: ast.stmt, triggers: tuple[str, ...], nodes: list[ast.AST] | None = None) -> set[str]:
    """Names a statement hands to a trigger: `@register_static class C`, `register_static(C)` (`nodes`: the
    statement's, when the caller has them)."""
    def mentions(node: ast.expr) -> bool:
        text = ast.unparse(node)
        return any(t in text for t in triggers)

    found = set()
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            mentions(d) for d in statement.decorator_list):
        found.add(statement.name)
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) and mentions(statement.value):
        found.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    for node in nodes if nodes is not None else _nodes(statement):
        if isinstance(node, ast.Call):
            function = _dotted(node.func)
            if function and any(t in function for t in triggers):
                found.update(arg.id for arg in node.args if isinstance(arg, ast.Name))
    return found


def _dotted(node: ast.expr) -> str:
    """`a.b.c` for a Name/Attribute chain (cheaper than unparsing), '' for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


def parse_ast(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like are not our business
        return ast.parse(text)


def _anchor_lines(statements: list[ast.stmt]) -> list[int]:
    """Per statement as libcst sees them, the line its syntax starts on (`def`/`class`, not a decorator):
    statements that share a line (`a = 1; b = 2`) are one statement to libcst."""
    anchors: dict[int, int] = {}
    for statement in statements:
        anchors.setdefault(_first_line(statement), statement.lineno)
    return [anchors[line] for line in sorted(anchors)]


def statement_lines(tree: ast.Module) -> list[int]:
    return _anchor_lines(tree.body)


# What PTL403 reports at a static position, and so what the slicer looks for: a container built there
# (display, comprehension, one of these builtins) or an array made by one of these constructors.
UNHASHABLE_BUILTINS = frozenset({"list", "dict", "set", "sorted", "bytearray"})
ARRAY_CONSTRUCTOR_NAMES = frozenset({
    "array", "asarray", "arange", "zeros", "ones", "full", "empty", "linspace", "eye", "identity",
    "zeros_like", "ones_like", "full_like", "empty_like", "concatenate", "stack", "hstack", "vstack", "tile",
})


def _may_be_unhashable(value: ast.expr) -> bool:
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        return ((isinstance(func, ast.Name) and func.id in UNHASHABLE_BUILTINS | ARRAY_CONSTRUCTOR_NAMES)
                or (isinstance(func, ast.Attribute) and func.attr in ARRAY_CONSTRUCTOR_NAMES))
    return False


def _jit_declarations(statement: ast.stmt) -> list[ast.expr]:
    """Where a module-level jit declaration lives: the decorators of a def, the value of an assignment."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return list(statement.decorator_list)
    if isinstance(statement, ast.Assign):
        return [statement.value]
    return []


def _static_arguments(statement: ast.stmt, functions: dict[str, ast.stmt]) -> tuple[set[int], set[str]]:
    """The static positions and names a jit definition declares (`static_argnums`, `static_argnames`),
    each completed through the def's parameters, as JAX does (`functions`: the module's defs by name,
    for `g = jax.jit(f, ...)`)."""
    positions: set[int] = set()
    names: set[str] = set()
    for node in (n for declaration in _jit_declarations(statement) for n in _nodes(declaration)):
        for keyword in getattr(node, "keywords", ()):
            values = keyword.value.elts if isinstance(keyword.value, (ast.Tuple, ast.List)) else [keyword.value]
            constants = [v.value for v in values if isinstance(v, ast.Constant)]
            if keyword.arg == "static_argnums":
                positions.update(c for c in constants if isinstance(c, int))
            elif keyword.arg == "static_argnames":
                names.update(c for c in constants if isinstance(c, str))
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) and statement.value.args:
        wrapped = statement.value.args[0]
        statement = functions.get(wrapped.id, statement) if isinstance(wrapped, ast.Name) else statement
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        parameters = [a.arg for a in [*statement.args.posonlyargs, *statement.args.args]]
        names.update(parameters[i] for i in positions if 0 <= i < len(parameters))
        positions.update(i for i, p in enumerate(parameters) if p in names)
    return positions, names


def _jit_annotated(statement: ast.stmt, functions: dict[str, ast.stmt],
                   classes: set[str], triggers: tuple[str, ...]) -> tuple[ast.stmt | None, set[str]]:
    """A jitted def of a statement that annotates a parameter with a class of this module (PTL402's
    candidates: the def itself when a decorator names a trigger, or the def that `g = jax.jit(f)` wraps),
    and those classes; (None, set()) when there is none."""
    declarations = [d for d in _jit_declarations(statement) if any(t in _dotted_or_call(d) for t in triggers)]
    if not declarations:
        return None, set()
    if isinstance(statement, ast.Assign):
        wrapped = statement.value.args[0] if isinstance(statement.value, ast.Call) and statement.value.args else None
        statement = functions.get(wrapped.id) if isinstance(wrapped, ast.Name) else None
    if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None, set()
    arguments = statement.args
    annotations = [a.annotation for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                   if a.annotation is not None]
    named = {name for annotation in annotations for name in _used_names(annotation) & classes}
    named |= {a.value for a in annotations if isinstance(a, ast.Constant) and a.value in classes}
    return (statement, named) if named else (None, set())


# How a class whose fields can be jit leaves is declared (PTL402): a NamedTuple, or a decorator or base
# naming a dataclass, pytree node, struct or module (register_dataclass contains "dataclass").
RECORD_CLASS_WORDS = ("NamedTuple", "dataclass", "PyTreeNode", "Pytree", "Struct", "Module")


def _pytree_record_classes(statements: list[ast.stmt], sources: list[str]) -> set[str]:
    """Classes whose fields can be jit leaves (PTL402): NamedTuples, dataclass-style classes, and classes
    given to register_dataclass."""
    found = set()
    for statement, source in zip(statements, sources):
        if isinstance(statement, ast.ClassDef):
            if any(word in _dotted_or_call(node) for node in [*statement.bases, *statement.decorator_list]
                   for word in RECORD_CLASS_WORDS):
                found.add(statement.name)
        elif "register_dataclass" in source:
            found.update(_registered_classes(statement, ("register_dataclass",)))
    return found


def _dotted_or_call(node: ast.expr) -> str:
    """`jax.jit` for `jax.jit`, `jax.jit(...)` and `partial(jax.jit, ...)`."""
    if isinstance(node, ast.Call):
        return " ".join([_dotted(node.func), *(_dotted(a) for a in node.args[:1])])
    return _dotted(node)


def _passes_unhashable(nodes: list[ast.AST], statics: dict[str, tuple[set[int], set[str]]]) -> bool:
    """Does a statement (its `nodes`) pass something that may be unhashable at a static argument of `statics`?"""
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in statics:
            positions, names = statics[node.func.id]
            if any(_may_be_unhashable(v) for i, v in enumerate(node.args) if i in positions) or any(
                    _may_be_unhashable(k.value) for k in node.keywords if k.arg in names):
                return True
    return False


# What PTL201-PTL203 look for, and so what the slicer keeps a statement with a tree call for: an iterable
# that is one leaf, a mapped function returning a shape, a mapped function testing for None.
TREE_FUNCTION_NAMES = frozenset({
    "map", "map_with_path", "leaves", "leaves_with_path", "flatten", "flatten_with_path", "structure", "reduce",
    "all", "tree_map", "tree_map_with_path", "tree_leaves", "tree_leaves_with_path", "tree_flatten",
    "tree_flatten_with_path", "tree_structure", "tree_reduce", "tree_all",
})
# What PTL203 reports as a tree: a dict view, or an iterator made by one of these builtins.
DICT_VIEWS = frozenset({"values", "keys", "items"})
ITERATOR_NAMES = frozenset({"zip", "map", "filter", "enumerate", "reversed", "iter"})


def _is_none_test(node: ast.AST) -> bool:
    return isinstance(node, ast.Compare) and any(
        isinstance(c, ast.Constant) and c.value is None for c in [node.left, *node.comparators])


def _makes_iterator(node: ast.AST) -> bool:
    if isinstance(node, ast.GeneratorExp):
        return True
    return isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr in DICT_VIEWS and not node.args)
        or (isinstance(node.func, ast.Name) and node.func.id in ITERATOR_NAMES))


def _returns_shape(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr == "shape")
               or (isinstance(n, ast.Call) and _dotted(n.func).endswith("shape")) for n in _nodes(node))


def _is_tree_function(dotted: str, aliases: set[str]) -> bool:
    """`jax.tree.map`, `jtu.tree_leaves`, `tree_map` or an alias of one; not the builtins `map`/`all`."""
    *owner, name = dotted.split(".")
    if dotted in aliases:
        return True
    return name in TREE_FUNCTION_NAMES and (name.startswith("tree_") or bool(owner) and owner[-1] == "tree")


def _suspect_tree_call(nodes: list[ast.AST], functions: dict[str, ast.stmt], aliases: set[str]) -> bool:
    """Could a tree call of a statement (its `nodes`) be a PTL201-PTL203 finding? (A superset of what they
    report.)"""
    tree_calls = [n for n in nodes if isinstance(n, ast.Call) and _is_tree_function(_dotted(n.func), aliases)]
    if not tree_calls:
        return False
    arguments = [a for call in tree_calls for a in [*call.args, *(k.value for k in call.keywords)]]
    passed = {a.id for a in arguments if isinstance(a, ast.Name)}
    if any(_makes_iterator(a) for a in arguments) or any(
            isinstance(n, ast.Assign) and _makes_iterator(n.value)
            and any(isinstance(t, ast.Name) and t.id in passed for t in n.targets) for n in nodes):
        return True
    local = {n.name: n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for call in tree_calls:
        function = call.args[0] if call.args else None
        if isinstance(function, ast.Name):
            function = local.get(function.id, functions.get(function.id, function))
        if isinstance(function, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            if _returns_shape(function) or any(_is_none_test(n) for n in _nodes(function)):
                return True
        elif function is not None and _dotted(function).endswith("shape"):
            return True
    return False


def relevant_source(text: str, triggers: tuple[str, ...], tree: ast.Module | None = None,
                    instantiated_triggers: tuple[str, ...] = (),
                    called_triggers: tuple[str, ...] = (),
                    tree_call_triggers: tuple[str, ...] = (),
                    jitted_triggers: tuple[str, ...] = ()) -> tuple[str, list[int], set[int]] | None:
    """`text` with only the top-level statements a rule can need, and the line each kept statement starts
    on in `text` (see `_anchor_lines`).

    `instantiated_triggers`: for a class defined in a statement mentioning one of these (such as
    `register_static`), the statements that use the class are kept too, since a rule asks where it is built.
    `called_triggers`: for a function defined with one of these (`static_argnums`), the statements that
    call it with a possibly unhashable argument are kept. `tree_call_triggers` (`tree_map`, ...): a statement
    that names one is kept only if one of its tree calls may be misused (`_suspect_tree_call`).
    `jitted_triggers` (`jit`): a jitted def is kept only if it annotates a parameter with a class of the
    module (`_jit_annotated`).
    None when nothing but imports would be kept.
    Raises SyntaxError when `text` is not valid Python.
    """
    tree = tree if tree is not None else parse_ast(text)
    lines = python_lines(text)
    statements = tree.body
    spans = [(_first_line(s), s.end_lineno or s.lineno) for s in statements]
    sources = ["".join(lines[start - 1:end]) for start, end in spans]
    definitions: dict[str, list[int]] = {}
    for index, statement in enumerate(statements):
        for name in _defined_names(statement):
            definitions.setdefault(name, []).append(index)

    primary = tuple(t for t in triggers
                    if t not in called_triggers and t not in tree_call_triggers and t not in jitted_triggers)
    # Only the words the file contains, of the rules it concerns (see engine.prefilter), call for statements.
    jitted_triggers, called_triggers, tree_call_triggers = (
        tuple(t for t in kind if t in triggers) for kind in (jitted_triggers, called_triggers, tree_call_triggers))
    aliases = _trigger_aliases(statements, sources, primary)
    tree_aliases = _trigger_aliases(statements, sources, tree_call_triggers) if tree_call_triggers else set()
    functions = {s.name: s for s in statements if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    walked: dict[int, list[ast.AST]] = {}
    names_of: dict[int, tuple[set[str], set[str]]] = {}

    def nodes_of(index: int) -> list[ast.AST]:  # each statement is walked at most once
        if index not in walked:
            walked[index] = _nodes(statements[index])
        return walked[index]

    def names(index: int) -> tuple[set[str], set[str]]:
        """The names a statement uses, and those of them it only calls (`f(x)`, never `g(f)`)."""
        if index not in names_of:
            uses: dict[str, int] = {}
            calls: dict[str, int] = {}
            for node in nodes_of(index):
                if type(node) is ast.Name:
                    uses[node.id] = uses.get(node.id, 0) + 1
                elif type(node) is ast.Call and type(node.func) is ast.Name:
                    calls[node.func.id] = calls.get(node.func.id, 0) + 1
            names_of[index] = set(uses), {name for name, count in calls.items() if uses[name] == count}
        return names_of[index]

    def used(index: int) -> set[str]:
        return names(index)[0]

    def uses_any(index: int, wanted: set[str]) -> bool:  # the text first: most statements name none
        return any(name in sources[index] for name in wanted) and not used(index).isdisjoint(wanted)

    keep: set[int] = set()
    pending: list[int] = []
    suspects: set[int] = set()
    mentions_trigger: set[int] = set()  # a primary trigger or one of its aliases
    annotated: set[str] = set()
    if jitted_triggers:
        classes = _pytree_record_classes(statements, sources)
        positions = {id(statement): index for index, statement in enumerate(statements)}
        for index, source in enumerate(sources):
            if any(t in source for t in jitted_triggers):
                jitted, named = _jit_annotated(statements[index], functions, classes, jitted_triggers)
                if jitted is not None:
                    pending.extend([index, positions[id(jitted)]])
                    annotated |= named
        # Only a `Callable` field needs to be seen built (what a str or class field is, its annotation says).
        annotated = {s.name for s in statements if isinstance(s, ast.ClassDef) and s.name in annotated
                     and any(isinstance(n, ast.AnnAssign) and "Callable" in ast.unparse(n.annotation)
                             for n in s.body)}
    for index, (statement, source) in enumerate(zip(statements, sources)):
        if tree_call_triggers and (any(t in source for t in tree_call_triggers)
                                   or uses_any(index, tree_aliases)) and _suspect_tree_call(
                nodes_of(index), functions, tree_aliases):
            suspects.add(index)
        if any(t in source for t in primary) or uses_any(index, aliases):
            mentions_trigger.add(index)
        if isinstance(statement, (ast.Import, ast.ImportFrom)) or index in mentions_trigger or index in suspects:
            pending.append(index)
    watched: set[str] = set()
    registered: set[str] = set()
    for index in pending:
        if any(t in sources[index] for t in instantiated_triggers):
            watched.update(_registered_classes(statements[index], instantiated_triggers, nodes_of(index)))
        if isinstance(statements[index], ast.ClassDef):
            registered.add(statements[index].name)
        if index in mentions_trigger:
            registered.update(_registered_classes(statements[index], (*primary, *aliases), nodes_of(index)))
    # Functions jitted with static arguments matter only where one is called with something that may
    # be unhashable: then that call and the definition are kept, else neither.
    called: dict[str, int] = {}
    for index, source in enumerate(sources):
        if any(t in source for t in called_triggers):
            statement = statements[index]
            declared = [d for d in _jit_declarations(statement)
                        if any(isinstance(n, ast.keyword) and n.arg in called_triggers for n in _nodes(d))]
            if declared and isinstance(statement, ast.Assign):
                called.update(dict.fromkeys((t.id for t in statement.targets if isinstance(t, ast.Name)), index))
            elif declared and isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                called[statement.name] = index
    if called:
        statics = {name: _static_arguments(statements[index], functions) for name, index in called.items()}
        callers = [i for i, on in sorted(_call_lines(text, lines, spans, statics).items())
                   if _passes_unhashable(_nodes(statements[i], on), statics)]
        called_names = {name for i in callers for name in used(i) if name in called}
        pending.extend([*callers, *(called[name] for name in called_names)])
    # Module-level statements that build a registered class show the values its fields receive.
    if registered:
        pending.extend(index for index, statement in enumerate(statements)
                       if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)) and uses_any(index, registered))
    # The statements that build a class a jitted def is annotated with show what its fields hold.
    if annotated:
        pending.extend(index for index in range(len(statements)) if uses_any(index, annotated))
    stubs: dict[int, str] = {}  # defs kept as their signature alone: the line that stands for the body
    while pending:
        index = pending.pop()
        if index in keep:
            continue
        keep.add(index)
        used_names, only_called = names(index)
        for name in used_names:
            for definition in definitions.get(name, ()):
                if definition in keep or (definition in stubs and name in only_called):
                    continue
                stub = _stub_line(statements[definition], lines) if name in only_called else None
                if stub is not None:
                    stubs[definition] = stub
                    pending.extend(d for n in _signature_names(statements[definition]) for d in definitions.get(n, ()))
                else:
                    pending.append(definition)
    if watched:
        for index in range(len(statements)):
            if index not in keep and uses_any(index, watched):
                keep.add(index)

    kept_lines = [False] * (len(lines) + 2)
    changed = True
    while changed:  # statements that share a line (`a = 1; b = 2`) are kept or dropped together
        changed = False
        for index in keep:
            start, end = spans[index]
            kept_lines[start:end + 1] = [True] * (end + 1 - start)
        for index, (start, end) in enumerate(spans):
            if index not in keep and True in kept_lines[start:end + 1]:
                keep.add(index)
                changed = True
    if all(isinstance(statements[index], (ast.Import, ast.ImportFrom)) for index in keep):
        return None  # imports alone: no rule has anything to look at
    replaced: dict[int, str] = {}
    for index, stub in stubs.items():
        if index in keep:  # needed whole after all
            continue
        first_line = _first_line(statements[index].body[0])
        for number in range(spans[index][0], first_line):
            kept_lines[number] = True
        replaced[first_line] = stub
    sliced = "".join(replaced.get(number) or line for number, line in enumerate(lines, start=1)
                     if kept_lines[number] or number in replaced)
    return (sliced, _anchor_lines([statements[index] for index in sorted(keep | stubs.keys())]),
            set(_anchor_lines([statements[index] for index in suspects])))


def _stub_line(statement: ast.stmt, lines: list[str]) -> str | None:
    """The line that stands for the body of a def kept as its signature alone, or None if it cannot be
    one. A module-level def that kept code only calls is read for its name and signature, never its body
    (no analysis follows a call into the function it calls), so its body is not parsed: `...` on the
    body's first line, and nothing after. Not for a def named like a builtin (whether `list` is the
    builtin matters), nor when its body starts on the line of its signature."""
    if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) or statement.name in BUILTIN_NAMES:
        return None
    first = statement.body[0]
    number = _first_line(first)
    line = lines[number - 1]
    indent = line[:len(line) - len(line.lstrip())]
    starts_line = line.lstrip().startswith("@") if getattr(first, "decorator_list", None) else (
        first.col_offset == len(indent))
    if number <= statement.lineno or not starts_line:
        return None
    return f"{indent}...\n"


def _signature_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a def's decorators, parameters and return annotation use."""
    return {name for node in [*function.decorator_list, function.args, function.returns] if node is not None
            for name in _used_names(node)}
