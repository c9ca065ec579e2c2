"""Semantics-preserving rewrites of the fixtures, for the metamorphic suite (tests/test_metamorphic.py).

A case is a package: the files of a project fixture, or a single-file fixture as `pkg/<name>.py`. Each rewrite
takes a case and gives its variants: the same program written another way (libcst, so comments stay with their
lines and the `# expect:` comments name where each finding must now be). A rewrite that finds nothing to
rewrite in a case gives no variant (counted as not applicable); a variant identical to its case, or one that
does not parse, is a failure of the rewrite, never a skip.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import json
import keyword
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import libcst as cst

from conftest import EXPECT, FIXTURES, TEST_CACHE, expected_in

PROJECTS = Path(__file__).parent / "projects"
HOOKS = {"examples", "reproduce"}
# Names whose meaning comes from a library or the language: never renamed.
PROTECTED = {*dir(builtins), "self", "cls", "shape", "dtype", "ndim", "size", "value", "at", "set", "get",
             "append", "extend", "update", "add", "items", "keys", "values", "pop", "insert", "remove", "clear",
             "copy", "replace", "tolist", "astype", "reshape", "sum", "mean", "T", "setup", "kernel", "bias",
             "children", "aux_data"}
MAX_SITES = 6  # variants per rewrite and case: the first places (a marked line first) where it applies
# Of those, at most this many at places on no marked line: a marked line's value is what its finding is about
# (the unmarked places were 85% of the value-flow rewrites' variants, the suite's largest cost).
MAX_UNMARKED_SITES = 4


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str]  # path inside the case -> source

    def expected(self) -> set[tuple[str, int, str]]:
        """The findings the `# expect:` comments ask for; not one a moved expression carried with it to a
        line marked `# moved here from ...`: the finding there counts for the line it came from."""
        moved = {(path, line) for path, line, _code in self.moved_here()}
        return {(path, line, code) for path, text in self.files.items() for line, code in expected_in(text)
                if (path, line) not in moved}

    def moved_here(self) -> dict[tuple[str, int, str], tuple[str, int, str]]:
        """Findings that may be reported on a line a rewrite moved an expression to instead of the marked
        line (a finding about that expression moves with it): `# moved here from line N: PTL401`, and from
        another file `# moved here from pkg/model.py line N: PTL401`."""
        found = {}
        for path, text in self.files.items():
            for number, line in enumerate(text.splitlines(), start=1):
                match = MOVED_HERE.search(line)
                if match:
                    marked = match.group("path") or path
                    for code in match.group("codes").split(","):
                        found[(path, number, code.strip())] = (marked, int(match.group("line")), code.strip())
        return found

    def modules(self) -> list[str]:
        """The modules a rewrite works on: those with code (not an empty `__init__.py`)."""
        return [path for path, text in sorted(self.files.items()) if text.strip()]

    def with_files(self, **changes: str) -> Case:
        return Case(self.name, {**self.files, **changes})


MOVED_HERE = re.compile(r"#\s*moved here from (?:(?P<path>[\w/.]+\.py) )?line (?P<line>\d+):\s*"
                        r"(?P<codes>PTL\d{3}(?:\s*,\s*PTL\d{3})*)")


def cases() -> list[Case]:
    """Every fixture: the single files, and the bad and clean packages of tests/projects."""
    found = [Case(path.relative_to(FIXTURES).as_posix(), {"pkg/__init__.py": "", f"pkg/{path.name}": path.read_text()})
             for path in sorted(FIXTURES.rglob("*.py"))]
    for root in sorted(PROJECTS.glob("*/*")):
        files = {path.relative_to(root).as_posix(): path.read_text() for path in sorted(root.rglob("*.py"))}
        found.append(Case(f"projects/{root.parent.name}/{root.name}", files))
    return found


# --- what a module holds -------------------------------------------------------------------------------------

@cache
def parse(text: str) -> cst.Module:
    """A module's tree, parsed once (every rewrite reads the same fixtures; libcst trees are immutable)."""
    return cst.parse_module(text)


_EMPTY = cst.Module(body=[])
_CODE: dict[int, tuple[cst.CSTNode, str]] = {}


def code(node: cst.CSTNode) -> str:
    """A node's source text, made once per node (the node is kept, so its id is not reused)."""
    known = _CODE.get(id(node))
    if known is None or known[0] is not node:
        known = _CODE[id(node)] = (node, _EMPTY.code_for_node(node))
    return known[1]


def imported_names(module: cst.Module, libraries_only: bool = False, nested: bool = False) -> set[str]:
    """The names the module's top-level imports bind (`nested`: its other imports too, in `if
    TYPE_CHECKING:` or a function's body); `libraries_only`: only those of absolute imports (not the
    project's own modules, imported relatively or as `pkg`)."""
    names = set()

    class Imports(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, statement: cst.SimpleStatementLine) -> None:
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar) \
                        and not (isinstance(small, cst.ImportFrom) and small.module is not None
                                 and code(small.module) == "__future__"):
                    if libraries_only and isinstance(small, cst.ImportFrom) and (small.relative or (
                            small.module is not None and code(small.module).split(".")[0] == "pkg")):
                        continue
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname else alias.name
                        names.add(code(bound).split(".")[0])

    if nested:
        module.visit(Imports())
    else:
        for statement in module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                Imports().visit_SimpleStatementLine(statement)
    return names


def module_import_lines(module: cst.Module) -> list[str]:
    return [code(statement) for statement in module.body if isinstance(statement, cst.SimpleStatementLine)
            and any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)]


def names_in(node: cst.CSTNode) -> set[str]:
    """The names an expression reads (not attribute names, keyword names or names bound inside it)."""
    found: set[str] = set()

    class Reader(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    node.visit(Reader())
    return found


@cache
def bound_in(function: cst.FunctionDef) -> set[str]:
    """The parameters and local names of a function."""
    found = {param.name.value for param in (*function.params.posonly_params, *function.params.params,
                                            *function.params.kwonly_params)}
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            found.add(star.name.value)

    class Binder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            if node is not function:
                found.add(node.name.value)
                return False
            return True

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            found.add(node.name.value)
            return False

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            found.update(_target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            found.update(_target_names(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.update(_target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            found.update(_target_names(node.target))

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_AsName(self, node: cst.AsName) -> None:
            found.update(_target_names(node.name))

    function.body.visit(Binder())
    return found


def _target_names(target: cst.CSTNode) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {name for element in target.elements for name in _target_names(element.value)}
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return set()


# --- places: the sub-expressions a rewrite may move -------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    """A sub-expression of a simple statement, with where it is: its statement, function and class."""

    expression: cst.BaseExpression
    statement: cst.SimpleStatementLine
    function: cst.FunctionDef | None
    functions: tuple[cst.FunctionDef, ...]  # every enclosing def, outermost first
    klass: cst.ClassDef | None  # the class whose method `function` is
    marked: bool  # the statement carries an `# expect:` comment
    top: cst.CSTNode  # the module-level statement that holds it


MOVABLE = (cst.Call, cst.BinaryOperation, cst.Subscript, cst.Attribute, cst.Dict, cst.List, cst.Set, cst.Tuple,
           cst.Lambda, cst.ListComp, cst.DictComp, cst.SetComp, cst.UnaryOperation, cst.Comparison)


class _ScopeVisitor(cst.CSTVisitor):
    """A visitor that knows where it is: the enclosing defs (outermost first), and per scope the class whose
    body it is in (None inside a function's body)."""

    def __init__(self) -> None:
        self.functions: list[cst.FunctionDef] = []
        self.classes: list[cst.ClassDef | None] = [None]

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.classes.append(node)
        return True

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.functions.append(node)
        self.classes.append(None)
        return True

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()
        self.classes.pop()


@cache
def places(module: cst.Module, whole: bool = False) -> list[Place]:
    """Sub-expressions that are evaluated once, unconditionally, when their statement runs: call arguments,
    display elements and dict values, assigned and returned values' parts (`whole`: the values themselves
    too); marked statements first."""
    found: list[Place] = []
    pending: list[tuple] = []

    class Finder(_ScopeVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            in_class_body = self.classes[-1] is not None
            if in_class_body or len(node.body) != 1:
                return False
            statement = node.body[0]
            if isinstance(statement, (cst.Return, cst.Expr)):
                roots = [statement.value] if statement.value is not None else []
            elif isinstance(statement, cst.Assign):
                roots = [statement.value]
            else:
                return False
            function = self.functions[-1] if self.functions else None
            owner = self.classes[-2] if self.functions and len(self.classes) >= 2 else None
            marked = EXPECT.search(code(node)) is not None
            for root in roots:
                for expression in _unconditional_parts(root, whole):
                    pending.append((expression, node, function, tuple(self.functions), owner, marked))
            return False

    for top in module.body:
        top.visit(Finder())
        found.extend(Place(*place[:6], top) for place in pending)
        pending.clear()
    return sorted(found, key=lambda place: not place.marked)


def _unconditional_parts(root: cst.BaseExpression, whole: bool = False) -> Iterator[cst.BaseExpression]:
    """Parts of `root` evaluated whenever it is (no branch of an `if`/`and`/`or`, no lambda or comprehension
    body), largest first, that are worth moving (no plain name or literal); `whole`: `root` too."""
    pending = [root]
    while pending:
        node = pending.pop(0)
        if (whole or node is not root) and isinstance(node, MOVABLE) and not _yields(node):
            yield node
        if isinstance(node, cst.Call):
            # A registration's lambdas are its flatten and unflatten: where they are written is where findings go.
            # A call of a plain name that is its statement's whole value may be one under an alias (`reg(C, ...)`).
            registers = "register" in code(node.func) or (root is node and isinstance(node.func, cst.Name))
            pending.extend(arg.value for arg in node.args
                           if not arg.star and not (registers and isinstance(arg.value, cst.Lambda)))
        elif isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            pending.extend(element.value for element in node.elements if isinstance(element, cst.Element))
        elif isinstance(node, cst.Dict):
            pending.extend(element.value for element in node.elements if isinstance(element, cst.DictElement))
        elif isinstance(node, cst.BinaryOperation):
            pending.extend((node.left, node.right))


def _yields(node: cst.CSTNode) -> bool:
    text = code(node)
    return "yield" in text or "await" in text or ":=" in text


# --- the rewrites ---------------------------------------------------------------------------------------------

Rewrite = Callable[[Case], list[Case]]
REWRITES: dict[str, Rewrite] = {}


def rewrite(name: str) -> Callable[[Rewrite], Rewrite]:
    def register(function: Rewrite) -> Rewrite:
        REWRITES[name] = function
        return function
    return register


class _Replace(cst.CSTTransformer):
    """Replace nodes (by identity) and insert statements before a statement."""

    def __init__(self, replacements: dict[cst.CSTNode, cst.CSTNode],
                 before: dict[cst.CSTNode, list[cst.BaseStatement]] | None = None,
                 class_members: dict[cst.CSTNode, list[cst.BaseStatement]] | None = None) -> None:
        self.replacements = replacements
        self.before = before or {}
        self.class_members = class_members or {}

    def on_leave(self, original, updated):
        updated = self.replacements.get(original, updated)
        if original in self.before:
            kept = [] if isinstance(updated, cst.RemovalSentinel) else [updated]
            return cst.FlattenSentinel([*self.before[original], *kept])
        if original in self.class_members and isinstance(updated, cst.ClassDef):
            body = updated.body
            return updated.with_changes(body=body.with_changes(body=[*body.body, *self.class_members[original]]))
        return updated


def _statement(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text)


def _fresh(module_text: str, stem: str) -> str:
    name, number = stem, 0
    while re.search(rf"\b{name}\b", module_text):
        number += 1
        name = f"{stem}{number}"
    return name


def _variants(case: Case, make: Callable[[str, cst.Module, Place], dict[str, str] | None],
              want: Callable[[Place], bool] = lambda place: True, whole: bool = False) -> list[Case]:
    """Up to MAX_SITES variants, one per place where `make` applies, over the case's modules: the places on
    marked lines first, whichever module they are in, then at most MAX_UNMARKED_SITES others."""
    candidates = [(path, module, place) for path in case.modules() for module in [parse(case.files[path])]
                  for place in places(module, whole)]
    candidates.sort(key=lambda candidate: not candidate[2].marked)  # stable: in module order otherwise
    made: list[Case] = []
    unmarked = 0
    for path, module, place in candidates:
        if len(made) >= MAX_SITES or (not place.marked and unmarked >= MAX_UNMARKED_SITES):
            break
        if not want(place):
            continue
        changes = make(path, module, place)
        if changes:
            made.append(case.with_files(**changes))
            unmarked += not place.marked
    return made


def _locals_of(place: Place) -> list[str]:
    """The enclosing functions' names an expression reads, in a stable order (what a helper must be given)."""
    local = set().union(*(bound_in(function) for function in place.functions)) if place.functions else set()
    return sorted(names_in(place.expression) & local)


@rewrite("intermediate name")
def intermediate_name(case: Case) -> list[Case]:
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        name = _fresh(case.files[path], "held")
        hoisted = _statement(f"{name} = {code(place.expression)}\n")
        new = module.visit(_Replace({place.expression: cst.Name(name)}, {place.statement: [hoisted]})).code
        if place.marked:  # a finding about the expression may now be reported where it is made
            lines = new.splitlines(keepends=True)
            marked = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{name} = "))
            used = marked + len(code(place.expression).splitlines())  # the statement using the name
            codes = EXPECT.search(lines[used])
            if codes is not None:
                _mark_moved(lines, marked, used, f"line {used + 1}: {codes.group('codes')}")
            new = "".join(lines)
        return {path: new}
    return _variants(case, make)


@rewrite("conditional with a harmless branch")
def conditional(case: Case) -> list[Case]:
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        text = code(place.expression)
        wrapped = cst.parse_expression(f"({text} if __name__ != '__main__' else {text})")
        return {path: module.visit(_Replace({place.expression: wrapped})).code}
    return _variants(case, make, want=lambda place: not isinstance(place.expression, cst.Lambda))


@rewrite("module-level helper")
def module_helper(case: Case) -> list[Case]:
    return _variants(case, _in_module_function(case, "make_value"))


@rewrite("element of a helper's tuple")
def tuple_helper(case: Case) -> list[Case]:
    """The expression made by a new function of its module that returns it with another value, and taken
    back by its position: `make_values(x)[0]` (a caller unpacking it, `a, b = f()`, reads the same)."""
    return _variants(case, _in_module_function(case, "make_values", returned="{}, None", taken="[0]"))


@rewrite("value of a helper's dict")
def dict_helper(case: Case) -> list[Case]:
    """The expression made by a new function of its module that returns it in a dict display with another
    value, and taken back by its key: `make_values(x)["value"]`."""
    return _variants(case, _in_module_function(case, "make_values", returned='{{"value": {}, "other": None}}',
                                               taken='["value"]'))


@rewrite("unpacked from a helper's tuple")
def unpacked_tuple_helper(case: Case) -> list[Case]:
    """The expression made by a new function of its module that returns it with another value, unpacked
    into a name just before its statement: `held, _unused = make_values(x)`."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        text = case.files[path]
        name, held, arguments = _fresh(text, "make_values"), _fresh(text, "held"), ", ".join(_locals_of(place))
        helper = _statement(f"def {name}({arguments}):\n    return {code(place.expression)}, None\n")
        unpacked = _statement(f"{held}, _unused = {name}({arguments})\n")
        before: dict[cst.CSTNode, list[cst.BaseStatement]] = {place.top: [helper]}
        before.setdefault(place.statement, []).append(unpacked)
        new = module.visit(_Replace({place.expression: cst.Name(held)}, before)).code
        if not place.marked:
            return {path: new}
        lines = new.splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{held}, _unused = "))
        codes = EXPECT.search(lines[at + 1])
        if codes is None:
            return {path: new}  # the comment is on another line of the statement
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"def {name}("))
        returned = next(i for i in range(start, len(lines)) if lines[i].lstrip().startswith("return "))
        for moved in (at, returned):  # a finding about the expression may be reported where it now is
            lines[moved] = lines[moved].rstrip("\n") + f"  # moved here from line {at + 2}: {codes.group('codes')}\n"
        return {path: "".join(lines)}
    return _variants(case, make)


@rewrite("attribute of an object a helper builds")
def object_helper(case: Case) -> list[Case]:
    """The expression given to the constructor of a new class of its module that keeps it as an attribute,
    the object built by a new function of the module and the attribute read back: `make_held(x).value`."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        text = case.files[path]
        holder, name, arguments = _fresh(text, "Held"), _fresh(text, "make_held"), ", ".join(_locals_of(place))
        holder_class = _statement(f"class {holder}:\n    def __init__(self, value):\n        self.value = value\n")
        helper = _statement(f"def {name}({arguments}):\n    return {holder}({code(place.expression)})\n")
        call = cst.parse_expression(f"{name}({arguments}).value")
        new = module.visit(_Replace({place.expression: call}, {place.top: [holder_class, helper]})).code
        return {path: _moved_mark(new, new, name, path) if place.marked else new}
    return _variants(case, make)


def _in_module_function(case: Case, stem: str, returned: str = "{}", taken: str = ""
                        ) -> Callable[[str, cst.Module, Place], dict[str, str] | None]:
    """The expression made by a new function of its module, given the locals it reads: returned as
    `returned` says (`{}` the expression) and taken back from the call's result by `taken` (`[0]`)."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        name, arguments = _fresh(case.files[path], stem), _locals_of(place)
        helper = _statement(f"def {name}({', '.join(arguments)}):\n"
                            f"    return {returned.format(code(place.expression))}\n")
        call = cst.parse_expression(f"{name}({', '.join(arguments)}){taken}")
        anchor = place.top
        new = module.visit(_Replace({place.expression: call}, {anchor: [helper]})).code
        return {path: _moved_mark(new, new, name, path) if place.marked else new}
    return make


@rewrite("nested function")
def nested_helper(case: Case) -> list[Case]:
    return _variants(case, _in_nested_function(case, "make_value"))


def _in_nested_function(case: Case, stem: str) -> Callable[[str, cst.Module, Place], dict[str, str] | None]:
    """The expression made by a function nested where it is, reading the enclosing function's locals."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        if place.function is None:
            return None
        name = _fresh(case.files[path], stem)
        helper = _statement(f"def {name}():\n    return {code(place.expression)}\n")
        call = cst.parse_expression(f"{name}()")
        new = module.visit(_Replace({place.expression: call}, {place.statement: [helper]})).code
        return {path: _moved_mark(new, new, name, path) if place.marked else new}
    return make


@rewrite("helper in another module")
def other_module_helper(case: Case) -> list[Case]:
    return _variants(case, _in_other_module(case, "make_value", "values_made_elsewhere"))


@rewrite("attribute of an object built in another module")
def object_other_module_helper(case: Case) -> list[Case]:
    """The expression given to the constructor of a class of a new module of the package, which keeps it as
    an attribute, the object built by a function of that module and the attribute read back:
    `make_held(x).value`."""
    holder = "class Held:\n    def __init__(self, value):\n        self.value = value\n\n\n"
    return _variants(case, _in_other_module(case, "make_held", "objects_made_elsewhere", returned="Held({})",
                                            taken=".value", prefix=holder))


def _in_other_module(case: Case, stem: str, other: str, classes: frozenset[str] = frozenset(), returned: str = "{}",
                     taken: str = "", prefix: str = "") -> Callable[[str, cst.Module, Place], dict[str, str] | None]:
    """The expression made by a function of a new module of the package, given the locals it reads, returned
    as `returned` says (`{}` the expression; `prefix` is code of the new module before the function) and taken
    back from the call's result by `taken`; the module's `classes` it names are imported inside that function
    (its module imports the new one first)."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        arguments = _locals_of(place)
        imported = imported_names(module)
        read = names_in(place.expression) - set(arguments)
        if not read <= imported | set(dir(builtins)) | classes:
            return None  # it reads a name of its module: the helper would import its importer
        package, stem_module = path.rsplit("/", 1)
        own = sorted(read & classes - imported)
        lazy = [f"    from .{stem_module[:-3]} import {', '.join(own)}"] if own else []
        helper = "\n".join([*module_import_lines(module), "", "", prefix + f"def {stem}({', '.join(arguments)}):",
                            *lazy, f"    return {returned.format(code(place.expression))}", ""])
        call = cst.parse_expression(f"{stem}({', '.join(arguments)}){taken}")
        importing = _statement(f"from .{other} import {stem}\n")
        anchor = _first_definition(module)
        new = module.visit(_Replace({place.expression: call}, {anchor: [importing]})).code
        if place.marked:
            helper = _moved_mark(helper, new, stem, path)
        return {path: new, f"{package}/{other}.py": helper}
    return make


def _moved_mark(helper_text: str, caller_text: str, name: str, caller_path: str, used: str = "{name}(") -> str:
    """`helper_text` with its `return` line of function `name` marked `# moved here from ...` the line of
    `caller_text` (the file `caller_path`) whose `# expect:` comment is on the line using `name` (`used`: a
    call, or `self.{name}` for a property): a finding about the moved expression may be reported where it is
    now made."""
    marked = next(((number, match.group("codes")) for number, line in enumerate(caller_text.splitlines(), 1)
                   if used.format(name=name) in line and not line.lstrip().startswith("def ")
                   and (match := EXPECT.search(line))), None)
    if marked is None:
        return helper_text  # the comment is on another line of the statement: nothing to say where it went
    lines = helper_text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"def {name}("))
    returned = next(i for i in range(start, len(lines)) if lines[i].lstrip().startswith("return "))
    where = "" if helper_text is caller_text else f"{caller_path} "
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((i for i in range(returned + 1, len(lines))
                if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= indent), len(lines))
    _mark_moved(lines, returned, end, f"{where}line {marked[0]}: {marked[1]}")
    return "".join(lines)


def _mark_moved(lines: list[str], first: int, end: int, origin: str) -> None:
    """Mark `# moved here from {origin}` the first of the lines `first:end` a moved expression now spans, and
    each other one an `# expect:` comment came with."""
    for at in range(first, end):
        if at == first or EXPECT.search(lines[at]):
            lines[at] = lines[at].rstrip("\n") + f"  # moved here from {origin}\n"


def _method_helper(decorator: str, receiver: str, first: str | None) -> Rewrite:
    """Move the expression into a method of the class whose method holds it: `first` is the new method's own
    first parameter (None for a staticmethod), `receiver` how the holding method reaches it."""
    def rewrite_case(case: Case) -> list[Case]:
        def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
            if place.klass is None or place.function is None or len(place.functions) != 1:
                return None
            params = place.function.params.params
            if not params or params[0].name.value != "self" or any(
                    code(d.decorator).endswith(("staticmethod", "classmethod")) for d in place.function.decorators):
                return None
            arguments = [name for name in _locals_of(place) if name != "self" or first == "self"]
            if "self" in names_in(place.expression) and first != "self":
                return None
            name = _fresh(case.files[path], "_make_value")
            own = [first] if first else []
            header = f"{decorator}\n" if decorator else ""
            parameters = [*own, *(a for a in arguments if a != first)]
            method = _statement(f"{header}def {name}({', '.join(parameters)}):\n    return {code(place.expression)}\n")
            call = cst.parse_expression(f"{receiver}.{name}({', '.join(a for a in arguments if a != first)})")
            new = module.visit(_Replace({place.expression: call}, class_members={place.klass: [method]})).code
            return {path: _moved_mark(new, new, name, path) if place.marked else new}
        return _variants(case, make, want=lambda place: place.klass is not None)
    return rewrite_case


REWRITES["method"] = _method_helper("", "self", "self")
REWRITES["staticmethod"] = _method_helper("@staticmethod", "self", None)
REWRITES["classmethod"] = _method_helper("@classmethod", "type(self)", "cls")


@rewrite("property")
def property_helper(case: Case) -> list[Case]:
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        if place.klass is None or place.function is None or len(place.functions) != 1:
            return None
        if _locals_of(place) != ["self"] or place.function.name.value == "__init__":
            return None  # a property reads only the object, and __init__ has not finished building it
        name = _fresh(case.files[path], "made_value")
        getter = _statement(f"@property\ndef {name}(self):\n    return {code(place.expression)}\n")
        call = cst.parse_expression(f"self.{name}")
        new = module.visit(_Replace({place.expression: call}, class_members={place.klass: [getter]})).code
        return {path: _moved_mark(new, new, name, path, used="self.{name}") if place.marked else new}
    return _variants(case, make, want=lambda place: place.klass is not None)


@rewrite("dict() and list() calls")
def displays_as_calls(case: Case) -> list[Case]:
    made = []
    for path in case.modules():
        module = parse(case.files[path])
        finder = _DisplayFinder()
        module.visit(finder)
        if finder.replacements:
            made.append(case.with_files(**{path: module.visit(_Replace(finder.replacements)).code}))
    return made[:MAX_SITES]


class _DisplayFinder(cst.CSTVisitor):
    """Dict displays with identifier keys and list displays, outside annotations and assignment targets, with
    their spelling as a `dict(...)` or `list((...))` call."""

    def __init__(self) -> None:
        self.replacements: dict[cst.CSTNode, cst.CSTNode] = {}

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        node.value.visit(self)
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return False

    def visit_Dict(self, node: cst.Dict) -> None:
        if node.elements and all(
                isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                and e.key.evaluated_value.isidentifier() and not keyword.iskeyword(e.key.evaluated_value)
                for e in node.elements):
            self.replacements[node] = cst.parse_expression(
                "dict(" + ", ".join(f"{e.key.evaluated_value}={code(e.value)}" for e in node.elements) + ")")

    def visit_List(self, node: cst.List) -> None:
        if node.elements and all(isinstance(e, cst.Element) for e in node.elements):
            self.replacements[node] = cst.parse_expression(
                "list((" + "".join(f"{code(e.value)}, " for e in node.elements) + "))")


@rewrite("renamed names")
def renamed(case: Case) -> list[Case]:
    modules = {path: parse(case.files[path]) for path in case.modules()}
    defined, imported, protocol, libraries = set(), set(), set(), set()
    for module in modules.values():
        imported |= imported_names(module, nested=True)  # the renamer leaves every import as it is
        libraries |= imported_names(module, libraries_only=True)
    for module in modules.values():

        class Definitions(cst.CSTVisitor):
            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                defined.add(node.name.value)
                defined.update(bound_in(node))

            def visit_ClassDef(self, node: cst.ClassDef) -> None:
                defined.add(node.name.value)
                members = set()
                for statement in node.body.body:
                    if isinstance(statement, cst.FunctionDef):
                        members.add(statement.name.value)
                    for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                        if isinstance(small, cst.AnnAssign):
                            members.update(_target_names(small.target))
                        elif isinstance(small, cst.Assign):
                            members.update(n for t in small.targets for n in _target_names(t.target))
                defined.update(members)
                # A library base reads its subclasses' members by name (numpyro's `pytree_aux_fields`, `sample`).
                if any(names_in(base.value) & libraries for base in node.bases):
                    protocol.update(members)

            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    defined.update(_target_names(target.target))
                    if isinstance(target.target, cst.Attribute) and code(target.target.value) in ("self", "obj"):
                        defined.add(target.target.attr.value)

        module.visit(Definitions())
    names = {n for n in defined - imported - protocol - PROTECTED - HOOKS
             if not n.startswith(("__", "tree_", "examples_")) and not keyword.iskeyword(n)}
    # An attribute read on something of a library (`x.shape`, `nnx.Linear`) keeps its name.
    for module in modules.values():
        class Library(cst.CSTVisitor):
            def visit_Attribute(self, node: cst.Attribute) -> None:
                root = node
                while isinstance(root, cst.Attribute):
                    root = root.value
                if isinstance(root, cst.Name) and root.value in libraries:
                    names.discard(node.attr.value)

        module.visit(Library())
    if not names:
        return []
    mapping = {name: f"{name}_r" for name in names}
    changed = {path: module.visit(_Renamer(mapping, libraries)).code for path, module in modules.items()}
    return [case.with_files(**changed)]


class _Renamer(cst.CSTTransformer):
    def __init__(self, mapping: dict[str, str], libraries: set[str]) -> None:
        self.mapping, self.libraries = mapping, libraries

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.mapping.get(updated.value, updated.value))

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.SimpleString:
        try:
            value = updated.evaluated_value
        except Exception:
            return updated
        if isinstance(value, str) and value in self.mapping:
            return updated.with_changes(value=updated.value.replace(value, self.mapping[value]))
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        root = original.func
        while isinstance(root, cst.Attribute):
            root = root.value
        if isinstance(root, cst.Name) and root.value in self.libraries:
            # Keyword names are Name nodes, renamed with the parameters they name; a library's keywords keep
            # their names (`jnp.zeros(shape=...)`).
            args = [arg.with_changes(keyword=original_arg.keyword) if original_arg.keyword else arg
                    for arg, original_arg in zip(updated.args, original.args)]
            return updated.with_changes(args=args)
        return updated


@rewrite("import aliases")
def import_aliases(case: Case) -> list[Case]:
    """`import numpy as np` -> `import numpy as np_alias`, `from m import n` -> `from m import n as n_alias`,
    `import jax` -> `import jax as jax_alias`, each use renamed."""
    changed = {}
    for path in case.modules():
        if path.endswith("__init__.py"):
            continue  # what a package's `__init__.py` imports, it exports: its names are its interface
        module = parse(case.files[path])
        mapping: dict[str, str] = {}
        for name in imported_names(module):
            mapping[name] = _fresh(case.files[path], f"{name}_alias")
        if not mapping:
            continue
        changed[path] = module.visit(_AliasRenamer(mapping)).code
    return [case.with_files(**changed)] if changed else []


class _AliasRenamer(cst.CSTTransformer):
    """Bind each imported name under its alias, and read it under the alias everywhere."""

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def leave_ImportAlias(self, original: cst.ImportAlias, updated: cst.ImportAlias) -> cst.ImportAlias:
        bound = code(original.asname.name) if original.asname else code(original.name)
        if "." in bound and not original.asname:
            return original  # `import jax.numpy` binds `jax`: left to the `import jax` it needs
        alias = self.mapping.get(bound)
        if alias is None:
            return original
        return original.with_changes(asname=cst.AsName(name=cst.Name(alias)))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)  # only the chain's root is the imported name

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.mapping.get(updated.value, updated.value))

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        return updated.with_changes(name=original.name)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        return updated.with_changes(module=original.module)

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = [alias.with_changes(name=original_alias.name) for alias, original_alias in zip(updated.names,
                                                                                               original.names)]
        return updated.with_changes(names=names)


@rewrite("module-level alias")
def module_level_alias(case: Case) -> list[Case]:
    """`Alias = name` after the imports, for each imported name, and every use reads the alias."""
    changed = {}
    for path in case.modules():
        module = parse(case.files[path])
        mapping = {name: _fresh(case.files[path], f"{name}_also") for name in imported_names(module)}
        if not mapping:
            continue
        renamed_module = module.visit(_UseRenamer(mapping))
        aliases = [_statement(f"{alias} = {name}\n") for name, alias in sorted(mapping.items())]
        anchor = _first_definition(renamed_module)
        changed[path] = renamed_module.visit(_Replace({}, {anchor: aliases})).code
    return [case.with_files(**changed)] if changed else []


class _UseRenamer(_AliasRenamer):
    """Read imported names under another name, leaving the imports themselves as they are."""

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def leave_Import(self, original, updated):
        return original

    def leave_ImportFrom(self, original, updated):
        return original


@rewrite("re-export through the package")
def reexport(case: Case) -> list[Case]:
    """`from .mod import name` in a module of a package becomes `from . import name`, `__init__.py` importing
    it from `.mod` (the package's own `__init__.py` runs first)."""
    made = []
    for path in case.modules():
        module = parse(case.files[path])
        package = path.rsplit("/", 1)[0]
        init = f"{package}/__init__.py"
        if init not in case.files or path == init:
            continue
        for statement in module.body:
            small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
            if not (isinstance(small, cst.ImportFrom) and small.relative and len(small.relative) == 1
                    and small.module is not None and not isinstance(small.names, cst.ImportStar)):
                continue
            target = f"{package}/{code(small.module).replace('.', '/')}.py"
            if target not in case.files:
                continue
            names = ", ".join(code(alias.name) + (f" as {code(alias.asname.name)}" if alias.asname else "")
                              for alias in small.names)
            reexported = case.files[init] + f"\nfrom .{code(small.module)} import {names}\n"
            new = module.visit(_Replace({statement: _statement(f"from . import {names}\n")}))
            made.append(case.with_files(**{path: new.code, init: reexported}))
            if len(made) >= MAX_SITES:
                return made
    return made


@rewrite("plain wrapper of a jitted function")
def jitted_wrapper(case: Case) -> list[Case]:
    """A call of the module's jitted function goes through `def run(x, n): return jitted(x, n)`."""
    made = []
    for path in case.modules():
        module = parse(case.files[path])
        jitted = _jitted_names(module)
        for place in places(module):
            call = place.expression if isinstance(place.expression, cst.Call) else None
            if call is None:
                root = place.statement.body[0]
                value = getattr(root, "value", None)
                call = value if isinstance(value, cst.Call) else None
            if call is None or not isinstance(call.func, cst.Name) or call.func.value not in jitted:
                continue
            if any(arg.star for arg in call.args) or (place.function and place.function.name.value == call.func.value):
                continue
            name = _fresh(case.files[path], f"run_{call.func.value}")
            positional = [f"p{i}" for i, arg in enumerate(call.args) if arg.keyword is None]
            keywords = [arg.keyword.value for arg in call.args if arg.keyword is not None]
            forwarded = [*positional, *(f"{k}={k}" for k in keywords)]
            wrapper = _statement(f"def {name}({', '.join([*positional, *keywords])}):\n"
                                 f"    return {call.func.value}({', '.join(forwarded)})\n")
            anchor = place.top
            new_call = call.with_changes(func=cst.Name(name))
            made.append(case.with_files(**{path: module.visit(_Replace({call: new_call}, {anchor: [wrapper]})).code}))
            if len(made) >= MAX_SITES:
                return made
    return made


def _jitted_names(module: cst.Module) -> set[str]:
    found = set()
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and any("jit" in code(d.decorator) for d in statement.decorators):
            found.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            if isinstance(assign.value, cst.Call) and "jit" in code(assign.value.func) and len(assign.targets) == 1:
                found.update(_target_names(assign.targets[0].target))
    return found


def _first_definition(module: cst.Module) -> cst.CSTNode:
    """The first statement after the module's docstring and imports (where new imports or aliases go)."""
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine) and all(
                isinstance(small, (cst.Import, cst.ImportFrom)) or (
                    isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString))
                for small in statement.body):
            continue
        return statement
    return module.body[-1]


# --- where the registered object is built (rewrite 6) -----------------------------------------------------------

def _classes(case: Case) -> frozenset[str]:
    """The classes the case's modules define."""
    found = set()
    for path in case.modules():
        found.update(statement.name.value for statement in parse(case.files[path]).body
                     if isinstance(statement, cst.ClassDef))
    return frozenset(found)


def _construction(classes: frozenset[str]) -> Callable[[Place], bool]:
    """A call of a class the case defines, outside the runtime hooks (`examples()`, `reproduce()`)."""
    def wanted(place: Place) -> bool:
        expression = place.expression
        return isinstance(expression, cst.Call) and code(expression.func).rsplit(".", 1)[-1] in classes and not (
            place.functions and place.functions[0].name.value in HOOKS)
    return wanted


@rewrite("construction in a module-level function")
def construction_in_function(case: Case) -> list[Case]:
    classes = _classes(case)
    return _variants(case, _in_module_function(case, "build_object"), _construction(classes), whole=True)


@rewrite("construction in a factory in another module")
def construction_in_other_module(case: Case) -> list[Case]:
    classes = _classes(case)
    return _variants(case, _in_other_module(case, "build_object", "objects_built_elsewhere", classes),
                     _construction(classes), whole=True)


@rewrite("construction in a nested function")
def construction_in_nested_function(case: Case) -> list[Case]:
    classes = _classes(case)
    return _variants(case, _in_nested_function(case, "build_object"), _construction(classes), whole=True)


@rewrite("construction in a loop body")
def construction_in_loop(case: Case) -> list[Case]:
    """The statement that builds the object runs in `for _ in range(1):` (module level or a function's body)."""
    def make(path: str, module: cst.Module, place: Place) -> dict[str, str] | None:
        statement = place.statement
        counter = _fresh(case.files[path], "_repeat")
        loop = cst.For(target=cst.Name(counter), iter=cst.parse_expression("range(1)"),
                       body=cst.IndentedBlock(body=[statement]))
        return {path: module.visit(_Replace({statement: loop})).code}
    return _variants(case, make, _construction(_classes(case)), whole=True)


# --- where an object is changed in place (rewrite 7) ------------------------------------------------------------

MUTATORS = {"append", "extend", "insert", "update", "add", "setdefault", "pop", "remove", "clear", "discard"}


@dataclass(frozen=True)
class Change:
    """A statement that changes an object in place (`x.items.append(v)`, `x.table[k] = v`, `x.flags |= s`),
    the name the object is reached through, and the class that name holds."""

    statement: cst.SimpleStatementLine
    root: str
    klass: str
    functions: tuple[cst.FunctionDef, ...]  # the enclosing defs, outermost first
    top: cst.CSTNode  # the module-level statement that holds it


def _changed_root(small: cst.BaseSmallStatement) -> cst.Name | None:
    """The name at the root of what an in-place change changes, when it goes through an attribute."""
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
            and isinstance(small.value.func, cst.Attribute) and small.value.func.attr.value in MUTATORS:
        target = small.value.func.value
    elif isinstance(small, cst.Assign) and len(small.targets) == 1 \
            and isinstance(small.targets[0].target, cst.Subscript):
        target = small.targets[0].target.value
    elif isinstance(small, cst.AugAssign) and isinstance(small.target, (cst.Attribute, cst.Subscript)):
        target = small.target.value if isinstance(small.target, cst.Subscript) else small.target
    else:
        return None
    if not isinstance(target, cst.Attribute):
        return None  # a change of a plain local or module-level container: no object of a class to annotate
    while isinstance(target, (cst.Attribute, cst.Subscript)):
        target = target.value
    return target if isinstance(target, cst.Name) else None


def changes(module: cst.Module, classes: frozenset[str]) -> list[Change]:
    """The in-place changes of objects of the module's classes: through `self` in a method of the class, or
    through a name bound to `Class(...)` in the same function (or at module level)."""
    found: list[Change] = []

    class Finder(_ScopeVisitor):
        def __init__(self, top: cst.CSTNode) -> None:
            super().__init__()
            self.top = top

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            root = _changed_root(node.body[0]) if len(node.body) == 1 else None
            if root is None:
                return False
            owner_class = self.classes[-2] if self.functions and len(self.classes) >= 2 else None
            owner = owner_class.name.value if owner_class is not None else None
            params = self.functions[-1].params.params if self.functions else ()
            if owner in classes and params and params[0].name.value == root.value == "self":
                klass = owner
            else:
                scope = self.functions[-1].body if self.functions else module
                klass = _built_as(scope, root.value, classes)
            if klass is not None:
                found.append(Change(node, root.value, klass, tuple(self.functions), self.top))
            return False

    for top in module.body:
        top.visit(Finder(top))
    return found


def _built_as(scope: cst.CSTNode, name: str, classes: frozenset[str]) -> str | None:
    """The class `name` is bound to by `name = Class(...)` in `scope` (its only binding there)."""
    built = []

    class Binder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is scope

        def visit_Assign(self, node: cst.Assign) -> None:
            if any(_target_names(t.target) == {name} for t in node.targets):
                value = node.value
                built.append(code(value.func).rsplit(".", 1)[-1] if isinstance(value, cst.Call) else None)

    scope.visit(Binder())
    return built[0] if len(built) == 1 and built[0] in classes else None


class _NameSwap(cst.CSTTransformer):
    """Every read of one name (never an attribute's name or a keyword) written as another."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.new) if updated.value == self.old else updated


def _change_variants(case: Case, elsewhere: bool) -> list[Case]:
    """The first in-place change moved into `def change_in_place(obj: Class, ...)`: a function of its module,
    or (`elsewhere`) of a new module of the package that imports the class only for the annotation."""
    classes = _classes(case)
    for path in case.modules():
        module = parse(case.files[path])
        for change in changes(module, classes):
            small = change.statement.body[0]
            local = set().union(*(bound_in(f) for f in change.functions)) if change.functions else set()
            arguments = sorted((names_in(small) & local) - {change.root})
            name = _fresh(case.files[path], "change_in_place")
            moved = code(small.visit(_NameSwap(change.root, "obj")))
            # A string annotation: the helper may come before the class (and, elsewhere, imports it only
            # for type checkers).
            helper = f"def {name}(obj: \"{change.klass}\", {', '.join(arguments)}):\n    {moved}\n".replace(", )", ")")
            call = cst.parse_statement(f"{name}({', '.join([change.root, *arguments])})\n")
            called = change.statement.with_changes(body=call.body)  # the `# expect:` comment stays here
            if not elsewhere:
                new = module.visit(_Replace({change.statement: called}, {change.top: [_statement(helper)]}))
                return [case.with_files(**{path: new.code})]
            if not names_in(small) - {change.root, *arguments} <= imported_names(module) | set(dir(builtins)):
                continue  # it reads a name of its module: the helper would import its importer
            package, stem = path.rsplit("/", 1)
            other = "changes_elsewhere"
            text = "\n".join(["from __future__ import annotations", "", "from typing import TYPE_CHECKING", "",
                              *module_import_lines(module), "", "if TYPE_CHECKING:",
                              f"    from .{stem[:-3]} import {change.klass}", "", "", helper])
            importing = _statement(f"from .{other} import {name}\n")
            new = module.visit(_Replace({change.statement: called}, {_first_definition(module): [importing]}))
            return [case.with_files(**{path: new.code, f"{package}/{other}.py": text})]
    return []


@rewrite("in-place change in a helper")
def change_in_helper(case: Case) -> list[Case]:
    return _change_variants(case, elsewhere=False)


@rewrite("in-place change in another module")
def change_in_other_module(case: Case) -> list[Case]:
    return _change_variants(case, elsewhere=True)


# --- one module split in two (rewrite 9) -------------------------------------------------------------------

@rewrite("classes in a module of their own")
def classes_moved(case: Case) -> list[Case]:
    """A module's classes move to `<module>_classes.py` (with the module's imports), and the module imports
    them back: their registrations, the functions that build and use them, stay where they were. Only where
    the classes (their bodies, decorators and bases) read nothing else of their module (or the new module
    would import its importer)."""
    for path, text, module, classes in _modules_with_classes(case):
        rest = [s for s in module.body if not isinstance(s, cst.ClassDef)]
        if not classes or not any(not _is_import(s) for s in rest):
            continue
        names = {c.name.value for c in classes}
        if not _read_only(text, module, classes, names):
            continue
        package, stem = path.rsplit("/", 1)
        other = _fresh(" ".join(case.files), f"{stem[:-3]}_classes")
        moved = "\n".join([*module_import_lines(module), "", "", *(code(c) for c in classes)])
        importing = _statement(f"from .{other} import {', '.join(sorted(names))}\n")
        kept = module.visit(_Replace({c: cst.RemovalSentinel.REMOVE for c in classes},
                                     {_first_definition(module): [importing]}))
        return [case.with_files(**{path: kept.code, f"{package}/{other}.py": moved})]
    return []


@rewrite("subclasses in a module of their own")
def subclasses_moved(case: Case) -> list[Case]:
    """A module's classes derived from another of its classes move to `<module>_derived.py` (with the
    module's imports, their bases imported from the module), and the module imports them back where the
    first of them was (its bases are defined there: the import cycle runs): what a subclass's construction
    gives a field its base declares is the base's module's to judge. Only where the moved classes (their
    bodies, decorators and bases) read nothing else of their module but their bases."""
    for path, text, module, classes in _modules_with_classes(case):
        own = {c.name.value for c in classes}
        derived = [c for c in classes if any(isinstance(b.value, cst.Name) and b.value.value in own for b in c.bases)]
        names = {c.name.value for c in derived}
        bases = {b.value.value for c in derived for b in c.bases if isinstance(b.value, cst.Name)} & own - names
        if not derived or not bases or not _read_only(text, module, derived, names | bases):
            continue
        package, stem = path.rsplit("/", 1)
        other = _fresh(" ".join(case.files), f"{stem[:-3]}_derived")
        moved = "\n".join([*module_import_lines(module), f"from .{stem[:-3]} import {', '.join(sorted(bases))}", "",
                           "", *(code(c) for c in derived)])
        importing = _statement(f"from .{other} import {', '.join(sorted(names))}\n")
        kept = module.visit(_Replace({c: cst.RemovalSentinel.REMOVE for c in derived}, {derived[0]: [importing]}))
        return [case.with_files(**{path: kept.code, f"{package}/{other}.py": moved})]
    return []


def _modules_with_classes(case: Case) -> Iterator[tuple[str, str, cst.Module, list[cst.ClassDef]]]:
    """(path, text, module, its top-level classes) for each module of the case but the packages' `__init__`."""
    for path in case.modules():
        if not path.endswith("__init__.py"):
            module = parse(case.files[path])
            yield path, case.files[path], module, [s for s in module.body if isinstance(s, cst.ClassDef)]


def _read_only(text: str, module: cst.Module, classes: list[cst.ClassDef], allowed: set[str]) -> bool:
    """Whether the classes (their bodies, decorators and bases: the last two read where the class statement
    runs, in the module's scope) read nothing of their module but its imports and the `allowed` names: moved
    to a module of their own, they would import their importer otherwise."""
    headers = {name for c in classes for node in (*(d.decorator for d in c.decorators), *(b.value for b in c.bases))
               for name in names_in(node)}
    names = {c.name.value for c in classes}
    return not (_global_reads(text, names) | headers) - imported_names(module) - allowed - set(dir(builtins))


def _is_import(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) or (isinstance(small, cst.Expr)
                                                              and isinstance(small.value, cst.SimpleString))
        for small in statement.body)


def _global_reads(text: str, classes: set[str]) -> set[str]:
    """The module-level names the bodies of `classes` read (Python's own symbol tables say which)."""
    import symtable

    found: set[str] = set()
    pending = [table for table in symtable.symtable(text, "module", "exec").get_children()
               if table.get_name() in classes]
    while pending:
        table = pending.pop()
        found.update(symbol.get_name() for symbol in table.get_symbols()
                     if symbol.is_referenced() and (symbol.is_global() or (
                         table.get_type() == "class" and not symbol.is_assigned() and not symbol.is_imported())))
        pending.extend(table.get_children())
    return found


@rewrite("typing aliases in a renamed module")
def typing_renamed(case: Case) -> list[Case]:
    """The project's typing module (`pkg/typing.py`, `Array = jnp.ndarray`) renamed `type_aliases.py`, every
    import of it following; or, with no such module, a module's own aliases of library types moved there."""
    for path in case.modules():
        package, stem = path.rsplit("/", 1)
        if stem != "typing.py":
            continue
        target = f"{package}/type_aliases.py"
        files = {p: t for p, t in case.files.items() if p != path}
        files[target] = case.files[path]
        dotted = package.replace("/", ".")
        for other in case.modules():
            if other != path:
                renamer = _ModuleRenamer(f"{dotted}.typing", f"{dotted}.type_aliases", other)
                files[other] = parse(case.files[other]).visit(renamer).code
        return [Case(case.name, files)]
    for path in case.modules():
        module = parse(case.files[path])
        aliases = [s for s in module.body if _is_type_alias(s, imported_names(module, libraries_only=True))]
        if not aliases or path.endswith("__init__.py"):
            continue
        package = path.rsplit("/", 1)[0]
        names = sorted(code(s.body[0].targets[0].target) for s in aliases)
        moved = "\n".join([*module_import_lines(module), "", *(code(s) for s in aliases)])
        importing = _statement(f"from .type_aliases import {', '.join(names)}\n")
        kept = module.visit(_Replace({s: cst.RemovalSentinel.REMOVE for s in aliases},
                                     {_first_definition(module): [importing]}))
        return [case.with_files(**{path: kept.code, f"{package}/type_aliases.py": moved})]
    return []


def _is_type_alias(statement: cst.CSTNode, libraries: set[str]) -> bool:
    """`Array = jax.Array`, `Scalar = Union[float, jnp.ndarray]`: a module-level name for library types."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1
            and isinstance(statement.body[0].targets[0].target, cst.Name)):
        return False
    value = statement.body[0].value
    return isinstance(value, (cst.Attribute, cst.Subscript, cst.BinaryOperation)) and bool(names_in(value)) \
        and names_in(value) <= libraries


class _ModuleRenamer(cst.CSTTransformer):
    """Imports of one module of the package follow it to its new name (`from .typing import Array`,
    `from pkg.typing import Array`)."""

    def __init__(self, old: str, new: str, importer: str) -> None:
        self.old, self.new = old, new
        self.importer_package = ".".join(importer[:-3].split("/")[:-1])

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        if updated.module is None:
            return updated
        dots = len(updated.relative)
        base = self.importer_package.split(".")
        absolute = ".".join([*base[:len(base) - (dots - 1)], code(updated.module)]) if dots else code(updated.module)
        if absolute != self.old:
            return updated
        new_name = self.new.rsplit(".", 1)[-1] if dots else self.new
        if dots:
            return updated.with_changes(module=cst.Name(new_name) if "." not in code(updated.module) else
                                        cst.parse_expression(code(updated.module).rsplit(".", 1)[0] + "." + new_name))
        return updated.with_changes(module=cst.parse_expression(new_name))


# Variants made before, by the inputs that decide them (this file, the `# expect:` pattern, libcst, the rewrite,
# the case): making them is most of the suite's time (libcst transforms whole modules), and they change only
# when those inputs do. Kept with the user's other caches, as pip's and mypy's are; a corrupt or missing entry
# is made again.
VARIANT_CACHE = TEST_CACHE / "variants"


@cache
def _variant_inputs() -> str:
    """A digest of what every variant depends on (this file, the `# expect:` pattern it moves, libcst's
    version): made once per process (each read of libcst's version parses its metadata: 2 ms a test; hashing
    this file's text with each case, 0.4 ms a (rewrite, case) pair)."""
    inputs = [Path(__file__).read_text(), EXPECT.pattern, metadata.version("libcst")]
    return hashlib.sha256(json.dumps(inputs).encode()).hexdigest()


def variants(kind: str, case: Case) -> list[Case]:
    """The case's variants by this rewrite, made once for the same inputs, each checked to parse when made (a
    rewrite that makes a variant Python does not parse fails the test that asks for it)."""
    inputs = [_variant_inputs(), kind, case.name, case.files]
    key = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
    entry = VARIANT_CACHE / f"{key}.json"
    try:
        made = json.loads(entry.read_text())
        if isinstance(made, list) and all(isinstance(files, dict) for files in made):
            return [Case(case.name, files) for files in made]
    except (OSError, ValueError):
        pass
    found = REWRITES[kind](case)
    for number, variant in enumerate(found):
        for path, text in variant.files.items():
            try:
                ast.parse(text)
            except SyntaxError as error:
                raise AssertionError(f"[{kind}] variant {number}: {path} does not parse ({error})\n{text}") from None
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps([variant.files for variant in found]))
        os.replace(temporary, entry)  # whole or absent, whichever worker writes last
    except OSError:
        pass  # a read-only home: made again next time
    return found


def survival_table(rows: list[tuple[str, str, int, int]]) -> str:
    """Per rewrite and per rule: pairs where the rewrite applied, variants made, variants that kept their
    findings (or stayed clean). `rows`: (rewrite, rule, made, kept) per (rewrite, fixture) pair."""
    def table(key_index: int, title: str) -> list[str]:
        totals: dict[str, list[int]] = {}
        for row in rows:
            entry = totals.setdefault(row[key_index], [0, 0, 0, 0])
            entry[0] += 1
            entry[1] += row[2] > 0
            entry[2] += row[2]
            entry[3] += row[3]
        lines = [f"| {title} | (rewrite, fixture) pairs | applied to | variants | kept | kept % |",
                 "|---|---|---|---|---|---|"]
        for key in sorted(totals, key=lambda k: (list(REWRITES).index(k) if k in REWRITES else 0, k)):
            pairs, applied, made, kept = totals[key]
            share = 100 * kept / made if made else 100
            lines.append(f"| {key} | {pairs} | {applied} | {made} | {kept} | {share:.0f} |")
        return lines
    made = sum(row[2] for row in rows)
    kept = sum(row[3] for row in rows)
    return "\n".join([f"metamorphic survival: {kept} of {made} variants kept their findings "
                      f"({100 * kept / made if made else 100:.1f}%)", "", *table(0, "rewrite"), "",
                      *table(1, "rule")])
