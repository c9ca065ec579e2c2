"""One traversal of a module that records what every rule asks about.

The index holds the import aliases, the classes (their methods, class-level fields and every assignment
to an instance attribute), module-level functions and bindings, and each call with its enclosing scope.
Deeper questions (a function's local variables) are answered lazily, on the few functions that matter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Union

import libcst as cst

from .names import AliasTable, dotted_name

# How long a code snippet quoted in a message may be.
MAX_SNIPPET = 60

Scope = Union["ClassInfo", "FunctionInfo"]


@dataclass(eq=False)
class FunctionInfo:
    """A def or lambda; `cls` is the class whose body defines it (methods only)."""

    node: cst.FunctionDef | cst.Lambda
    cls: ClassInfo | None = None
    parent: Scope | None = None

    @property
    def name(self) -> str:
        return self.node.name.value if isinstance(self.node, cst.FunctionDef) else "<lambda>"

    @property
    def name_node(self) -> cst.CSTNode:
        """Where the function is named: the `def` line's name, or the lambda itself."""
        return self.node.name if isinstance(self.node, cst.FunctionDef) else self.node

    @cached_property
    def decorator_names(self) -> list[str]:
        if not isinstance(self.node, cst.FunctionDef):
            return []
        return [dotted_name(d.decorator) or "" for d in self.node.decorators]

    @property
    def is_staticmethod(self) -> bool:
        return "staticmethod" in self.decorator_names

    @property
    def is_classmethod(self) -> bool:
        return "classmethod" in self.decorator_names

    @cached_property
    def params(self) -> list[cst.Param]:
        """Positional parameters as a caller fills them: without the `cls` of a classmethod."""
        p = self.node.params
        positional = [*p.posonly_params, *p.params]
        if self.cls is not None and self.is_classmethod:
            positional = positional[1:]
        return positional

    @property
    def argument_params(self) -> list[tuple[int | None, cst.Param]]:
        """Each named parameter a caller fills, with its position (None: keyword-only)."""
        return [*enumerate(self.params), *((None, p) for p in self.node.params.kwonly_params)]

    @cached_property
    def all_params(self) -> dict[str, cst.Param]:
        p = self.node.params
        found = [*p.posonly_params, *p.params, *p.kwonly_params]
        for star in (p.star_arg, p.star_kwarg):
            if isinstance(star, cst.Param):
                found.append(star)
        return {param.name.value: param for param in found}

    @cached_property
    def self_name(self) -> str | None:
        """The name of the instance parameter of a method, e.g. `self`."""
        if self.cls is None or self.is_staticmethod or self.is_classmethod or not self.params:
            return None
        return self.params[0].name.value

    @cached_property
    def _body_facts(self) -> tuple[dict[str, list[Binding]], list[cst.Return], dict[int, int]]:
        """One walk over the body's statements (nested defs not entered): each local name's bindings,
        the returns, and every statement's position in source order."""
        bindings: dict[str, list[Binding]] = {}
        returns: list[cst.Return] = []
        order: dict[int, int] = {}
        if isinstance(self.node, cst.Lambda):
            return bindings, returns, order

        def bind(target, value, statement, unconditional: bool) -> None:
            for name_node, assigned in _pairs(target, value):
                name = _first_name(name_node)
                if name is not None:
                    bindings.setdefault(name, []).append(Binding(assigned, statement, order[id(statement)],
                                                                 unconditional))

        for position, (statement, depth) in enumerate(walk_statements(self.node.body)):
            order[id(statement)] = position
            if isinstance(statement, (cst.Assign, cst.AnnAssign)):
                targets = statement.targets if isinstance(statement, cst.Assign) else [statement]
                if statement.value is not None:
                    for target in targets:
                        bind(target.target, statement.value, statement, depth == 0)
            elif isinstance(statement, cst.Return):
                returns.append(statement)
            elif isinstance(statement, cst.For):
                bind(statement.target, None, statement, False)
            elif isinstance(statement, cst.With):
                for item in statement.items:
                    if item.asname is not None:
                        bind(item.asname.name, None, statement, False)
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                value = statement if isinstance(statement, cst.FunctionDef) else None
                bindings.setdefault(statement.name.value, []).append(
                    Binding(value, statement, position, depth == 0))
        return bindings, returns, order

    @cached_property
    def local_bindings(self) -> dict[str, list[cst.BaseExpression | cst.FunctionDef | None]]:
        """The values each local name can hold at the end of the body (None: assigned, value unknown).

        An assignment at the top level of the body overwrites the ones before it: `aux = []`,
        `aux.append(...)`, `aux = tuple(aux)` leaves only the tuple.
        """
        return {name: [b.value for b in live_bindings(entries)] for name, entries in self._body_facts[0].items()}

    def bindings_before(self, name: str, statement: cst.CSTNode | None) -> list[Binding]:
        """The bindings of `name` that can reach `statement` (all of them when it is not in this body):
        those before it in source order, from the last unconditional one on."""
        entries = self._body_facts[0].get(name, [])
        limit = self._body_facts[2].get(id(statement)) if statement is not None else None
        if limit is not None:
            entries = [b for b in entries if b.order < limit]
        return live_bindings(entries)

    @property
    def return_statements(self) -> list[cst.Return]:
        return self._body_facts[1]


@dataclass(frozen=True, eq=False)
class Binding:
    """A value assigned to a local name, by which statement, where in the body, and whether always."""

    value: cst.BaseExpression | cst.FunctionDef | None
    statement: cst.CSTNode
    order: int
    unconditional: bool


@dataclass(eq=False)
class AttributeAssignment:
    """`self.<attr> = value` (or `+=`, or `object.__setattr__(self, "attr", value)`) inside a method."""

    attr: str
    value: cst.BaseExpression | None
    statement: cst.CSTNode
    method: FunctionInfo
    augmented: bool = False
    unconditional: bool = False  # at the top level of the method body, not inside if/for/try/...


@dataclass(eq=False)
class ClassField:
    """A class-level `name: annotation = value` or `name = value`."""

    name: str
    annotation: cst.BaseExpression | None
    value: cst.BaseExpression | None
    statement: cst.CSTNode


@dataclass(eq=False)
class ClassInfo:
    node: cst.ClassDef
    parent: Scope | None = None
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    fields: dict[str, ClassField] = field(default_factory=dict)
    assignments: dict[str, list[AttributeAssignment]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.node.name.value

    @staticmethod
    def name_of_cls(method: FunctionInfo) -> str | None:
        """The name a classmethod calls its class by (its first parameter, usually `cls`)."""
        parameters = [*method.node.params.posonly_params, *method.node.params.params]
        return parameters[0].name.value if parameters else None


@dataclass(eq=False)
class CallSite:
    """A call made by a statement itself (`register(...)`, `Box = register(Box)`), with its scope."""

    node: cst.Call
    scope: Scope | None


@dataclass(eq=False)
class ModuleIndex:
    module: cst.Module
    aliases: AliasTable = field(default_factory=AliasTable)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    bindings: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    decorated_classes: list[ClassInfo] = field(default_factory=list)
    all_classes: list[ClassInfo] = field(default_factory=list)

    @classmethod
    def build(cls, module: cst.Module) -> ModuleIndex:
        index = cls(module)
        _Indexer(index).statements(module.body)
        return index

    @cached_property
    def all_calls(self) -> list[tuple[cst.Call, bool]]:
        """Every call in the module, each with whether it is inside a function (a full visit: lazy)."""
        collector = _CallCollector()
        self.module.visit(collector)
        return collector.calls

    def qualify(self, node: cst.CSTNode) -> str | None:
        return self.aliases.qualify(node)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def snippet(self, node: cst.CSTNode) -> str:
        """A node's code on one line, cut to `MAX_SNIPPET` characters: how messages quote code."""
        code = " ".join(self.code(node).split())
        return code if len(code) <= MAX_SNIPPET else code[:MAX_SNIPPET - 3] + "..."

    def is_builtin(self, name: str, function: FunctionInfo | None = None) -> bool:
        """`name` means Python's builtin here: neither imported nor bound by the module, nor a local or
        parameter of `function` (None: at module level)."""
        if self.aliases.is_module_local(name) or self.aliases.qualify(cst.Name(name)):
            return False
        return function is None or (name not in function.local_bindings and name not in function.all_params)

    def class_and_bases(self, cls: ClassInfo) -> list[ClassInfo]:
        """`cls` and its base classes defined in this module, nearest first."""
        order: list[ClassInfo] = []
        pending = [cls]
        while pending:
            current = pending.pop(0)
            if current in order:
                continue
            order.append(current)
            for base in current.node.bases:
                expr = base.value.value if isinstance(base.value, cst.Subscript) else base.value  # `Base[T]`
                resolved = self.resolve_class(expr)
                if resolved is not None:
                    pending.append(resolved)
        return order

    def assigned_name(self, call: cst.Call) -> str | None:
        """The module-level name a statement `name = <call>` binds to this call's result."""
        for name, values in self.bindings.items():
            if any(value is call for value in values):
                return name
        return None

    def constructor_calls(self, cls: ClassInfo) -> list[tuple[cst.Call, FunctionInfo | None]]:
        """Calls that build a `cls` in its own body (`cls(...)` in a classmethod, `Name(...)` in a method)
        or at module level (`box = Box(...)`), with the method that makes them (None: module level)."""
        found = []
        for site in self.calls:
            if site.scope is None:
                if self.resolve_class(site.node.func) is cls:
                    found.append((site.node, None))
                continue
            method = site.scope
            while isinstance(method, FunctionInfo) and method.cls is None:
                method = method.parent
            if not isinstance(method, FunctionInfo) or method.cls is not cls:
                continue
            func = site.node.func
            by_cls = isinstance(func, cst.Name) and method.is_classmethod and func.value == cls.name_of_cls(method)
            if by_cls or self.resolve_class(func) is cls:
                found.append((site.node, method))
        return found

    def module_function(self, name: str) -> FunctionInfo | None:
        """The module-level def, or the lambda bound once to a module-level name, that `name` refers to."""
        if not self.aliases.is_module_local(name):
            return None
        if name in self.functions:
            return self.functions[name]
        values = self.bindings.get(name, [])
        return FunctionInfo(values[0]) if len(values) == 1 and isinstance(values[0], cst.Lambda) else None

    def find_method(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        for owner in self.class_and_bases(cls):
            if name in owner.methods:
                return owner.methods[name]
        return None

    def resolve_class(self, node: cst.CSTNode) -> ClassInfo | None:
        """The module-level class a Name refers to (not shadowed by an import)."""
        if isinstance(node, cst.Name) and self.aliases.is_module_local(node.value):
            return self.classes.get(node.value)
        return None


def nodes_of(node: cst.CSTNode, kind: type) -> list:
    """Every node of a type inside `node` (itself included), in source order."""
    found, pending = [], [node]
    while pending:
        current = pending.pop()
        if isinstance(current, kind):
            found.append(current)
        pending.extend(reversed(current.children))
    return found


def live_bindings(entries):
    """Entries from the last unconditional one on (entries in source order, each with `.unconditional`):
    an assignment at the top level of a body overwrites everything assigned before it."""
    start = max((i for i, entry in enumerate(entries) if entry.unconditional), default=0)
    return entries[start:]


def keyword_arguments(args) -> dict[str, cst.BaseExpression]:
    """The keyword arguments of a call's argument list, by name."""
    return {a.keyword.value: a.value for a in args if a.keyword is not None}


def _first_name(target: cst.BaseExpression) -> str | None:
    return target.value if isinstance(target, cst.Name) else None


def _pairs(target: cst.BaseExpression, value: cst.BaseExpression | None):
    """Pair each name in an assignment target with the value it receives (None when unknown)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        elements = [e.value for e in target.elements]
        values: list[cst.BaseExpression | None] = [None] * len(elements)
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(elements):
            if not any(isinstance(e, cst.StarredElement) for e in value.elements):
                values = [e.value for e in value.elements]
        for element, element_value in zip(elements, values):
            yield from _pairs(element, element_value)
    else:
        yield target, value


class _Indexer:
    """Walks statements only: the index needs no expression below an assignment or a statement's call,
    and not entering expressions is what makes this pass cheap (a libcst visitor visits every node)."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.scopes: list[Scope] = []
        self.depth = 0  # if/for/while/try/with/match blocks around us in the current scope

    @property
    def scope(self) -> Scope | None:
        return self.scopes[-1] if self.scopes else None

    def _enclosing_method(self) -> FunctionInfo | None:
        """The innermost method around us (closures inside a method still see its `self`)."""
        for scope in reversed(self.scopes):
            if isinstance(scope, FunctionInfo) and scope.cls is not None:
                return scope
            if isinstance(scope, ClassInfo):
                return None
        return None

    # statements --------------------------------------------------------------------------------
    def statements(self, statements) -> None:
        for statement in statements:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._small(small)
            elif isinstance(statement, cst.ClassDef):
                self._class(statement)
            elif isinstance(statement, cst.FunctionDef):
                self._function(statement)
            else:
                self.depth += 1
                for block in _blocks(statement):
                    self._block(block)
                self.depth -= 1

    def _block(self, block: cst.BaseSuite) -> None:
        if isinstance(block, cst.IndentedBlock):
            self.statements(block.body)
        else:
            for small in block.body:
                self._small(small)

    def _scoped(self, scope: Scope, body: cst.BaseSuite) -> None:
        outer_depth, self.depth = self.depth, 0
        self.scopes.append(scope)
        self._block(body)
        self.scopes.pop()
        self.depth = outer_depth

    def _class(self, node: cst.ClassDef) -> None:
        info = ClassInfo(node, parent=self.scope)
        if not self.scopes:
            self.index.classes[node.name.value] = info
            self.index.aliases.shadow(node.name.value)
        if node.decorators:
            self.index.decorated_classes.append(info)
        self.index.all_classes.append(info)
        self._scoped(info, node.body)

    def _function(self, node: cst.FunctionDef) -> None:
        parent = self.scope
        owner = parent if isinstance(parent, ClassInfo) else None
        info = FunctionInfo(node, cls=owner, parent=parent)
        if owner is not None:
            owner.methods[node.name.value] = info
        elif parent is None:
            self.index.functions[node.name.value] = info
            self.index.aliases.shadow(node.name.value)
        self._scoped(info, node.body)

    def _small(self, node: cst.BaseSmallStatement) -> None:
        if isinstance(node, cst.Import):
            self.index.aliases.add_import(node, module_level=not self.scopes)
        elif isinstance(node, cst.ImportFrom):
            self.index.aliases.add_import_from(node, module_level=not self.scopes)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                self._record_target(target.target, node.value, node)
            self._call(node.value)
        elif isinstance(node, cst.AnnAssign):
            self._record_target(node.target, node.value, node, annotation=node.annotation.annotation)
            if node.value is not None:
                self._call(node.value)
        elif isinstance(node, cst.AugAssign):
            self._record_target(node.target, node.value, node, augmented=True)
        elif isinstance(node, (cst.Expr, cst.Return)) and node.value is not None:
            self._call(node.value)

    # bindings ----------------------------------------------------------------------------------
    def _record_target(self, target: cst.BaseExpression, value: cst.BaseExpression | None,
                       statement: cst.CSTNode, annotation: cst.BaseExpression | None = None,
                       augmented: bool = False) -> None:
        scope = self.scope
        for name_node, assigned in _pairs(target, value):
            if scope is None:
                name = _first_name(name_node)
                if name is not None and not augmented:
                    self.index.bindings.setdefault(name, []).append(assigned)
                    aliased = self.index.aliases.qualify(assigned) if assigned is not None else None
                    if aliased is not None:
                        self.index.aliases.bind_alias(name, aliased)
                    else:
                        self.index.aliases.shadow(name)
            elif isinstance(scope, ClassInfo):
                name = _first_name(name_node)
                if name is not None and not augmented:
                    scope.fields[name] = ClassField(name, annotation, assigned, statement)
            elif isinstance(name_node, cst.Attribute):
                self._record_attribute(name_node.value, name_node.attr.value, assigned, statement,
                                       augmented)

    def _record_attribute(self, owner: cst.BaseExpression, attr: str,
                          value: cst.BaseExpression | None, statement: cst.CSTNode,
                          augmented: bool) -> None:
        method = self._enclosing_method()
        if method is None or method.self_name is None or method.cls is None:
            return
        if isinstance(owner, cst.Name) and owner.value == method.self_name:
            unconditional = self.depth == 0 and self.scope is method and not augmented
            method.cls.assignments.setdefault(attr, []).append(
                AttributeAssignment(attr, value, statement, method, augmented, unconditional))

    # calls -------------------------------------------------------------------------------------
    def _call(self, node: cst.BaseExpression) -> None:
        """The call a statement makes (`register(...)`, `x = register(...)`, `object.__setattr__(...)`)."""
        if not isinstance(node, cst.Call):
            return
        dotted = dotted_name(node.func)
        if dotted is None:
            return
        self.index.calls.append(CallSite(node, self.scope))
        if dotted in ("object.__setattr__", "setattr") and len(node.args) >= 3:
            target, name, value = (a.value for a in node.args[:3])
            if isinstance(name, cst.SimpleString) and isinstance(name.evaluated_value, str):
                self._record_attribute(target, name.evaluated_value, value, node, augmented=False)


def walk_statements(block: cst.BaseSuite, depth: int = 0):
    """(statement, depth) for the small and compound statements of a block, depth counting the
    if/for/while/try/with/match blocks around each; nested defs and classes are yielded, not entered."""
    body = block.body if isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                yield small, depth
        elif isinstance(statement, cst.BaseSmallStatement):
            yield statement, depth
        else:
            yield statement, depth
            if not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                for inner in _blocks(statement):
                    yield from walk_statements(inner, depth + 1)


def _blocks(statement: cst.BaseCompoundStatement):
    """The statement blocks of an if/for/while/try/with/match statement, `else` and handlers included."""
    if isinstance(statement, cst.If):
        yield statement.body
        orelse = statement.orelse
        if isinstance(orelse, cst.If):
            yield from _blocks(orelse)
        elif orelse is not None:
            yield orelse.body
    elif isinstance(statement, cst.Match):
        for case in statement.cases:
            yield case.body
    else:
        yield statement.body
        for handler in getattr(statement, "handlers", ()):
            yield handler.body
        for extra in (getattr(statement, "orelse", None), getattr(statement, "finalbody", None)):
            if extra is not None:
                yield extra.body


class _CallCollector(cst.CSTVisitor):
    """Every call in the module with its scope: a full visit, made only when a rule asks for it."""

    def __init__(self) -> None:
        self.scopes: list[cst.CSTNode] = []
        self.calls: list[tuple[cst.Call, bool]] = []  # (call, inside a function)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scopes.pop()

    visit_Lambda = visit_FunctionDef
    leave_Lambda = leave_FunctionDef

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append((node, bool(self.scopes)))
