"""Module-level functions compiled with `jax.jit`, and the positions and names that are static.

Understood: `@jax.jit` (any alias, `pjit` too), `@jax.jit(static_argnums=...)`,
`@partial(jax.jit, static_argnums=(1,))` / `@functools.partial(jax.jit, static_argnames="n")` on a def,
`g = jax.jit(f, static_argnums=0)` at module level, a decorator `jit_static = partial(jax.jit, ...)` of
this module or another of the project, a decorator factory of either (`@jit_static("n")` with `def
jit_static(*names): return partial(jax.jit, static_argnames=names)`, or `jax.jit(**options)`), and
jitted functions imported from other project modules. As in
JAX, a static name also makes its position static, and a static position its name. `eqx.filter_jit` is
not jit: it treats non-array leaves as static.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from ...knowledge.jax import JIT
from ...knowledge.python import PARTIAL
from ..project.summary import JitFactory
from ..record import NamedTuple, field, record
from ..syntax.model import (
    FUNCTIONS,
    AttributeAssignment,
    FunctionInfo,
    ModuleIndex,
    Param,
    arguments_in_order,
    is_literal_int,
    is_name,
    is_none,
    keyword_arguments,
    literal_string,
    nodes_of,
    returned_expression,
    shape_arguments,
    unquoted,
    written_as,
)
from ..values.inference import Elsewhere
from ..values.kinds import Kind
from .fields import parse_string_annotation

if TYPE_CHECKING:
    from ..values.inference import ValueInference


@record
class JittedFunction:
    name: str
    definition: ast.AST
    function: FunctionInfo | None  # the def that is compiled, when it is in this module
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)
    wrapper: bool = False  # `partial(jax.jit, ...)` bound to a name: it jits what it is applied to
    # Where this module declares the static positions: the `static_argnums=`/`static_argnames=` keyword
    # (the first written), or the decorator naming a wrapper that declares them elsewhere.
    declaration: ast.AST | None = None
    parameters: tuple[str, ...] = ()  # the compiled def's parameter names, when known
    # For a function of another module: its static parameters annotated as arrays (PTL405's there).
    declared_arrays: tuple[str, ...] = ()
    # A function of another module of the project: that module judges its declaration (PTL405), also
    # for the parameters annotated as arrays that this module's functions pass it.
    elsewhere: bool = False

    def is_static(self, position: int | None, name: str) -> bool:
        return position in self.static_positions or name in self.static_names

    def arguments(self, call: ast.Call) -> list[PassedArgument]:
        """What a call of this function passes, in the order written, up to the first `*args` or
        `**kwargs` (whose positions are unknown)."""
        found, position = [], 0
        for argument in arguments_in_order(call):
            if isinstance(argument, ast.Starred) or (isinstance(argument, ast.keyword) and argument.arg is None):
                break
            if isinstance(argument, ast.keyword):
                found.append(PassedArgument(argument.arg, argument.value, argument.arg in self.static_names,
                                            argument.arg))
            else:
                parameter = self.parameters[position] if position < len(self.parameters) else None
                found.append(PassedArgument(f"argument {position}", argument, position in self.static_positions,
                                            parameter))
                position += 1
        return found


class Statics(NamedTuple):
    """What a jit decorator or call declares static, and where (see `JittedFunction.declaration`)."""

    positions: set[int]
    names: set[str]
    declaration: ast.AST | None


@record
class PassedArgument:
    """An argument of a call of a jitted function: how messages name it, its value, whether it is static
    (hashed to find the compiled function)."""

    label: str
    value: ast.expr
    static: bool
    parameter: str | None  # the parameter it binds, when the signature is known


def through_signature(positions: set[int], names: set[str], params: Sequence[str]) -> tuple[set[int], set[str]]:
    """Static positions and names completed as JAX does: each maps to the other through the parameters."""
    names = names | {params[i] for i in positions if 0 <= i < len(params)}
    return positions | {i for i, p in enumerate(params) if p in names}, names


def jit_factory(index: ModuleIndex, function: FunctionInfo) -> JitFactory | None:
    """What a def that returns a jit decorator built from its parameters takes them from: `return
    partial(jax.jit, static_argnames=names)` (names a parameter, or `*names`), `return jax.jit(**options)`."""
    returns = [r.value for r in function.return_statements if r.value is not None]
    if len(returns) != 1 or not isinstance(returns[0], ast.Call) or function.is_lambda:
        return None
    call = returns[0]
    qualified = index.qualify(call.func)
    if not ((qualified in JIT and not call.args) or (
            qualified == PARTIAL and len(call.args) == 1 and is_jit(index, call.args[0], function))):
        return None
    star = function.star_param.arg if function.star_param is not None else None
    passed_on = next((k.value.id for k in call.keywords if k.arg is None and isinstance(k.value, ast.Name)), None)
    parameters = {p.name for p in function.params}

    def source(keyword: str) -> str | None:
        value = keyword_arguments(call).get(keyword)
        if isinstance(value, ast.Name) and value.id == star:
            return "*"
        if isinstance(value, ast.Name) and value.id in parameters:
            return value.id
        kwargs = function.node.args.kwarg
        if value is None and passed_on is not None and kwargs is not None and passed_on == kwargs.arg:
            return "**"
        return None

    factory = JitFactory(source("static_argnums"), source("static_argnames"))
    return factory if factory != JitFactory() else None


def is_jit(index: ModuleIndex, node: ast.expr, function: FunctionInfo | None) -> bool:
    """`jax.jit` (or an alias), as a value is written (`held = jax.jit`, a helper returning it: written_as)."""
    return index.qualify(written_as(node, function, index)) in JIT


def factory_statics(factory: JitFactory, params: tuple[str, ...], args: list, keywords: dict
                    ) -> tuple[set[int], set[str]]:
    """The static positions and names a call of a jit decorator factory gives, from its literal arguments
    (`args`, `keywords`: Python values, None where not literal)."""
    def given(source: str | None, keyword: str) -> list:
        if source == "*":
            value = args[len(params):]  # what the star parameter collects
        elif source == "**":
            value = keywords.get(keyword)
        elif source in keywords:
            value = keywords[source]
        elif source in params and params.index(source) < len(args):
            value = args[params.index(source)]
        else:
            value = None
        return list(value) if isinstance(value, (list, tuple)) else [value]

    return ({v for v in given(factory.argnums, "static_argnums") if type(v) is int},
            {v for v in given(factory.argnames, "static_argnames") if isinstance(v, str)})


def literal(node: ast.expr) -> object:
    """The value of a literal that can name static arguments (a str, an int, a tuple or list of them), as
    summaries store it; None for anything else (sets, bytes, dicts, expressions)."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, (list, tuple)):
        return value if all(isinstance(item, (str, int)) for item in value) else None
    return value if isinstance(value, (str, int)) else None


def _items(node: ast.expr) -> list[ast.expr]:
    return node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]


def literal_ints(node: ast.expr) -> set[int]:
    return {item.value for item in _items(node) if is_literal_int(item)}


def _literal_strings(node: ast.expr) -> set[str]:
    return {item.value for item in _items(node) if literal_string(item) is not None}


def calls_of(index: ModuleIndex, jitted: dict[str, JittedFunction]) -> list[tuple[ast.Call, JittedFunction]]:
    """The calls of the module's jitted functions by name (`step(x, n)`), in source order."""
    if not jitted:
        return []
    return [(call, jitted[call.func.id]) for call, _in_function in index.calls_mentioning(tuple(jitted))
            if isinstance(call.func, ast.Name) and call.func.id in jitted and not jitted[call.func.id].wrapper]


class JittedFinder:
    def __init__(self, index: ModuleIndex, values: ValueInference) -> None:
        self.index = index
        self.values = values
        self._wrappers: dict[str, JittedFunction] = {}

    def _statics(self, node: ast.expr) -> Statics | None:
        """The static positions and names jit is given by a decorator or call (`jax.jit`: none; `jax.jit(f,
        ...)`, `partial(jax.jit, ...)`: theirs; a `partial(jax.jit, ...)` bound to a name, of this module or
        another of the project: its own; a call of the project's jit decorator factory: what its arguments
        say), and where they are declared; None when `node` is not jit."""
        if self.index.qualify(node) in JIT:
            return Statics(set(), set(), None)
        if isinstance(node, ast.Name) and node.id in self._wrappers:
            wrapper = self._wrappers[node.id]
            return Statics(set(wrapper.static_positions), set(wrapper.static_names), node)
        if not isinstance(node, ast.Call):
            definition = self.index.definition(node)
            facts = definition.jit if definition is not None else None
            if facts is not None and facts.wrapper:
                return Statics(set(facts.static_positions), set(facts.static_names), node)
            return None
        qualified = self.index.qualify(node.func)
        if qualified in JIT or (qualified == PARTIAL and node.args and is_jit(
                self.index, node.args[0], self.index.enclosing_function(node))):
            keywords = {k: self._written(v) for k, v in keyword_arguments(node).items()}
            positions = literal_ints(keywords["static_argnums"]) if "static_argnums" in keywords else set()
            names = _literal_strings(keywords["static_argnames"]) if "static_argnames" in keywords else set()
            declared = next((k for k in node.keywords if k.arg in ("static_argnums", "static_argnames")), None)
            return Statics(positions, names, declared)
        factory = self._factory(node.func)
        if factory is not None:  # `@jit_static("n")`, the project's own jit decorator factory
            positions, names = factory_statics(*factory, [literal(a) for a in node.args],
                                               {k.arg: literal(k.value) for k in node.keywords if k.arg})
            return Statics(positions, names, node)
        return None

    def _written(self, value: ast.expr) -> ast.expr:
        """What a static declaration's value is written as (`static_argnames=NAMES`, a module-level name
        bound once; a local name, a conditional with equal branches, a helper's return: see written_as)."""
        function = self.index.enclosing_function(value)
        value = written_as(value, function, self.index)
        if isinstance(value, ast.Name) and self.index.aliases.is_module_local(value.id) and (
                function is None or value.id not in function.local_bindings):
            bound = self.index.bindings.get(value.id, [])
            if len(bound) == 1 and bound[0] is not None:
                value = written_as(bound[0], None, self.index)
        return value

    def _factory(self, func: ast.expr) -> tuple[JitFactory, tuple[str, ...]] | None:
        """The jit decorator factory a call names, with its parameters: a def of this module, or of another
        module of the project (from its summary)."""
        local = self.index.functions.get(func.id) if isinstance(func, ast.Name) else None
        if local is not None and self.index.aliases.is_module_local(func.id):
            factory = jit_factory(self.index, local)
            return (factory, tuple(p.name for p in local.params)) if factory is not None else None
        definition = self.index.definition(func) if self.index.project is not None else None
        facts = definition.function if definition is not None else None
        if facts is None or facts.jit_factory is None:
            return None
        return facts.jit_factory, facts.params

    def find(self) -> dict[str, JittedFunction]:
        found: dict[str, JittedFunction] = {}
        for site in self.index.calls:
            call = site.node
            if site.scope is not None or (call.args and isinstance(call.args[0], ast.Starred)):
                continue
            statics = self._statics(call)
            target = self.index.assigned_name(call)
            if statics is None or target is None:
                continue
            # `jit_static = partial(jax.jit, static_argnums=1)`, `jit_n = jit_static("n")` (the project's
            # factory): a decorator, which jits what it decorates.
            made_by_factory = self._factory(call.func) is not None
            if made_by_factory or (self.index.qualify(call.func) == PARTIAL and len(call.args) == 1):
                if call.keywords or made_by_factory:
                    self._wrappers[target] = found[target] = JittedFunction(
                        target, call, None, statics.positions, statics.names, wrapper=True)
                continue
            if not call.args:
                continue
            wrapped = call.args[0]
            function = self.index.functions.get(wrapped.id) if isinstance(wrapped, ast.Name) else None
            found[target] = self._build(target, call, statics, function)
        for name, function in self.index.functions.items():
            if name in self.index.redefined:
                continue  # plum's `@dispatch` overloads, each jitted with its own statics: the call's is unknown
            for decorator in function.node.decorator_list:
                statics = self._statics(decorator)
                if statics is not None:
                    found[name] = self._build(name, function.node, statics, function)
        self._add_forwarding_wrappers(found)
        return found

    def _add_forwarding_wrappers(self, found: dict[str, JittedFunction]) -> None:
        """A plain function that returns a call of a jitted function, passing its own parameters on
        (`def run(x, n): return _step(x, n)`): each parameter that lands on a static position is static for
        the wrapper's callers too. Wrappers of wrappers count (a chain of at most a few is followed)."""
        for _ in range(4):
            added = False
            for name, function in self.index.functions.items():
                if name in found or function.is_lambda:
                    continue
                call = returned_expression(function)
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in found
                        and not found[call.func.id].wrapper):
                    continue
                jitted = found[call.func.id]
                parameters = [p.name for p in function.params]
                forwarded = {argument.value.id: argument.parameter for argument in jitted.arguments(call)
                             if argument.static and isinstance(argument.value, ast.Name)
                             and argument.value.id in parameters}
                if forwarded:
                    wrapper = found[name] = self._build(name, function.node, Statics(set(), set(forwarded), call),
                                                        None, parameters)
                    # An array parameter, of the wrapper or where it lands: PTL405 reports it where it is
                    # declared static, not at each call.
                    arrays = {p.name for p, _ in annotated_static_arrays(jitted, self.values)} | set(
                        jitted.declared_arrays)
                    wrapper.declared_arrays = tuple(p.name for p in function.params if p.name in forwarded and (
                        forwarded[p.name] in arrays or array_annotation(self.values, p)))
                    added = True
            if not added:
                return

    @staticmethod
    def _build(name: str, node: ast.AST, statics: Statics, function: FunctionInfo | None,
               parameters: list[str] | None = None) -> JittedFunction:
        if parameters is None and function is not None:
            parameters = [p.name for p in function.params]
        positions, names = through_signature(statics.positions, statics.names, parameters or ())
        return JittedFunction(name, node, function, positions, names, declaration=statics.declaration,
                              parameters=tuple(parameters or ()))

    def methods(self) -> dict[str, JittedFunction]:
        """The module's classes' jitted methods with static arguments, by `Class.method`, each as a call on an
        object sees it: its parameters after `self`, the static ones among them; and the functions their
        methods jit and keep on the object (`self.step = jax.jit(self._step, static_argnums=1)`, or a module
        function), by `Class.step`, when that jit is the attribute's only assignment."""
        found: dict[str, JittedFunction] = {}
        for cls in self.index.classes.values():
            for name, method in cls.methods.items():
                if method.self_name is None or method.is_classmethod or method.is_staticmethod:
                    continue
                statics = next((s for d in method.node.decorator_list if (s := self._statics(d)) is not None), None)
                if statics is None or not (statics.positions or statics.names):
                    continue
                parameters = [p.name for p in method.params]
                positions, names = through_signature(statics.positions, statics.names, parameters)
                found[f"{cls.name}.{name}"] = JittedFunction(
                    f"{cls.name}.{name}", method.node, None, {position - 1 for position in positions if position > 0},
                    names - {parameters[0]}, declaration=statics.declaration, parameters=tuple(parameters[1:]))
            for attr, assignments in cls.assignments.items():
                kept = self._jitted_attribute(cls, attr, assignments[0]) \
                    if len(assignments) == 1 and attr not in cls.methods else None
                if kept is not None:
                    found[f"{cls.name}.{attr}"] = kept
        return found

    def _jitted_attribute(self, cls, attr: str, assignment: AttributeAssignment) -> JittedFunction | None:
        """What `self.<attr> = jax.jit(f, static_argnums=...)` keeps: the jitted function as its calls see it
        (a method of the class `self._step`: its parameters after self; a module function: its own; either
        returned by a helper)."""
        value = assignment.value
        if not (isinstance(value, ast.Call) and value.args):
            return None
        statics = self._statics(value)
        if statics is None or not (statics.positions or statics.names):
            return None
        wrapped = written_as(value.args[0], assignment.method, self.index)
        if isinstance(wrapped, ast.Attribute) and isinstance(wrapped.value, ast.Name) and wrapped.attr in cls.methods:
            parameters = [p.name for p in cls.methods[wrapped.attr].params][1:]  # bound: self is given
        elif isinstance(wrapped, ast.Name) and (function := self.index.module_function(wrapped.id)) is not None:
            parameters = [p.name for p in function.params]
        else:
            return None
        return self._build(f"{cls.name}.{attr}", value, statics, None, parameters)

    def bound_methods(self, methods: dict[str, JittedFunction]) -> list[tuple[ast.Call, JittedFunction]]:
        """The calls of jitted methods on objects of their class: a class of this module (`methods`:
        `self.apply(x, sizes)`, `model.apply(...)` for a `model` known to be one), or of another module of
        the project (an object built by a call of the class, or a parameter annotated with it), from its
        summary."""
        found: list[tuple[ast.Call, JittedFunction]] = []
        for qualified, jitted in methods.items():
            owner, method = qualified.split(".", 1)
            cls = self.index.classes[owner]
            found.extend((call, jitted) for call, _ in self.index.calls_mentioning((method,))
                         if isinstance(call.func, ast.Attribute) and call.func.attr == method
                         and self._an_object_of(call.func.value, call, cls))
        imported = self._imported_methods()
        for call, _ in self.index.calls_mentioning(tuple({method for _cls, method in imported})) if imported else ():
            func = call.func
            if isinstance(func, ast.Attribute):
                made = self._imported_class_of(func.value, call)
                if made is not None and (made, func.attr) in imported:
                    found.append((call, imported[made, func.attr]))
        return found

    def _an_object_of(self, receiver: ast.expr, call: ast.Call, cls) -> bool:
        """`self` in a method of the class, or a value known to be an object of it."""
        caller = self.index.enclosing_function(call)
        if isinstance(receiver, ast.Name) and caller is not None and caller.cls is cls \
                and receiver.id == caller.self_name:
            return True
        return any(e.kind is Kind.INSTANCE and e.cls is cls for e in self.values.passed(receiver, call))

    def _imported_methods(self) -> dict[tuple[str, str], JittedFunction]:
        """(the local name of a class imported from the project, a method) -> the method as its calls see it,
        from the class's module's summary."""
        found: dict[tuple[str, str], JittedFunction] = {}
        if self.index.project is None:
            return found
        for local, _target in self.index.aliases.items():
            definition = self.index.definition(ast.Name(local)) if local[:1].isupper() else None
            if definition is None or definition.cls is None:
                continue
            for key, facts in definition.summary.jitted.items():
                owner, _, method = key.partition(".")
                if owner == definition.name and method:
                    found[local, method] = JittedFunction(
                        f"{local}.{method}", ast.Name(local), None, set(facts.static_positions),
                        set(facts.static_names), parameters=facts.params, elsewhere=True)
        return found

    def _imported_class_of(self, receiver: ast.expr, call: ast.Call) -> str | None:
        """The local name of the imported class whose object `receiver` is: built by a call of the class
        (`model = Model(...)`), or a parameter annotated with it."""
        caller = self.index.enclosing_function(call)
        made = written_as(receiver, caller, self.index)
        if isinstance(made, ast.Call) and isinstance(made.func, ast.Name):
            return made.func.id
        if isinstance(receiver, ast.Name) and caller is not None and receiver.id not in caller.local_bindings:
            param = next((p for p in caller.params if p.name == receiver.id and p.annotation is not None), None)
            annotation = unquoted(param.annotation) if param is not None else None
            return annotation.id if isinstance(annotation, ast.Name) else None
        return None

    def in_functions(self) -> list[tuple[ast.Call, JittedFunction]]:
        """The calls of a function jitted inside a function or method (`step = jax.jit(update,
        static_argnums=1)`, the jitted def nested there or the module's), made in that function, by the
        local name bound once to the jitted function."""
        found: list[tuple[ast.Call, JittedFunction]] = []
        for site in self.index.calls:
            scope, call = site.scope, site.node
            if not isinstance(scope, FunctionInfo) or scope.is_lambda or not call.args \
                    or not isinstance(call.args[0], ast.Name) or self.index.qualify(call.func) not in JIT:
                continue
            name = next((name for name, values in scope.local_bindings.items() if len(values) == 1
                         and values[0] is call), None)
            statics = self._statics(call)
            if name is None or statics is None or not (statics.positions or statics.names):
                continue
            wrapped = call.args[0].id
            local = scope.local_bindings.get(wrapped)
            if local is not None:
                node = local[0] if len(local) == 1 else None
                function = FunctionInfo(node, parent=scope) if isinstance(node, FUNCTIONS) else None
            else:
                function = self.index.module_function(wrapped)
            jitted = self._build(name, call, statics, function)
            found.extend((each, jitted) for each in scope.nodes(ast.Call)
                         if isinstance(each.func, ast.Name) and each.func.id == name)  # type: ignore[attr-defined]
        return found

    def imported(self) -> dict[str, JittedFunction]:
        """The jitted functions this module imports from other modules of the project, by local name."""
        found: dict[str, JittedFunction] = {}
        if self.index.project is None:
            return found
        for local, _target in self.index.aliases.items():
            if self.index.aliases.is_module_local(local):
                continue
            definition = self.index.definition(ast.Name(local))
            facts = self.index.project.jit(definition) if definition is not None else None
            if facts is not None and not facts.wrapper and (facts.static_positions or facts.static_names):
                statics = Statics(set(facts.static_positions), set(facts.static_names), None)
                found[local] = self._build(local, ast.Name(local), statics, None, list(facts.params))
                found[local].declared_arrays = facts.static_arrays
                found[local].elsewhere = True
        return found


@record
class StaticArray:
    """A static parameter of a jitted def of this module that is an array: annotated as one, or given the
    caller's parameter annotated as one (`caller`, at `call`, or in another module: `elsewhere`, the
    annotation's text and the call's place)."""

    function: JittedFunction
    parameter: str
    annotation: ast.expr | None
    caller: str | None = None
    call: ast.Call | None = None
    elsewhere: Elsewhere | None = None


def static_arrays(jitted: dict[str, JittedFunction], calls: list[tuple[ast.Call, JittedFunction]],
                  index: ModuleIndex, values: ValueInference) -> list[StaticArray]:
    """The static parameters of the module's jitted defs that are arrays, each once: by its own annotation
    (unless a call of the module passes a hashable value there), else by the first call that passes an
    array-annotated parameter of its caller."""
    # A call of the module that passes a hashable value there (`tuple(ts.tolist())`): the annotation is what
    # is wrong, not every call (dynamiqs converts its `tsave: Array` before its one call).
    given_hashable = {(function.name, argument.parameter) for call, function in calls
                      if jitted.get(function.name) is function for argument in function.arguments(call)
                      if argument.static and any(e.kind is Kind.SAFE for e in values.passed(argument.value, call))}
    found = {(function.name, parameter.name): StaticArray(function, parameter.name, annotation)
             for function in jitted.values() for parameter, annotation in annotated_static_arrays(function, values)
             if (function.name, parameter.name) not in given_hashable}
    for call, function in calls:
        if function.function is None or jitted.get(function.name) is not function:
            continue
        for argument in function.arguments(call):
            name = argument.parameter
            if not argument.static or name is None or (function.name, name) in found:
                continue
            given = array_parameter(index, values, argument.value, call, jitted)
            if given is not None:
                caller, annotation = given
                found[function.name, name] = StaticArray(function, name, annotation, caller, call)
    project = index.project
    for function in jitted.values() if project is not None else ():
        if function.function is None or index.module_function(function.function.name) is not function.function:
            continue  # another module judges only the module's own functions it can import
        for passed, summary in project.arrays_passed(function.name):  # type: ignore[union-attr]
            position = passed.position if passed.position >= 0 else None
            name = passed.keyword or (function.parameters[passed.position]
                                      if position is not None and position < len(function.parameters) else "")
            if name and function.is_static(position, name) and (function.name, name) not in found:
                found[function.name, name] = StaticArray(
                    function, name, None, passed.caller, None,
                    Elsewhere(passed.annotation, summary.display_path, passed.line))
    return list(found.values())


def annotated_static_arrays(function: JittedFunction, values: ValueInference) -> Iterator[tuple[Param, ast.expr]]:
    """(parameter, annotation) for each static parameter of a jitted def annotated as an array, but those its
    body uses as a size (`jnp.linspace(0, 1, n)`, `range(n)`, `jnp.zeros((n, 3))`): only an int works there,
    so the annotation is what is wrong, not the declaration (jax-sbgeom's `n_theta: jnp.ndarray`)."""
    sizes = _sizes(function.function, values.index) if function.function is not None else set()
    for parameter in function.function.params if function.function is not None else []:
        annotation = array_annotation(values, parameter) if parameter.name in function.static_names else None
        if annotation is not None and parameter.name not in sizes:
            yield parameter, annotation


def _sizes(function: FunctionInfo, index: ModuleIndex) -> set[str]:
    """The names a function's body gives as a size or shape: to `range`, or where an array constructor takes
    one (shape_arguments), as written or in arithmetic and tuples."""
    found: set[str] = set()
    for call in function.nodes(ast.Call) if not function.is_lambda else ():
        if is_name(call.func, "range") and index.is_builtin("range", function):
            arguments = [*call.args, *(k.value for k in call.keywords)]
        elif (taken := shape_arguments(index, call)) is not None:
            arguments = taken[0]
        else:
            continue
        found.update(name.id for argument in arguments for name in nodes_of(argument, ast.Name))
    return found


def array_parameter(index: ModuleIndex, values: ValueInference, value: ast.expr, call: ast.Call,
                    jitted: Mapping[str, JittedFunction]) -> tuple[str, ast.expr] | None:
    """(the calling function, the annotation) when a call passes a parameter of its caller that is
    annotated as an array and never rebound there, and that the caller's own jit does not take as static (a
    static parameter is the hashable value given, whatever its annotation says: icland's `width`)."""
    caller = index.enclosing_function(call)
    parameter = _unbound_parameter(caller, value)
    if parameter is not None and any(j.function is caller and j.is_static(None, parameter.name)
                                     for j in jitted.values()):
        return None
    annotation = array_annotation(values, parameter) if parameter is not None else None
    return (caller.name, annotation) if annotation is not None else None


def array_annotation(values: ValueInference, parameter: Param) -> ast.expr | None:
    """The parameter's annotation when it says an array and does not admit None (`Optional[jax.Array]`:
    callers may pass only None, which hashes)."""
    annotation = parameter.annotation
    if annotation is None or is_none(parameter.default) or _admits_none(annotation):
        return None
    evidence = values.annotation(annotation)
    return annotation if evidence and all(e.kind is Kind.ARRAY for e in evidence) else None


def _admits_none(annotation: ast.expr) -> bool:
    """`Optional[...]`, `X | None`, also written as a string (`"jax.Array | None"`)."""
    annotation = parse_string_annotation(annotation) or annotation
    return any(is_none(node) or (isinstance(node, (ast.Name, ast.Attribute))
                                 and (getattr(node, "id", None) or getattr(node, "attr", None)) == "Optional")
               for node in ast.walk(annotation))


def _unbound_parameter(function: FunctionInfo | None, value: ast.expr) -> Param | None:
    """The parameter of `function` that `value` names, when the function never rebinds it."""
    if function is None or function.is_lambda or not isinstance(value, ast.Name):
        return None
    if function.local_bindings.get(value.id):
        return None
    return next((p for p in function.params if p.name == value.id), None)
