"""The places where a value becomes aux_data, each with the evidence of what that value can be.

A site is one aux element of a flatten function's `return` (`return children, (self.n, self.table)`
gives two sites), a static field of a registered dataclass, or the instance itself for
`register_static`. Rules PTL101-PTL105 read the evidence; the site says where to report.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Container
from itertools import repeat

from ...knowledge.jax import Mechanism
from ..record import record
from ..syntax.model import FunctionInfo, ModuleIndex, child_nodes, is_none, nodes_of, returned_expression, written_as
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
    if not isinstance(children, (ast.Tuple, ast.List)) or not children.elts:
        return False
    for element in children.elts:
        evidence = [] if isinstance(element, ast.Starred) else inference.infer(element, context)
        if not evidence or any(e.kind is not Kind.SAFE or e.leaf in (Leaf.CALLABLE, Leaf.CLASS)
                               for e in evidence):
            return False
    return True


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


_DISPLAYS = (ast.Tuple, ast.List, ast.Set, ast.Dict)
# Defs between a construction and the traced function that calls them (AuxSiteFinder._called_only_where_traced).
_MAX_CALLER_LEVELS = 8


def handed_and_returned(function: ast.AST) -> tuple[set[str], list[ast.expr | None]]:
    """The names a function passes as call arguments, and what it returns or yields (one walk: _passed_on
    asks for every object the function builds)."""
    handed: set[str] = set()
    returned: list[ast.expr | None] = []
    for node in nodes_of(function, (ast.Call, ast.Return, ast.Yield)):
        if isinstance(node, ast.Call):
            handed.update(argument.id for argument in [*node.args, *(k.value for k in node.keywords)]
                          if isinstance(argument, ast.Name))
        else:
            returned.append(node.value)
    return handed, returned


def _passed_on(call: ast.Call, parent: ast.AST | None, function: ast.AST, traced: set[int],
               uses: Callable[[ast.AST], tuple[set[str], list[ast.expr | None]]] = handed_and_returned) -> bool:
    """The object a construction makes may be compared with the one of the call before: it is passed to a
    call, stored on an object, or returned (directly, in a display, or through a name) by a function that
    is not traced (its caller may pass it on). The output of a function that jit (or another
    transformation) traces is never passed in, so nothing looks it up; an object only used where it is
    made (`Cls().method()`) is never compared either."""
    if isinstance(parent, (ast.Call, ast.keyword, ast.Starred)):
        return True
    returned = isinstance(parent, (ast.Return, ast.Yield, ast.YieldFrom, ast.Lambda, *_DISPLAYS))
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets):
            return True  # stored on an object
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        handed, returns = uses(function)
        if not handed.isdisjoint(names):
            return True
        returned = any(_holds_name(value, names) for value in returns)
    return returned and id(function) not in traced


def call_places(function: ast.AST) -> dict[int, tuple[ast.AST | None, ast.AST]]:
    """For each call in `function` (nested defs and lambdas included): its parent (a conditional's value is
    its branch's) and the innermost def or lambda it is in, found in one walk."""
    found: dict[int, tuple[ast.AST | None, ast.AST]] = {}
    pending: list[tuple[ast.AST, ast.AST | None, ast.AST]] = [(function, None, function)]
    while pending:
        node, parent, inner = pending.pop()
        if isinstance(node, ast.Call):
            found[id(node)] = (parent, inner)
        holder = parent if isinstance(node, ast.IfExp) else node
        if node is not function and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = node
        pending.extend(zip(child_nodes(node), repeat(holder), repeat(inner)))
    return found


def passed_on_in(call: ast.Call, places: dict[int, tuple[ast.AST | None, ast.AST]], traced: set[int],
                 uses: Callable[[ast.AST], tuple[set[str], list[ast.expr | None]]]) -> bool:
    """Whether the object `call` makes may be passed on (see _passed_on), where `call_places` of its
    function says it is; `uses`: handed_and_returned of a function, kept by the caller (asked only for an
    object assigned to a name)."""
    parent, inner = places[id(call)]
    return _passed_on(call, parent, inner, traced, uses)


def _holds_name(value: ast.expr | None, names: set[str]) -> bool:
    """`value` is one of `names`, or a display holding one (`return (image, held)`)."""
    if isinstance(value, ast.Name):
        return value.id in names
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return any(_holds_name(element, names) for element in value.elts)
    if isinstance(value, ast.Dict):
        return any(_holds_name(element, names) for element in value.values)
    return False


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
            for static in registration.static_fields:
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
        return found

    def _flatten_sites(self, registration: Registration, function: FunctionInfo) -> list[AuxSite]:
        subject = f"aux_data of `{registration.class_name}`"
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
            for local, _target in self.index.aliases.items():
                definition = self.index.definition(ast.Name(local))
                inline = definition.function.inline if definition is not None and definition.function else None
                if inline is not None and any(meant == made for _name, meant in inline.names):
                    names.append(local)
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
                per_call = project.built_per_call(construction, summary)
                if per_call is not None:
                    text, module, line = per_call
                    where = Elsewhere(text, module.display_path, line)
                    return [Evidence(Kind.INSTANCE, where, f"a new `{cls.name}`", cls=cls,  # type: ignore[arg-type]
                                     constructed=True)]
        # Built nowhere in a function here: still the aux_data class (its `__eq__` matters, PTL105).
        return [Evidence(Kind.INSTANCE, registration.node, f"a `{cls.name}`", cls=cls)]

    def _called_only_where_traced(self, function: ast.AST, traced: set[int], depth: int = 0) -> bool:
        """A def of the module called only inside traced functions (`traced`, by their node's id), or inside
        defs that are in turn (a few levels up), and called there at least once (`def outputs(): return
        Units("m"), None` called in a jitted function): what it returns is part of a traced output too."""
        info = self.index.functions.get(getattr(function, "name", ""))
        if info is None or info.node is not function or depth > _MAX_CALLER_LEVELS:
            return False
        callers = [caller for _call, caller in self.index.callers_of(info)]
        return bool(callers) and all(caller is not None and (
            id(caller.node) in traced or self._called_only_where_traced(caller.node, traced, depth + 1))
            for caller in callers)

    def _passed_constructions(self, cls):
        """`cls(...)` calls inside functions whose object may be passed in (see _passed_on). A helper whose
        body only returns the object (`def build(): return Units("m")`, here or in another module) builds it
        where it is called: its calls are judged, not its own `return`."""
        jitted = {id(j.function.node) for j in self.jitted().values() if j.function is not None}
        for statement in self.index.statements_mentioning((cls.name, *self._builders(cls))):
            traced = jitted | _handed_to_calls(statement)
            pending: list[tuple[ast.AST, ast.AST | None, ast.AST | None]] = [(statement, None, None)]
            while pending:
                node, parent, function = pending.pop()
                if isinstance(node, ast.Call) and function is not None and self._builds(node, cls, function) \
                        and _passed_on(node, parent, function, traced) and (  # not only by a return of a
                            # def that traced functions alone call
                            _passed_on(node, parent, function, traced | {id(function)})
                            or not self._called_only_where_traced(function, traced)):
                    yield node
                inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else function
                # A conditional's value is its branch's: the branches are passed on where it is.
                holder = parent if isinstance(node, ast.IfExp) else node
                pending.extend(zip(reversed(child_nodes(node)), repeat(holder), repeat(inner)))
