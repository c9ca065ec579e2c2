"""Flax NNX classes and their attributes: which are data (children), which static (the GraphDef).

NNX decides per attribute, at its first assignment, from the value (knowledge/nnx.py): Variables, arrays,
Modules, `nnx.List`/`nnx.Dict` and `nnx.data(...)` are data; anything else is static, and a static
attribute may not later receive data. This module classifies every `self.x = ...` of an NNX class (and
`obj.x = ...` at module level on an instance), and the values later put into its containers, so that
rules PTL501-PTL506 ask, and the aux_data rules see the static attributes as static fields.
"""

from __future__ import annotations

import ast
from functools import cached_property

from ...knowledge import nnx
from ...knowledge.python import CONSTRUCTOR_METHODS
from ..record import field, record, remade
from ..syntax.model import (
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    argument_given,
    fillings_in,
    is_none,
    literal_string,
    nodes_of,
    unquoted,
    written_as,
)
from ..syntax.names import dotted_name
from ..syntax.shims import taken_branch
from ..values.inference import Context, Elsewhere, ValueInference
from ..values.kinds import Kind
from ..values.kinds import NnxStatus as Status
from .fields import leaves_nnx
from .structure import self_attributes

# At most this many assignments of a name, or calls passing a parameter, are joined to say what it holds (each
# is classified in turn, within the depth bound: a name assigned in many places is not known).
MAX_JOINED_BINDINGS = 4
# The decorator that leaves a class a plain Python class.
DATACLASS = "dataclasses.dataclass"


@record
class NnxValue:
    status: Status
    what: str  # how messages name it: "an `nnx.Linear`", "a list holding an `nnx.Linear`", "None"
    node: ast.expr
    inner: ast.expr | None = None  # the data inside a container, or the value inside nnx.data(...)
    param: bool = False  # an `nnx.Param` (or a subclass)
    random: bool = False  # an array a random initializer makes (a parameter to train, PTL504)
    hidden_module: ast.expr | None = None  # a Module wrapped by a transformation or partial (PTL505)
    container: str | None = None  # "list", "dict" or "tuple" for a display or comprehension
    module: bool = False  # a Module (or other graph node) made here
    variable: bool = False  # an `nnx.Variable` of any kind made here (`param` says whether a Param)
    holds: str = ""  # a container holding data: how messages name what it holds ("an `nnx.Linear`")

    @property
    def is_data(self) -> bool:
        """Data as NNX sees it: a Module, Variable or array, or a plain container holding one."""
        return self.status in (Status.DATA, Status.CONTAINER_WITH_DATA)


@record
class NnxAssignment:
    """`self.<attribute> = value` in a method (`method`), or `obj.<attribute> = value` outside the class
    (`method` None)."""

    attribute: str
    target: ast.expr
    value: NnxValue
    statement: ast.AST
    method: FunctionInfo | None
    unconditional: bool
    after_deletion: bool = False  # its method deletes the attribute before (`del self.w`): NNX takes it anew

    @property
    def in_constructor(self) -> bool:
        return self.method is not None and self.method.name in CONSTRUCTOR_METHODS


@record
class Filling:
    """A value put into an attribute's container: `self.layers.append(nnx.Linear(...))`, by `method` (a
    function of another module's that this module's methods do not call alone: None, named by `by`)."""

    node: ast.AST | Elsewhere
    value: NnxValue
    method: FunctionInfo | None
    by: str = ""

    @property
    def filler(self) -> str:
        """How messages name the function that fills the container."""
        return self.method.name if self.method is not None else self.by


@record
class NnxClass:
    cls: ClassInfo
    assignments: dict[str, list[NnxAssignment]] = field(default_factory=dict)
    fillings: dict[str, list[Filling]] = field(default_factory=dict)

    @property
    def has_params(self) -> bool:
        """It holds an `nnx.Param`, or a layer (which has its own)."""
        return any(a.value.param or a.value.module for group in self.assignments.values() for a in group)

    def first(self, attribute: str) -> NnxAssignment | None:
        """The assignment NNX sees first: the constructor's, in source order."""
        group = self.assignments.get(attribute, [])
        return min(group, key=lambda a: (not a.in_constructor, a.method is None, a.statement.lineno), default=None)

    def runs_after(self, later: NnxAssignment, first: NnxAssignment) -> bool:
        """`later` runs after `first` on the same object: further down the same method when `first` is not in
        a branch of its own; in another method or outside the class, unless that method runs only from
        `first`'s, in the branch of an `if` that `first` is not in (`if dense: self.gate = None`, `else:
        self._init_moe()`)."""
        if later.method is first.method:
            return first.unconditional and later.statement.lineno > first.statement.lineno
        if later.method is None or first.method is None or later.method.cls is not self.cls:
            return True
        calls = [call for method in self.cls.methods.values() for call in method.nodes(ast.Call)
                 if isinstance(call.func, ast.Attribute) and call.func.attr == later.method.name
                 and isinstance(call.func.value, ast.Name) and call.func.value.id == method.self_name]
        inside = {id(call) for call in first.method.nodes(ast.Call)}
        if not calls or any(id(call) not in inside for call in calls):
            return True
        guards = first.method.guards
        apart = {(id(test), holds) for test, holds in guards.get(id(first.statement), ((), ()))[0]}
        return not all(any((id(test), not holds) in apart for test, holds in
                           guards.get(id(first.method.statement_holding(call)), ((), ()))[0]) for call in calls)

    def made_static(self, attribute: str) -> NnxAssignment | None:
        """The constructor's first assignment of `attribute`, when it makes the attribute static: what NNX
        then holds it to (PTL501-PTL503 report there)."""
        first = self.first(attribute)
        if first is None or not first.in_constructor or first.value.status is not Status.STATIC:
            return None
        return first

    def static_attributes(self) -> list[NnxAssignment]:
        """The attributes that stay static: each one's first assignment, when none of its values is data."""
        found = []
        for name, group in self.assignments.items():
            statuses = {a.value.status for a in group}
            filled = any(f.value.is_data for f in self.fillings.get(name, ()))  # PTL501's, PTL502's
            hiding = any(a.value.hidden_module is not None for a in group)  # PTL505's, not aux_data's
            if statuses <= {Status.STATIC, Status.EXPLICIT_STATIC} and not filled and not hiding:
                found.append(self.first(name))
        return found


class NnxClasses:
    def __init__(self, index: ModuleIndex, values: ValueInference) -> None:
        self.index = index
        self.values = values
        self._declared: dict[int, dict[str, Status]] = {}  # see declarations
        self._local_fillings: dict[int, list] = {}  # per function: fillings_in, read once (see _filled_local)

    def spelling(self, name: str) -> str | None:
        """How this module can spell `flax.nnx.<name>` (`nnx.List` after `from flax import nnx`), for a
        fix; None when it imports neither flax.nnx nor the name."""
        for local, qualified in self.index.aliases.items():
            if qualified == nnx.NNX.rstrip("."):
                return f"{local}.{name}"
            if qualified == f"{nnx.NNX}{name}":
                return local
        return None

    # which classes -------------------------------------------------------------------------------------------
    def declaration(self, cls: ClassInfo, seen: set[int] | None = None) -> ast.expr | None:
        """The base or decorator that makes `cls` an NNX pytree (None: it is not one, or its class keywords
        take it out: see leaves_nnx)."""
        seen = seen if seen is not None else set()
        seen.add(id(cls))
        if leaves_nnx(cls):
            return None
        for decorator in cls.decorators:
            if self.index.qualify(decorator.func if isinstance(decorator, ast.Call) else decorator) == nnx.DATACLASS:
                return decorator
        for base in cls.bases:
            qualified = self.index.qualify(base)
            if qualified in nnx.NOT_PYTREE_BASES:
                return None
            if qualified in nnx.BASES:
                return base
            parent = self.index.resolve_class(base)
            if parent is not None and id(parent) not in seen and self.declaration(parent, seen) is not None:
                return base
            definition = self.index.definition(base)
            if definition is not None and self.index.project.is_nnx_class(definition):
                return base
        return None

    def is_module_class(self, expr: ast.expr) -> bool:
        """A constructor of a graph node: a layer of `nnx`, or an NNX class of this or another project
        module."""
        if self.index.qualify(expr) in nnx.GRAPH_NODES:
            return True
        cls = self.index.resolve_class(expr)
        if cls is not None:
            return self.declaration(cls) is not None
        definition = self.index.definition(expr)
        return definition is not None and self.index.project.is_nnx_class(definition)

    def variable(self, expr: ast.expr, seen: set[int] | None = None) -> str | None:
        """"param" for `nnx.Param` and its subclasses, "variable" for other Variables, else None."""
        qualified = self.index.qualify(expr)
        if qualified is not None:
            definition = self.index.definition(expr) if qualified not in nnx.VARIABLES else None
            if definition is not None and definition.cls is not None:  # a class of another project module
                qualified = self.index.project.library_base(definition, nnx.VARIABLES)
            return "param" if qualified in nnx.PARAMS else ("variable" if qualified in nnx.VARIABLES else None)
        cls = self.index.resolve_class(expr)
        seen = seen if seen is not None else set()
        if cls is None or id(cls) in seen:
            return None
        seen.add(id(cls))
        kinds = [self.variable(base, seen) for base in cls.bases]
        return "param" if "param" in kinds else ("variable" if "variable" in kinds else None)

    @cached_property
    def classes(self) -> list[NnxClass]:
        found = []
        for cls in self.index.all_classes:
            if self.declaration(cls) is not None:
                found.append(self._collect(NnxClass(cls)))
        by_name = {c.cls.name: c for c in found if c.cls.parent is None}
        self._outside(by_name)
        for nnx_class in found:
            declared = self.declarations(nnx_class.cls)
            for name, group in nnx_class.assignments.items():
                if name in declared:
                    group[:] = [_held_as(assignment, declared[name]) for assignment in group]
        return found

    def declarations(self, cls: ClassInfo) -> dict[str, Status]:
        """The attributes the class (or a base, in any module) declares data or static at class level
        (`nnx.Data[...]`, `nnx.Static[...]`, `= nnx.data(...)`, `= nnx.static(...)`): EXPLICIT_DATA or
        EXPLICIT_STATIC, whatever the values assigned (the nearest class's declaration counts)."""
        key = id(cls.node)
        if key not in self._declared:
            found: dict[str, Status] = {}
            for owner in reversed(self.index.class_and_bases(cls, across_modules=True)):
                for statement in owner.node.body:
                    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and (
                            status := self._declared_status(statement)) is not None:
                        found[statement.target.id] = status
            self._declared[key] = found
        return self._declared[key]

    def _declared_status(self, statement: ast.AnnAssign) -> Status | None:
        quoted = literal_string(statement.annotation) or ""
        annotation = unquoted(statement.annotation)
        marker = self.index.qualify(annotation.value) if isinstance(annotation, ast.Subscript) else None
        called = self.index.qualify(statement.value.func) if isinstance(statement.value, ast.Call) else None
        if marker == nnx.DATA_ANNOTATION or called == nnx.DATA or quoted.startswith(nnx.QUOTED_DATA):
            return Status.EXPLICIT_DATA
        if marker == nnx.STATIC_ANNOTATION or called == nnx.STATIC or quoted.startswith(nnx.QUOTED_STATIC):
            return Status.EXPLICIT_STATIC
        return None

    def handed_over(self, nnx_class: NnxClass, attribute: str) -> bool:
        """The class deletes the attribute (`del self._pops`) or hands it to `nnx.List`/`nnx.Dict`/`nnx.data`
        (`self.pops = nnx.Dict(self._pops)`): a registry filled while building, then made data."""
        for method in nnx_class.cls.methods.values():
            if _deletions(method, attribute):
                return True
            for call in method.nodes(ast.Call):
                if self.index.qualify(call.func) in (nnx.LIST, nnx.DICT, nnx.DATA) and any(
                        attribute in self_attributes(argument, method.self_name) for argument in call.args):
                    return True
        return False

    # attributes ----------------------------------------------------------------------------------------------
    def _collect(self, nnx_class: NnxClass) -> NnxClass:
        cls = nnx_class.cls
        for name, group in cls.assignments.items():
            for assignment in group:
                if assignment.value is None or assignment.augmented or not isinstance(assignment.statement,
                                                                                      (ast.Assign, ast.AnnAssign)):
                    continue
                context = Context(assignment.method, ((assignment.method.self_name or "self", cls),),
                                  assignment.statement)
                target = _target(assignment.statement, name)
                nnx_class.assignments.setdefault(name, []).append(NnxAssignment(
                    name, target, self.classify(assignment.value, context), assignment.statement,
                    assignment.method, assignment.unconditional,
                    _deleted_before(assignment.method, name, assignment.statement)))
        containers = {name for name, group in nnx_class.assignments.items()
                      if any(a.value.container in ("list", "dict") for a in group)}
        if containers:  # only a container can be filled: the methods are walked only then
            for method in cls.methods.values():
                if method.self_name is not None:
                    self._fillings(nnx_class, method, method.self_name, containers, method)
            for function, parameter in self._typed_helpers(cls):
                self._fillings(nnx_class, function, parameter, containers, self._only_caller(function, cls))
            self._fillings_elsewhere(nnx_class, containers)
        return nnx_class

    def _fillings_elsewhere(self, nnx_class: NnxClass, containers: set[str]) -> None:
        """The values other modules' functions put into the containers through a parameter annotated with
        the class (their summaries' changes), each as filled by the one method here that calls the function."""
        if nnx_class.cls.parent is not None:
            return
        for change, summary in self.index.changes_elsewhere(nnx_class.cls.name):
            status = Status.__members__.get(change.filled_status)
            if change.attribute not in containers or status is None:
                continue
            where = Elsewhere(change.text, summary.display_path, change.line)
            value = NnxValue(status, change.filled_what, where)  # type: ignore[arg-type]
            if status is Status.UNKNOWN and change.filled_parameter:  # one of its parameters: what calls pass
                value = self._given(self.index.calls_to(change.function), change.filled_parameter,
                                    change.filled_position, where, 0) or value  # type: ignore[arg-type]
            method = self._one_method_calling(self.index.calls_to(change.function), nnx_class.cls)
            nnx_class.fillings.setdefault(change.attribute, []).append(
                Filling(where, value, method, change.function.rsplit(".", 1)[-1]))

    def _typed_helpers(self, cls: ClassInfo) -> list[tuple[FunctionInfo, str]]:
        """The module functions with a parameter annotated with the class (`def grow(net: "Net", ...)`)."""
        return [(function, param.name) for function in self.index.functions.values() for param in function.params
                if param.annotation is not None and self.index.resolve_class(unquoted(param.annotation)) is cls]

    def _only_caller(self, function: FunctionInfo, cls: ClassInfo) -> FunctionInfo:
        """The method of the class that makes every call of the function (its filling happens there, as
        if written in it: in `__init__`, while the object is built); else the function itself."""
        return self._one_method_calling(self.index.calls_named(function.name), cls) or function

    def _one_method_calling(self, calls: list[ast.Call], cls: ClassInfo) -> FunctionInfo | None:
        """The method of the class that makes every one of the calls; None when several functions or none
        make them, or one that is not the class's."""
        callers = {id(caller): caller for call in calls if (caller := self.index.enclosing_function(call)) is not None}
        only = next(iter(callers.values())) if len(callers) == 1 else None
        return only if only is not None and only.cls is cls else None

    def _fillings(self, nnx_class: NnxClass, function: FunctionInfo, self_name: str, containers: set[str],
                  method: FunctionInfo) -> None:
        """The values `function` puts into the containers of the object it calls `self_name`, as filled by
        `method` (the function itself, or the one method that calls it)."""
        for statement, node, receiver, value in fillings_in(function):
            if isinstance(receiver, ast.Attribute) and receiver.attr in containers \
                    and isinstance(receiver.value, ast.Name) and receiver.value.id == self_name:
                context = Context(function, ((self_name, nnx_class.cls),), statement)
                put = self.classify(value, context)
                if _puts_items(node) and put.status is Status.CONTAINER_WITH_DATA:  # `extend([nnx.Linear(...)])`
                    put = remade(put, status=Status.DATA, what=put.holds, container=None, holds="")
                nnx_class.fillings.setdefault(receiver.attr, []).append(Filling(node, put, method))

    def _outside(self, by_name: dict[str, NnxClass]) -> None:
        """`model.head = nnx.Linear(...)` at module level, on a `model = Model(...)` of the module."""
        instances = {}
        for name, values in self.index.bindings.items():
            for value in values:
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in by_name:
                    instances[name] = by_name[value.func.id]
        if not instances:
            return
        for statement in self.index.tree.body:
            if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
                continue
            target = statement.targets[0]
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id in instances:
                owner = instances[target.value.id]
                owner.assignments.setdefault(target.attr, []).append(NnxAssignment(
                    target.attr, target, self.classify(statement.value, Context()), statement, None, True))

    # values --------------------------------------------------------------------------------------------------
    def classify(self, expr: ast.expr, context: Context, depth: int = 0) -> NnxValue:
        """What NNX makes of a value assigned to an attribute."""
        if depth > 4:
            return NnxValue(Status.UNKNOWN, "a value", expr)
        if is_none(expr):
            return NnxValue(Status.STATIC, "None", expr)
        if isinstance(expr, ast.IfExp):
            taken = taken_branch(self.index, expr)
            if taken is not None:
                return self.classify(taken, context, depth + 1)
            body, orelse = (self.classify(branch, context, depth + 1) for branch in (expr.body, expr.orelse))
            # The join of the branches: what both make, else not known (NNX decides per object).
            return body if body.status is orelse.status else NnxValue(Status.UNKNOWN, "a value", expr)
        if isinstance(expr, (ast.List, ast.ListComp, ast.Tuple, ast.Set, ast.Dict, ast.DictComp)):
            return self._container(expr, context, depth)
        if isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Call)):
            # an element of what a helper returns (`make(rngs)[0]`), an attribute of an object it builds
            element = written_as(expr, context.function, self.index)
            if element is not expr:
                return self.classify(element, context, depth + 1)
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, (ast.Name, ast.List, ast.ListComp, ast.Tuple)):
            held = self._element_of(expr, context, depth)  # `feats[-1]`, `feats[:-1]` of a list of layer outputs
            if held is not None:
                return held
        if isinstance(expr, ast.Call):
            inlined = self.index.inlined(expr, context.function)  # a helper that returns a constructor call
            if inlined is not None:
                return self.classify(inlined, context, depth + 1)
            classified = self._call(expr, context, depth)
            if classified is not None:
                return classified
        if isinstance(expr, ast.BinOp):  # `jax.random.normal(key, shape) * 0.02` is still a random array
            for operand in (expr.left, expr.right):
                classified = self.classify(operand, context, depth + 1)
                if classified.random:
                    return NnxValue(Status.DATA, classified.what, expr, random=True)
        if isinstance(expr, ast.Name) and context.function is not None:
            bound = context.function.bindings_before(expr.id, context.statement)
            if 0 < len(bound) <= MAX_JOINED_BINDINGS and all(isinstance(b.value, ast.expr) for b in bound):
                # The join of the assignments that may reach it (`block = Conv(...)` in one loop, `block =
                # Deconv(...)` in the next): what every one makes, else not known; named by the nearest.
                joined = _joined([self.classify(b.value, Context(context.function, context.instances, b.statement),
                                                depth + 1) for b in bound if isinstance(b.value, ast.expr)], expr)
                if joined.status is Status.STATIC and joined.container in ("list", "dict", "set"):
                    return self._filled_local(expr, joined, context, depth) or joined
                return joined
            param = context.function.all_params.get(expr.id)
            if param is not None and not bound:
                annotated = self._annotated(param.annotation, expr)
                if annotated.status is not Status.UNKNOWN:
                    return annotated
                function = context.function  # `change(self, block)`: what the calls pass
                positional = [p.name for p in function.positional_params]
                position = positional.index(param.name) if param.name in positional else None
                return self._given(self.index.calls_named(function.name), param.name, position, expr,
                                   depth) or annotated
        return self._by_evidence(expr, context)

    def _filled_local(self, name: ast.Name, container: NnxValue, context: Context, depth: int) -> NnxValue | None:
        """A local list, dict or set made empty or static and filled in place with data before it is read
        (`layers = []`, `layers.append(nnx.Linear(...))` in a loop, then `self.layers = layers`:
        jackofalltrades' networks): a container holding data."""
        function = context.function
        reached = getattr(context.statement, "lineno", None)
        if function is None or reached is None:
            return None
        if id(function.node) not in self._local_fillings:
            self._local_fillings[id(function.node)] = list(fillings_in(function))
        for statement, node, filled, put in self._local_fillings[id(function.node)]:
            if not (isinstance(filled, ast.Name) and filled.id == name.id and statement.lineno < reached):
                continue
            inner = self.classify(put, Context(function, context.instances, statement), depth + 1)
            if _puts_items(node):  # what it puts in is a container: its items
                if inner.status is not Status.CONTAINER_WITH_DATA:
                    continue
                holding = inner.holds
            elif inner.is_data:
                holding = _held(inner)
            else:
                continue
            return remade(container, status=Status.CONTAINER_WITH_DATA, what=f"a {container.container} holding "
                          f"{holding}", holds=holding, inner=inner.inner or inner.node)
        return None

    def _given(self, calls: list[ast.Call], name: str, position: int | None, node: ast.expr,
               depth: int) -> NnxValue | None:
        """What calls of a function pass as its parameter `name` (at `position`), each argument classified
        where its call is written, joined (see _joined); None when there is no call, more than
        MAX_JOINED_BINDINGS, or one whose argument is not sure."""
        if not calls or len(calls) > MAX_JOINED_BINDINGS:
            return None
        joined = []
        for call in calls:
            argument = argument_given(call, name, position)
            caller = self.index.enclosing_function(call)
            if argument is None or caller is None:
                return None
            joined.append(self.classify(argument, Context(caller, (), caller.statement_holding(call)), depth + 1))
        return _joined(joined, node)

    def _container(self, expr: ast.expr, context: Context, depth: int) -> NnxValue:
        kind = {ast.List: "list", ast.ListComp: "list", ast.Tuple: "tuple", ast.Set: "set", ast.Dict: "dict",
                ast.DictComp: "dict"}[type(expr)]
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            items = [e.value if isinstance(e, ast.Starred) else e for e in expr.elts]
        elif isinstance(expr, ast.Dict):
            items = [v for v in expr.values]
        else:
            items = [expr.elt if isinstance(expr, ast.ListComp) else expr.value]
        for item in items:
            inner = self.classify(item, context, depth + 1)
            if inner.status in (Status.EXPLICIT_DATA, Status.EXPLICIT_STATIC):
                # NNX raises `Found unexpected tags` for these inside a container: not a static value.
                return NnxValue(Status.UNKNOWN, f"a {kind} holding {inner.what}", expr, container=kind)
            if inner.is_data:
                holding = _held(inner)
                return NnxValue(Status.CONTAINER_WITH_DATA, f"a {kind} holding {holding}", expr,
                                inner.inner or inner.node, container=kind, holds=holding)
        return NnxValue(Status.STATIC, f"a {kind}", expr, container=kind)

    def _call(self, call: ast.Call, context: Context, depth: int) -> NnxValue | None:
        func = call.func
        qualified = self.index.qualify(func)
        short = f"`{self.index.code(func)}`"
        if qualified == nnx.DATA:
            inner = call.args[0] if call.args else None
            return NnxValue(Status.EXPLICIT_DATA, "`nnx.data(...)`", call, inner)
        if qualified == nnx.STATIC:
            return NnxValue(Status.EXPLICIT_STATIC, "`nnx.static(...)`", call)
        variable = self.variable(func)
        if variable is not None:
            return NnxValue(Status.DATA, _a(self.index.code(func)), call, param=variable == "param", variable=True)
        if self.is_module_class(func):
            return NnxValue(Status.DATA, _a(self.index.code(func)), call, module=True)
        if qualified in nnx.WRAPPERS and call.args:
            wrapped = call.args[0]
            module = self._module_made(wrapped, context)
            return NnxValue(Status.STATIC, f"`{qualified.rsplit('.', 1)[-1]}(...)`", call, hidden_module=module)
        copied = self._copied_container(call, context, depth)
        if copied is not None:
            return copied
        if self._random(call):
            return NnxValue(Status.DATA, f"a random array ({short})", call, random=True)
        if self._submodule(func, context):
            return NnxValue(Status.DATA, f"the output of {short} (an array)", call)
        return self._made_by_parameter(call, context)

    def _element_of(self, subscript: ast.Subscript, context: Context, depth: int) -> NnxValue | None:
        """An item (or a slice) of a list or tuple that holds data, written here or bound once to a local:
        data (a list holding it). The container is read at the subscript's own depth: the step is one of the
        expression's, not a value followed elsewhere."""
        container = self.classify(subscript.value, context, depth)
        if container.status is not Status.CONTAINER_WITH_DATA or container.container not in ("list", "tuple"):
            return None
        if isinstance(subscript.slice, ast.Slice):
            return NnxValue(Status.CONTAINER_WITH_DATA, container.what, subscript, container.inner,
                            container=container.container, holds=container.holds)
        return NnxValue(Status.DATA, container.holds, subscript, container.inner)

    def _copied_container(self, call: ast.Call, context: Context, depth: int) -> NnxValue | None:
        """`list(layers)`, `tuple(blocks)`, `dict(heads)`, `dict(mean=nnx.Linear(...))`: a plain container
        holding what the container it copies holds, or its keywords' values."""
        func = call.func
        if not (isinstance(func, ast.Name) and func.id in ("list", "tuple", "dict") and len(call.args) <= 1
                and (func.id == "dict" or (call.args and not call.keywords))
                and self.index.is_builtin(func.id, context.function)):
            return None
        copied = [*call.args, *(k.value for k in call.keywords if k.arg is None)]  # `**heads` copies too
        for inner in (self.classify(value, context, depth + 1) for value in copied):
            if inner.status is Status.CONTAINER_WITH_DATA:
                return NnxValue(Status.CONTAINER_WITH_DATA, f"a {func.id} holding {inner.holds}", call,
                                inner.inner or inner.node, container=func.id, holds=inner.holds)
        for keyword in call.keywords:
            inner = self.classify(keyword.value, context, depth + 1) if keyword.arg is not None else None
            if inner is not None and inner.is_data:
                holding = _held(inner)
                return NnxValue(Status.CONTAINER_WITH_DATA, f"a dict holding {holding}", call,
                                inner.inner or inner.node, container="dict", holds=holding)
        return None

    def _submodule(self, func: ast.expr, context: Context) -> bool:
        """`self.proj` where the class assigns `self.proj` a Module: calling it gives an array."""
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and context.instances
                and func.value.id == context.instances[0][0]):
            return False
        cls = context.instances[0][1]
        return any(isinstance(a.value, ast.Call) and self.is_module_class(a.value.func)
                   for a in cls.assignments.get(func.attr, ()))

    def _made_by_parameter(self, call: ast.Call, context: Context) -> NnxValue | None:
        """A call of a parameter that holds a Module or Variable class: `block: type[nnx.Module] = ViTBlock`
        makes a Module (its default is one, or every class its annotation admits), `param_type:
        type[nnx.Variable] = nnx.Param` a Variable (every class its default and its annotation admit)."""
        func = call.func
        if not isinstance(func, ast.Name) or context.function is None:
            return None
        param = context.function.all_params.get(func.id)
        if param is None or context.function.bindings_before(func.id, context.statement):
            return None
        default = [param.default] if param.default is not None and not is_none(param.default) else []
        admitted = _admitted_classes(param.annotation)
        made = f"`{self.index.code(func)}(...)`"
        if any(map(self._module_class, default)) or (admitted and all(map(self._module_class, admitted))):
            return NnxValue(Status.DATA, f"a Module made by {made}", call, module=True)
        kinds = [self.variable(cls) for cls in [*default, *admitted]]
        if kinds and all(kinds):
            return NnxValue(Status.DATA, f"a Variable made by {made}", call,
                            param=all(kind == "param" for kind in kinds), variable=True)
        return None

    def _module_class(self, expr: ast.expr) -> bool:
        """An NNX Module class: a base of `nnx`'s, a layer, or a class of this or another project module."""
        return self.index.qualify(expr) in nnx.BASES or self.is_module_class(expr)

    def _random(self, call: ast.Call) -> bool:
        """A sampler of `jax.random`, or an initializer applied to a key: `lecun_normal()(key, shape)`."""
        qualified = self.index.qualify(call.func) or ""
        if qualified.startswith(nnx.RANDOM):
            return qualified[len(nnx.RANDOM):] not in nnx.NOT_SAMPLERS and bool(call.args)
        if isinstance(call.func, ast.Call):
            maker = self.index.qualify(call.func.func) or ""
            return maker.startswith(nnx.INITIALIZER_MODULES) and len(call.args) >= 2
        return False

    def _module_made(self, expr: ast.expr, context: Context) -> ast.expr | None:
        """The Module constructor call a wrapped callable is, directly or through a local name that no
        attribute also holds (its value as the helper that makes it writes it)."""
        if not isinstance(expr, ast.Name):  # a helper that returns the Module, a conditional of two alike
            expr = written_as(expr, context.function, self.index)
        if isinstance(expr, ast.Call) and self.is_module_class(expr.func):
            return expr
        if isinstance(expr, ast.Name) and context.function is not None:
            bound = context.function.bindings_before(expr.id, context.statement)
            made = written_as(bound[0].value, context.function, self.index) if len(bound) == 1 and isinstance(
                bound[0].value, ast.expr) else None  # a helper's Module, or the element of a tuple it returns
            if isinstance(made, ast.Call) and self.is_module_class(made.func):
                kept = any(isinstance(v, ast.Name) and v.id == expr.id
                           for group in (context.instances[0][1].assignments.values() if context.instances else ())
                           for v in (a.value for a in group))
                return None if kept else bound[0].value
        return None

    def _annotated(self, annotation: ast.expr | None, node: ast.expr) -> NnxValue:
        if annotation is None:
            return NnxValue(Status.UNKNOWN, "a parameter", node)
        if self.variable(annotation) is not None or self.is_module_class(annotation):
            return NnxValue(Status.DATA, f"a `{self.index.code(annotation)}`", node)
        if any(e.kind is Kind.ARRAY for e in self.values.annotation(annotation)):
            return NnxValue(Status.DATA, "an array", node)
        return NnxValue(Status.UNKNOWN, "a parameter", node)

    def _by_evidence(self, expr: ast.expr, context: Context) -> NnxValue:
        evidence = self.values.infer(expr, context)
        if any(e.kind is Kind.ARRAY and not e.shared for e in evidence):
            return NnxValue(Status.DATA, "an array", expr)
        if literal_string(expr) is not None or (isinstance(expr, ast.Constant) and not isinstance(expr.value, bytes)):
            return NnxValue(Status.STATIC, f"`{self.index.code(expr)}`", expr)
        if evidence and all(e.kind in (Kind.SAFE, Kind.MUTABLE, Kind.VOLATILE) or _plain_instance(self.index, e)
                            for e in evidence):
            return NnxValue(Status.STATIC, evidence[0].what, expr)
        return NnxValue(Status.UNKNOWN, "a value", expr)


def _held_as(assignment: NnxAssignment, status: Status) -> NnxAssignment:
    """An assignment of an attribute the class declares data or static: NNX holds its value so."""
    return remade(assignment, value=remade(assignment.value, status=status, inner=None, container=None))


def _admitted_classes(annotation: ast.expr | None) -> list[ast.expr]:
    """The classes a class-holding parameter's annotation admits: `A` of `type[A]`, `Type[A]`, `A | B`,
    `Union[A, B]`, `Optional[A]` (None left out)."""
    if annotation is None or is_none(annotation):
        return []
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return [*_admitted_classes(annotation.left), *_admitted_classes(annotation.right)]
    if isinstance(annotation, ast.Subscript):
        generic = dotted_name(annotation.value)
        arguments = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        if generic is not None and generic.rsplit(".", 1)[-1] in ("type", "Type", "Union", "Optional"):
            return [cls for argument in arguments for cls in _admitted_classes(argument)]
        return []
    return [annotation] if isinstance(annotation, (ast.Name, ast.Attribute)) else []


def _deletions(method: FunctionInfo, attribute: str) -> list[ast.Delete]:
    """The method's `del self.<attribute>` statements."""
    return [node for node in method.nodes(ast.Delete)
            if any(_is_attribute(target, method.self_name, attribute) for target in node.targets)]


def _deleted_before(method: FunctionInfo, attribute: str, statement: ast.stmt) -> bool:
    """The method deletes `self.<attribute>` before the statement (`if hasattr(self, "w"): del self.w`)."""
    return any(node.lineno < statement.lineno for node in _deletions(method, attribute))


def _joined(values: list[NnxValue], node: ast.expr) -> NnxValue:
    """What each of several values a name may hold makes, when they agree (named by the last: the nearest
    assignment, the last call); else not known (NNX decides per object)."""
    inner = values[-1]
    if any(other.status is not inner.status for other in values):
        return NnxValue(Status.UNKNOWN, "a value", node)
    return remade(inner, node=node, inner=inner.inner or inner.node)


def _puts_items(filling: ast.AST) -> bool:
    """A filling that puts the items of what it is given (`extend`, `update`), not the value itself."""
    return isinstance(filling, ast.Call) and isinstance(filling.func, ast.Attribute) and filling.func.attr in (
        "extend", "update")


def _held(value: NnxValue) -> str:
    """How messages name the data a value is or holds: a container inside a container holds what it holds."""
    return value.what if value.status is Status.DATA else value.holds


def _a(code: str) -> str:
    """"a `Linear`", "an `Embed`": a class by its own name, with its article."""
    name = code.rsplit(".", 1)[-1]
    return f"an `{name}`" if name[:1] in "AEIOU" else f"a `{name}`"


def _plain_instance(index: ModuleIndex, evidence) -> bool:
    """An object of a class of the module that no decorator or base can make a pytree: NNX sees one leaf
    with no data in it, a static value."""
    cls = evidence.cls
    return (evidence.kind is Kind.INSTANCE and cls is not None and not cls.bases
            and all(index.qualify(d.func if isinstance(d, ast.Call) else d) == DATACLASS for d in cls.decorators))


def _is_attribute(node: ast.AST, owner: str | None, attribute: str) -> bool:
    """`node` is `<owner>.<attribute>`."""
    return (isinstance(node, ast.Attribute) and node.attr == attribute and isinstance(node.value, ast.Name)
            and node.value.id == owner)


def _target(statement: ast.AST, attribute: str) -> ast.expr:
    """The `self.<attribute>` an assignment writes (the statement itself when it is not spelled so)."""
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    for target in targets:
        for node in nodes_of(target, ast.Attribute):
            if node.attr == attribute:
                return node
    return statement
