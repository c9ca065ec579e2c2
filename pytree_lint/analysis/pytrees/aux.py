"""The places where a value becomes aux_data, each with the evidence of what that value can be.

A site is one aux element of a flatten function's `return` (`return children, (self.n, self.table)`
gives two sites), a static field of a registered dataclass, or the instance itself for
`register_static`. Rules PTL101-PTL105 read the evidence; the site says where to report.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Container, Iterator
from typing import NamedTuple

from ...knowledge.base import Convention
from ...knowledge.jax import Mechanism
from ...knowledge.python import HASHABLE_CONVERSIONS
from ..record import record
from ..syntax.model import (
    FunctionInfo,
    ModuleIndex,
    child_nodes,
    is_name,
    is_none,
    nodes_of,
    returned_expression,
    written_as,
)
from ..syntax.source import home_of
from ..values.inference import Context, Elsewhere, Evidence, Hop, ValueInference
from ..values.kinds import Kind, Leaf, Relation
from .jitted import JittedFunction
from .registrations import Registration


@record
class AuxSite:
    registration: Registration
    report_node: ast.AST
    evidence: list[Evidence]
    subject: str  # "aux_data of `Box`", "static field `Box.table`"
    held_by_instance: bool = False  # a static field or a static object: the value lives on the instance
    field: str | None = None  # the static field's name, for a static field

    def attributes(self, evidence: Evidence) -> set[str]:
        """The instance attributes that hold a value of this site on its way (and the static field)."""
        names = {holder.name for holder in evidence.holders if holder.cls is not None}
        return names | {self.field} if self.field is not None else names

    def first(self, kind: Kind) -> Evidence | None:
        """The first evidence of `kind` for a value made per instance (not one module-level object)."""
        for evidence in self.evidence:
            if evidence.kind is kind and not evidence.shared:
                return evidence
        return None


@record
class FlattenReturn:
    """What one return of a flatten function gives JAX: `(children, aux_data)`, and where it says so (the
    return statement, or the lambda itself: the place a finding about that return is reported)."""

    children: ast.expr
    aux: ast.expr
    node: ast.AST


def _flatten_pair(value: ast.expr, function: FunctionInfo,
                  index: ModuleIndex | None) -> tuple[ast.expr, ast.expr] | None:
    """(children, aux) of a flatten return value: a 2-tuple display, as it is written (see written_as)."""
    value = written_as(value, function, index)
    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == 2:
        if not any(isinstance(e, ast.Starred) for e in value.elts):
            return value.elts[0], value.elts[1]  # as written there: reports point at them (see display_elements)
    return None


def flatten_returns(function: FunctionInfo, index: ModuleIndex | None = None) -> list[FlattenReturn]:
    """Each `(children, aux_data)` a flatten function returns (with the module's `index`, also through the
    helpers, methods and properties that make it: see written_as)."""
    if function.is_lambda:
        statements = [(function.node.body, function.node)]
    else:
        statements = [(r.value, r) for r in function.return_statements if r.value is not None]
    found = []
    for value, statement in statements:
        pair = _flatten_pair(value, function, index)
        if pair is not None:
            found.append(FlattenReturn(*pair, statement))
    return found


def hashable_only(inference: ValueInference, children: ast.expr, context: Context) -> bool:
    """`None`, or a non-empty display of values known to be hashable (literals, ints, strings, shapes)."""
    if is_none(children):
        return True
    return isinstance(children, (ast.Tuple, ast.List)) and bool(children.elts) and all(
        _known_hashable(inference, element, context) for element in children.elts)


def _known_hashable(inference: ValueInference, element: ast.expr, context: Context) -> bool:
    """A value known to be hashable, what it holds known too: a tuple made of an iterable whose items are not
    known (`tuple(self.vecs)` of a list filled elsewhere) may hold arrays."""
    if isinstance(element, ast.Starred):
        return False
    written = written_as(element, context.function, inference.index)
    if isinstance(written, ast.Call) and len(written.args) == 1 and not written.keywords \
            and isinstance(written.func, ast.Name) and written.func.id in HASHABLE_CONVERSIONS \
            and inference.index.is_builtin(written.func.id, context.function):
        items = written_as(written.args[0], context.function, inference.index)
        if isinstance(items, (ast.Tuple, ast.List, ast.Set)):
            return all(_known_hashable(inference, item, context) for item in items.elts)
        element = written.args[0]  # its items are what its evidence says: SAFE only when it is known
    evidence = inference.infer(element, context)
    return bool(evidence) and all(e.kind is Kind.SAFE and e.leaf not in (Leaf.CALLABLE, Leaf.CLASS) for e in evidence)


def array_in(inference: ValueInference, aux: ast.expr, context: Context) -> Evidence | None:
    """An array made per instance in a value or in the elements of its display."""
    elements = [aux]
    if isinstance(aux, (ast.Tuple, ast.List)):
        elements = [e for e in aux.elts if not isinstance(e, ast.Starred)]
    for element in elements:
        for evidence in inference.infer(element, context):
            if evidence.kind is Kind.ARRAY and not evidence.shared:
                return evidence
    return None


def flatten_context(function: FunctionInfo, registration: Registration, statement: ast.AST | None = None) -> Context:
    """Inside a flatten function, its first parameter is an instance of the registered class."""
    if registration.cls is None or not function.params:
        return Context(function, statement=statement)
    return Context(function, ((function.params[0].name, registration.cls),), statement)


# What holds an object it is given as a display's element, a comprehension's made for each item too.
_DISPLAYS = (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Defs between a construction and the traced function that calls them (AuxSiteFinder._called_only_where_traced).
_MAX_CALLER_LEVELS = 8


class NameUses(NamedTuple):
    """What a function does with its names: those it passes as call arguments, those whose attributes or
    items it passes (`f(reading.units)`), and what it returns or yields."""

    handed: set[str]
    parts_handed: set[str]
    returned: list[ast.expr | None]


def handed_and_returned(function: ast.AST, keeps: Callable[[ast.Call], bool]) -> NameUses:
    """The function's NameUses (one walk: _passed_on asks for every object the function builds). A name
    that a construction keeps (`keeps`: `Reading(held)`) goes where that object goes: returned with it,
    handed with it, and otherwise (assigned) counted as handed."""
    uses = NameUses(set(), set(), [])
    for node in nodes_of(function, (ast.Call, ast.Return, ast.Yield, ast.Assign)):
        if isinstance(node, ast.Call):
            if keeps(node):
                continue  # its arguments go where it goes
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                carried = _carried_names(argument, keeps)
                uses.handed.update(name.id for name in carried)
                if not carried and (root := _root_name(argument)) is not None:
                    uses.parts_handed.add(root)
        elif isinstance(node, ast.Assign):
            if isinstance(node.value, ast.Call) and keeps(node.value):
                uses.handed.update(name.id for name in _carried_names(node.value, keeps))
        else:
            uses.returned.extend([node.value, *_carried_names(node.value, keeps)])
    return uses


def _carried_names(value: ast.expr | None, keeps: Callable[[ast.Call], bool]) -> list[ast.Name]:
    """The names an expression passes along as they are: itself, the items of its displays, the arguments
    of a construction that keeps them."""
    if isinstance(value, ast.Name):
        return [value]
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return [name for element in value.elts for name in _carried_names(element, keeps)]
    if isinstance(value, ast.Call) and keeps(value):
        return [name for argument in [*value.args, *(k.value for k in value.keywords)]
                for name in _carried_names(argument, keeps)]
    return []


def _root_name(value: ast.expr) -> str | None:
    """`x` of `x.a.b` or `x[0].a`: the name whose part an expression reads."""
    while isinstance(value, (ast.Attribute, ast.Subscript)):
        value = value.value
    return value.id if isinstance(value, ast.Name) else None


def _passed_on(made: ast.AST, parent: ast.AST | None, function: ast.AST, traced: set[int],
               uses: Callable[[ast.AST], NameUses], carried: bool = False) -> bool:
    """The object a construction makes may be compared with the one of the call before: it is passed to a
    call, stored on an object, or returned (directly, in a display, or through a name) by a function that
    is not traced (its caller may pass it on). The output of a function that jit (or another
    transformation) traces is never passed in, so nothing looks it up; an object only used where it is
    made (`Cls().method()`) is never compared either. `made`: the expression `parent` holds whose value is
    the object, the construction or what carries it (see places_of_calls); `carried`: an object keeps it
    (`Reading(x, Units("m"))`), so passing or returning that object's attributes passes it on too."""
    if isinstance(parent, (ast.Call, ast.keyword, ast.Starred)):
        return True
    returned = isinstance(parent, (ast.Return, ast.Yield, ast.YieldFrom, ast.Lambda, *_DISPLAYS))
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is made:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets):
            return True  # stored on an object
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        found = uses(function)
        if not names.isdisjoint(found.handed) or (carried and not names.isdisjoint(found.parts_handed)):
            return True
        returned = any(_holds_name(value, names, carried) for value in found.returned)
    return returned and id(function) not in traced


class CallPlace(NamedTuple):
    """Where the object a call makes goes: `parent`, the node that takes it, as the expression `made`
    (the call, or the conditional or keeping construction around it: see places_of_calls), in `function`,
    the innermost def or lambda (None: module level)."""

    parent: ast.AST | None
    made: ast.AST
    function: ast.AST | None


def places_of_calls(root: ast.AST, keeps: Callable[[ast.Call], bool],
                    function: ast.AST | None = None) -> Iterator[tuple[ast.Call, CallPlace]]:
    """Each call under `root` (in source order) with where its value goes: a conditional's value is its
    branch's, and an object that a construction only keeps (`Held(Units("m"))`, `keeps` says which) goes
    where the keeping object goes."""
    pending: list[tuple[ast.AST, ast.AST | None, ast.AST, ast.AST | None]] = [(root, None, root, function)]
    while pending:
        node, parent, made, inner = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = node
        elif isinstance(node, ast.Call):
            yield node, CallPlace(parent, made, inner)
            if keeps(node):
                pending.append((node.func, node, node.func, inner))
                pending.extend((child, parent, made, inner)
                               for child in reversed([*node.args, *(k.value for k in node.keywords)]))
                continue
        elif isinstance(node, ast.IfExp):
            pending.extend((child, parent, made, inner) for child in reversed(child_nodes(node)))
            continue
        pending.extend((child, node, child, inner) for child in reversed(child_nodes(node)))


def call_places(function: ast.AST, keeps: Callable[[ast.Call], bool]) -> dict[int, CallPlace]:
    """For each call in `function` (nested defs and lambdas included): where its object goes (see
    places_of_calls), found in one walk."""
    return {id(node): place for node, place in places_of_calls(function, keeps, function)}


def passed_on_at(call: ast.Call, place: CallPlace, traced: set[int], uses: Callable[[ast.AST], NameUses],
                 kept: bool = False) -> bool:
    """Whether the object `call` makes may be passed on (see _passed_on), at the place places_of_calls
    gives it; `uses`: handed_and_returned of a function (a caller may keep them: asked only for an object
    assigned to a name). An object another object keeps (the one around the call, or, `kept`, the one the
    call makes) is passed on with that object's attributes."""
    carried = kept or (place.made is not call and not isinstance(place.made, ast.IfExp))
    return _passed_on(place.made, place.parent, place.function, traced, uses, carried)  # type: ignore[arg-type]


def _holds_name(value: ast.expr | None, names: set[str], parts: bool = False) -> bool:
    """`value` is one of `names` (or, with `parts`, an attribute or item of one), or a display holding one
    (`return (image, held)`)."""
    if isinstance(value, ast.Name):
        return value.id in names
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return any(_holds_name(element, names, parts) for element in value.elts)
    if isinstance(value, ast.Dict):
        return any(_holds_name(element, names, parts) for element in value.values)
    return parts and value is not None and _root_name(value) in names


def called_only_where_traced(index: ModuleIndex, function: ast.AST, traced: set[int],
                             memo: dict[int, bool], depth: int = 0) -> bool:
    """A def of the module called only inside traced functions (`traced`, by their node's id), or inside
    defs that are in turn (a few levels up), and called there at least once (`def outputs(): return
    Units("m"), None` called in a jitted function): what it returns is part of a traced output too. A nested
    def counts when only its parent calls it. `memo`: the answers for this `traced`, by def (each def is
    judged once, however many callers lead to it)."""
    if id(function) in memo:
        return memo[id(function)]
    memo[id(function)] = False  # a def calling itself, round a cycle: not known to be traced
    if depth > _MAX_CALLER_LEVELS:
        return False
    info = index.functions.get(getattr(function, "name", ""))
    if info is None or info.node is not function:  # a def nested in the function around it: its calls there
        parent = index.enclosing_function(function)
        callers = [parent] if parent is not None and parent.node is not function \
            and only_called_in(function, parent) else []
    else:
        callers = [caller for _call, caller in index.callers_of(info)]
    memo[id(function)] = found = bool(callers) and all(caller is not None and (
        id(caller.node) in traced or called_only_where_traced(index, caller.node, traced, memo, depth + 1))
        for caller in callers)
    return found


def only_called_in(function: ast.AST, parent: FunctionInfo) -> bool:
    """The nested def is called in `parent`, and its name is used there for nothing else (not returned,
    stored or handed on). The parent's body is read from its one walk (FunctionInfo.nodes), its signature
    and decorators walked here."""
    name = getattr(function, "name", None)
    signature = nodes_of([*getattr(parent.node, "decorator_list", []), parent.node.args,
                          *filter(None, [getattr(parent.node, "returns", None)])], (ast.Call, ast.Name))
    found = [*signature, *parent.nodes(ast.Call, ast.Name)]
    called = {id(node.func) for node in found if isinstance(node, ast.Call) and is_name(node.func, name or "")}
    used = [node for node in found if isinstance(node, ast.Name) and node.id == name]
    return bool(called) and all(id(node) in called for node in used)


def _handed_to_calls(statement: ast.stmt) -> set[int]:
    """The defs of a statement that it hands to a call (`trace_to_jaxpr(fun, ...)`, `jax.eval_shape(f, x)`):
    functions a transformation traces, whose results are its outputs."""
    handed = {argument.id for call in nodes_of(statement, ast.Call)
              for argument in [*call.args, *(k.value for k in call.keywords)] if isinstance(argument, ast.Name)}
    return {id(node) for node in nodes_of(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) if node.name in handed}


def _instance_attributes(expr: ast.expr, owner: str) -> dict[str, ast.Attribute]:
    """The attributes of the instance `owner` an expression reads (`self.loc`, `self._args`), `__dict__`
    for `self.__dict__` and `vars(self)`."""
    found: dict[str, ast.Attribute] = {}
    for node in nodes_of(expr, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == owner:
            found.setdefault(node.attr, node)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars"
              and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == owner):
            found.setdefault("__dict__", node)
    return found


def _aux_elements(aux: ast.expr) -> list[ast.expr]:
    """The parts of aux_data judged (and reported) one by one: the items of a tuple display, and of each
    branch of a conditional (`(a, b) if c else (a,)`), each where it is written."""
    if isinstance(aux, ast.Tuple):
        return [e for e in aux.elts if not isinstance(e, ast.Starred)]
    if isinstance(aux, ast.IfExp):
        return [*_aux_elements(aux.body), *_aux_elements(aux.orelse)]
    return [aux]


def _carried(element: ast.expr) -> list[ast.expr]:
    """The values an aux element holds as they are, or computed elementwise: the element, the items of its
    displays, `x[...]`, `x + y`, `tuple(x)`, `list(x)` (not `x.shape`, `len(x)`, ...)."""
    if isinstance(element, (ast.Tuple, ast.List)):
        return [v for e in element.elts for v in _carried(e.value if isinstance(e, ast.Starred) else e)]
    if isinstance(element, ast.Dict):
        return [v for e in element.values for v in _carried(e)]
    if isinstance(element, ast.Subscript):
        return [element, *_carried(element.value)]
    if isinstance(element, ast.BinOp):
        return [*_carried(element.left), *_carried(element.right)]
    if (isinstance(element, ast.Call) and isinstance(element.func, ast.Name) and element.func.id in ("tuple", "list")
            and len(element.args) == 1):
        return _carried(element.args[0])
    return [element]


def _holding_children(returned: FlattenReturn, element: ast.expr, context: Context,
                      function: FunctionInfo, index: ModuleIndex) -> list[Evidence]:
    """aux_data that holds the object the children come from: the same attribute (`return self._args,
    (self._args, self._kwargs)`), a value computed from it, or the instance's `__dict__` when the children
    are its attributes. The children are the arrays jit traces, so this aux_data holds arrays."""
    if not context.instances:
        return []
    owner = context.instances[0][0]
    children = written_as(returned.children, function, index)  # `children = (self.a, self.b)`, a helper
    sources = {name: node for name, node in _instance_attributes(children, owner).items() if name != "__dict__"}
    if not sources:
        return []
    for value in _carried(written_as(element, function, index)):  # `held = (self._args, ...)`, a helper
        held = _instance_attributes(value, owner)
        if len(held) != 1 or value not in held.values():
            continue  # not the instance's own attribute or `vars()` itself
        if "__dict__" in held:
            return [Evidence(Kind.ARRAY, value, "the instance's attributes, the children among them",
                             trail=(Hop(f"{owner}.__dict__", Relation.HOLDS_CHILDREN, children),))]
        if value.attr in sources:
            return [Evidence(Kind.ARRAY, value, "a child (a traced array under jit)",
                             trail=(Hop(f"{owner}.{value.attr}", Relation.ALSO_A_CHILD, children),))]
    return []


class AuxSiteFinder:
    def __init__(self, index: ModuleIndex, inference: ValueInference, swapped: Container[int],
                 jitted: Callable[[], dict[str, JittedFunction]]) -> None:
        """`swapped`: the flatten returns written `(aux_data, children)` (PTL304), by node id: their
        elements are not judged as aux_data. `jitted`: the module's jitted functions, asked for only when
        a `register_static` class needs them."""
        self.index = index
        self.inference = inference
        self.swapped = swapped
        self.jitted = jitted

    def sites(self, registrations: list[Registration]) -> list[AuxSite]:
        found: list[AuxSite] = []
        for registration in registrations:
            for function in (registration.flatten, registration.flatten_with_keys):
                if function is not None:
                    found.extend(self._flatten_sites(registration, function))
            cls = registration.cls
            methods = {name for owner in self.index.class_and_bases(cls) for name in owner.methods} if cls else set()
            # A library's dataclass inherits its bases' static fields, given values by its own constructions.
            inherited = self.inference.frameworks.inherited_static_fields(cls, registration.library.convention) \
                if cls is not None and registration.library is not None else []
            for static in [*registration.static_fields, *inherited]:
                if cls is not None and static.name not in methods:  # a property or method shadows the field
                    # A static field that a method keeps updating marks a stateful object, not a cache key
                    # someone forgot: only a flatten function that returns such a value is reported.
                    evidence = [e for e in self.inference.attribute(cls, static.name, static.name)
                                if not isinstance(e.node, ast.AugAssign)]
                    evidence += self.inference.arrays_given_in_functions(cls, static.name)
                    found.append(AuxSite(registration, static.declaration, evidence,
                                         f"static field `{cls.name}.{static.name}` ({static.how})", True,
                                         static.name))
            if registration.mechanism is Mechanism.REGISTER_STATIC and cls is not None:
                found.append(AuxSite(registration, registration.node, self._static_instances(registration),
                                     f"`{cls.name}` (registered static: the whole object is aux_data)", True))
            found.extend(self._subclass_sites(registration))
        return found

    def _subclass_sites(self, registration: Registration) -> list[AuxSite]:
        """The class's own static fields as the classes other modules derive from it keep them, each with what
        those classes' constructions give it (reported at the declaration, as a subclass of the same module's
        are: see Frameworks.inherited_static_fields). A subclass keeps a field when it binds neither the field
        nor `__init__`, and is registered too: by the library base the class derives from, or by a library
        decorator of its own (JAX registers one type: a subclass of a decorated class is a leaf otherwise)."""
        cls, library = registration.cls, registration.library
        if cls is None or library is None or library.convention in (Convention.NUMPYRO, Convention.NNX) \
                or not registration.static_fields or home_of(cls.node) is not None:
            return []
        by_base = any(registration.node is base for base in cls.bases)
        sites = []
        for static in registration.static_fields:
            def keeps(declared: Collection[str], registered: bool, name: str = static.name) -> bool:
                return "__init__" not in declared and name not in declared and (by_base or registered)

            for subclass, evidence in self.inference.given_to_subclasses(cls, static.name, keeps).items():
                sites.append(AuxSite(registration, static.declaration, evidence,
                                     f"static field `{subclass}.{static.name}` ({static.how})", True, static.name))
        return sites

    def _flatten_sites(self, registration: Registration, function: FunctionInfo) -> list[AuxSite]:
        subject = f"aux_data of {registration.class_named}"
        sites = []
        for returned in flatten_returns(function, self.index):
            if id(returned.node) in self.swapped:
                continue
            context = flatten_context(function, registration, returned.node)
            for element in _aux_elements(returned.aux):
                evidence = self.inference.infer(element, context)
                held = _holding_children(returned, element, context, function, self.index)
                sites.append(AuxSite(registration, element, [*held, *evidence], subject))
        return sites

    def _builders(self, cls) -> list[str]:
        """The names of the module's functions, and of the functions it imports, whose body only returns a
        `cls(...)` (another module's, one that imports `cls` from here)."""
        names = [function.name for function in self.index.functions.values()
                 if isinstance(value := returned_expression(function), ast.Call)
                 and self.index.resolve_class(value.func) is cls]
        project = self.index.project
        if project is not None:
            made = f"{project.module}.{cls.name}"
            names.extend(local for local, _target in self.index.aliases.items()
                         if made in self.index.inline_names(local))
        return names

    def _builds(self, call: ast.Call, cls, function: ast.AST) -> bool:
        """`call` builds a `cls` for the function it is in: `cls(...)` (unless the function only returns it:
        its callers build it), or a call of a builder (see _builders)."""
        if self.index.resolve_class(call.func) is cls:
            body = getattr(function, "body", None)
            only_returns = isinstance(body, list) and len(body) == 1 and isinstance(body[0], ast.Return) \
                and body[0].value is call
            return not only_returns
        written = written_as(call, self.index.enclosing_function(call), self.index)
        return written is not call and isinstance(written, ast.Call) and self.index.resolve_class(written.func) is cls

    def _builds_one_kept(self, call: ast.Call, cls) -> bool:
        """`call` calls a builder (here or in another module, written as its returned expression) whose object
        keeps a new `cls` (`def build(x): return Reading(x, Units("m"))`): where that object goes, the `cls`
        goes."""
        written = written_as(call, self.index.enclosing_function(call), self.index)
        pending = [written] if written is not call and isinstance(written, ast.Call) else []
        while pending:
            keeper = pending.pop()
            if not self.inference.keeps_arguments(keeper):
                continue
            for argument in [*keeper.args, *(k.value for k in keeper.keywords)]:
                if isinstance(argument, ast.Call) and self.index.class_named(argument.func) is cls:
                    return True
                if isinstance(argument, ast.Call):
                    pending.append(argument)
        return False

    def _static_instances(self, registration: Registration) -> list[Evidence]:
        """A `register_static` class built inside a function (or lambda) and passed on (to a call, or stored
        on an object) is a new aux object on every call; one that is only returned is never compared with
        the one of the call before (a jitted function's output: nothing looks it up)."""
        cls = registration.cls
        for call in self._passed_constructions(cls):
            return [Evidence(Kind.INSTANCE, call, f"a new `{cls.name}`", cls=cls, constructed=True)]
        project = self.index.project
        if project is not None and cls.parent is None and home_of(cls.node) is None:  # built by other modules
            for construction, summary in project.constructions(cls.name):
                per_call = project.built_per_call(construction, summary, self.inference.keeps_what_it_is_given)
                if per_call is not None:
                    text, module, line = per_call
                    where = Elsewhere(text, module.display_path, line)
                    return [Evidence(Kind.INSTANCE, where, f"a new `{cls.name}`", cls=cls,  # type: ignore[arg-type]
                                     constructed=True)]
        # Built nowhere in a function here: still the aux_data class (its `__eq__` matters, PTL105).
        return [Evidence(Kind.INSTANCE, registration.node, f"a `{cls.name}`", cls=cls)]

    def _uses(self, function: ast.AST) -> NameUses:
        return handed_and_returned(function, self.inference.keeps_arguments)

    def _passed_constructions(self, cls):
        """`cls(...)` calls inside functions whose object may be passed in (see _passed_on). A helper whose
        body only returns the object (`def build(): return Units("m")`, here or in another module) builds it
        where it is called: its calls are judged, not its own `return`."""
        jitted = {id(j.function.node) for j in self.jitted().values() if j.function is not None}
        for statement in self.index.statements_mentioning((cls.name, *self._builders(cls))):
            traced = jitted | _handed_to_calls(statement)
            traced_callers: dict[int, bool] = {}
            for node, place in places_of_calls(statement, self.inference.keeps_arguments):
                function = place.function
                if function is None:
                    continue
                builds = self._builds(node, cls, function)
                kept = not builds and self._builds_one_kept(node, cls)
                if (builds or kept) and passed_on_at(node, place, traced, self._uses, kept) and (
                        # not only by a return of a def that traced functions alone call
                            passed_on_at(node, place, traced | {id(function)}, self._uses, kept)
                            or not called_only_where_traced(self.index, function, traced, traced_callers)):
                    yield node
