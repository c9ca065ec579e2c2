"""Give libcst only the statements that can matter.

libcst parses about ten times slower than CPython's `ast`. A file that passes the text prefilter still
registers its pytrees in a few statements, so `relevant_source` uses `ast` (fast, in C) to keep the
top-level statements that mention a trigger, every import, and, transitively, the module-level
definitions those statements name (the registered classes, flatten functions, constants). Everything else
becomes blank lines: line and column numbers stay those of the original file.
"""

from __future__ import annotations

import ast
import io
import warnings


def python_lines(text: str) -> list[str]:
    """The lines of `text` as Python numbers them: split at \\n, \\r\\n and \\r only (`str.splitlines`
    also splits at form feeds and Unicode separators, which would shift every later line)."""
    return io.StringIO(text, newline="").readlines()


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
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            pending.extend(node.body)
            pending.extend(getattr(node, "orelse", []))
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return names


def _used_names(statement: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(statement) if isinstance(node, ast.Name)}


def _trigger_aliases(statements: list[ast.stmt], sources: list[str], triggers: tuple[str, ...]) -> set[str]:
    """Names that stand for a trigger without spelling it: `import ... register_pytree_node as reg`,
    `from flax import struct`, `register = jax.tree_util.register_pytree_node_class`."""
    aliases = set()
    for statement, source in zip(statements, sources):
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


def _registered_classes(statement: ast.stmt, triggers: tuple[str, ...]) -> set[str]:
    """Names a statement hands to a trigger: `@register_static class C`, `register_static(C)`,
    `@partial(jax.jit, static_argnums=1) def f`, `g = jax.jit(f, static_argnums=1)`."""
    def mentions(node: ast.expr) -> bool:
        return any(t in ast.unparse(node) for t in triggers)

    found = set()
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            mentions(d) for d in statement.decorator_list):
        found.add(statement.name)
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) and mentions(statement.value):
        found.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and mentions(node.func):
            found.update(arg.id for arg in node.args if isinstance(arg, ast.Name))
    return found


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


def relevant_source(text: str, triggers: tuple[str, ...], tree: ast.Module | None = None,
                    instantiated_triggers: tuple[str, ...] = ()) -> tuple[str, list[int]]:
    """`text` with the top-level statements no rule can need replaced by blank lines, and the line each
    kept statement starts on (see `_anchor_lines`).

    `instantiated_triggers`: for a class defined in a statement mentioning one of these (such as
    `register_static`), the statements that use the class are kept too, since a rule asks where it is built.
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

    aliases = _trigger_aliases(statements, sources, triggers)
    keep: set[int] = set()
    pending: list[int] = []
    for index, (statement, source) in enumerate(zip(statements, sources)):
        if (isinstance(statement, (ast.Import, ast.ImportFrom)) or any(t in source for t in triggers)
                or (aliases and _used_names(statement) & aliases)):
            pending.append(index)
    watched: set[str] = set()
    registered: set[str] = set()
    for index in pending:
        if any(t in sources[index] for t in instantiated_triggers):
            watched.update(_registered_classes(statements[index], instantiated_triggers))
        if isinstance(statements[index], ast.ClassDef):
            registered.add(statements[index].name)
        registered.update(_registered_classes(statements[index], (*triggers, *aliases)))
    # Module-level statements that build a registered class show the values its fields receive.
    pending.extend(index for index, statement in enumerate(statements)
                   if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr))
                   and _used_names(statement) & registered)
    while pending:
        index = pending.pop()
        if index in keep:
            continue
        keep.add(index)
        for name in _used_names(statements[index]):
            pending.extend(definitions.get(name, ()))
    if watched:
        for index, statement in enumerate(statements):
            if index not in keep and _used_names(statement) & watched:
                keep.add(index)

    kept_lines = [False] * (len(lines) + 2)
    changed = True
    while changed:  # statements that share a line (`a = 1; b = 2`) are kept or dropped together
        changed = False
        for index in keep:
            start, end = spans[index]
            for number in range(start, end + 1):
                kept_lines[number] = True
        for index, (start, end) in enumerate(spans):
            if index not in keep and any(kept_lines[n] for n in range(start, end + 1)):
                keep.add(index)
                changed = True
    sliced = "".join(line if kept_lines[number] else "\n" for number, line in enumerate(lines, start=1))
    return sliced, _anchor_lines([statements[index] for index in sorted(keep)])
