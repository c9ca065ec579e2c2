"""PTL403 unhashable-static-argument

What it does:
    Finds a call of a jitted function (`@partial(jax.jit, static_argnums=...)`, `jax.jit(f,
    static_argnames=...)`) that passes a list, dict or set (a display, a comprehension, `list()`,
    `dict()`, `set()`) or an array (made by NumPy or JAX, or computed from one: `x > 0`, `jnp.arange(n) < k`)
    at a static position or static keyword. The function may be jitted in
    another module of the project (imported by name, or decorated there with a `partial(jax.jit,
    static_argnums=...)` wrapper or the project's own jit decorator factory, `@jit_static("n")`), and
    the value may reach the call through a local name (`config = {"lr": 0.1}`), a helper's return
    (`make_kwargs()`, in this module or another), an object that keeps it (`config.widths` of a local
    `config = PadConfig(widths=[(1, 1)])`, that object's own value; `self.sizes` in a method, given a list
    wherever the class is built), or be a parameter of the calling function annotated as an array, or one
    that every call of that function in the module gives such a value (`def counts_of(values, size): return
    occurrences(values, size), size` called with `size = jnp.max(values) + 1`).

Why is this bad:
    Static arguments are hashed to find the compiled function, and these cannot be (measured, jax
    0.10.2): `ValueError: Non-hashable static arguments are not supported. An error occurred while trying
    to hash an object of type <class 'list'>, [1, 2]. The error was: TypeError: unhashable type: 'list'`.
    The same holds for dicts, NumPy and JAX arrays, and a JAX scalar passed by `static_argnames`.

Example:
    @partial(jax.jit, static_argnums=1)
    def pad(x, widths):
        return jnp.pad(x, widths)

    pad(x, [(1, 1)])      # PTL403

Use instead:
    Pass a hashable value: `pad(x, ((1, 1),))`, `tuple(sizes)`, `frozenset(...)`, or make the array a
    traced argument.

Known false positives:
    None known. A name or helper is judged only when every value that can reach the call is a container
    or array (a name also assigned a tuple is not judged, nor a parameter unless annotated as an array or
    given one by every call of its function, each known).

    An array passed where the parameter is declared static and annotated as an array is PTL405's (the
    declaration is what is wrong), in this module or the one defining the function.

Known limits:
    The calls checked are those of jitted functions of the module or imported from the project, of a plain
    wrapper of one (its parameter becomes static), of a function jitted inside the function that calls it
    (`step = jax.jit(update, static_argnums=1)`), and of jitted methods and jitted functions kept on an
    attribute (`self.step = jax.jit(...)`) called on an object known to be of the class. A local name is
    judged by its last unconditional assignment in the function (a conversion after the call hides it).
    A local object's attribute is judged only when the class keeps what its constructor is given as it is
    (its own `__init__` stores it, or a dataclass decorator, a NamedTuple or a pytree library makes the
    constructor from its fields, with no converter; another library's base, such as pydantic's `BaseModel`,
    may convert) and the function neither assigns the attribute nor hands the object to a call;
    `self.sizes` only when every value any construction of the class gives it is a list, dict, set or
    array.
"""

from __future__ import annotations

import ast

from ...analysis.pytrees.jitted import array_parameter
from ...analysis.syntax.model import FunctionInfo, element_key, written_as
from ...analysis.values.inference import ARITHMETIC, Elsewhere
from ...analysis.values.kinds import Kind, Relation
from ...knowledge.numpy import CONSTRUCTOR_SHORT_NAMES
from ...knowledge.python import UNHASHABLE_BUILTINS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule

UNHASHABLE = {Kind.MUTABLE: "unhashable", Kind.ARRAY: "an array, unhashable"}


def _built_here(value: ast.expr) -> bool:
    """A container or array written at the call: a display, a comprehension, `list(...)`, `np.zeros(...)`,
    arithmetic (`jnp.ones(3) > 0`: an array when an operand is one)."""
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, *ARITHMETIC)):
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id in UNHASHABLE_BUILTINS | CONSTRUCTOR_SHORT_NAMES
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr in CONSTRUCTOR_SHORT_NAMES
    return False


class UnhashableStaticArgument(Rule):
    code = "PTL403"
    name = "unhashable-static-argument"
    summary = "a list, dict, set or array is passed at a static argument of a jitted function"
    runtime = ReproduceProbe(("Non-hashable static arguments", "unhashable type"), where="line")
    triggers = ("static_argnums", "static_argnames")

    def check(self, analysis):
        declared_arrays = {(s.function.name, s.parameter) for s in analysis.static_arrays}
        for call, function in analysis.jitted_calls:
            for argument in function.arguments(call):
                if not argument.static or (function.name, argument.parameter) in declared_arrays \
                        or argument.parameter in function.declared_arrays or (function.elsewhere and array_parameter(
                            analysis.index, analysis.values, argument.value, call, analysis.jitted_functions)
                            is not None):
                    continue  # not static, or an array parameter PTL405 reports at its declaration
                found = _unhashable(analysis, argument.value, call)
                if found is not None:
                    kind, what, where = found
                    yield Report(call,
                                 f"static {argument.label} of `{function.name}` is {what} ({where}), "
                                 f"{UNHASHABLE[kind]}: the call raises `ValueError: Non-hashable static arguments "
                                 "are not supported` (pass a tuple or another hashable value)", target=function.name)


def _unhashable(analysis, value: ast.expr, call: ast.Call) -> tuple[Kind, str, str] | None:
    """(kind, what the value is, where it comes from) for a container or array passed: written at the call,
    a parameter of the caller annotated as an array, or reaching the call through names and helpers."""
    value = written_as(value)
    function = analysis.index.enclosing_function(call)
    if isinstance(value, (ast.Call, ast.Subscript, ast.Attribute)) or _unpacked(value, function):  # a helper
        # or property returning what it computes of its arguments (`return x > 0`; `return x > 0, n` taken back
        # as `f(x)[0]` or unpacked) or an attribute of one (`return config.widths`)
        inlined = written_as(value, function, analysis.index)
        value = inlined if isinstance(inlined, ARITHMETIC) or _attribute_of_an_object(inlined) else value
    if _built_here(value):
        evidence = next((e for e in analysis.values.passed(value, call)
                         if e.kind in UNHASHABLE and (not e.trail or isinstance(value, ARITHMETIC))), None)
        return (evidence.kind, evidence.what, analysis.located(value)) if evidence is not None else None
    given = array_parameter(analysis.index, analysis.values, value, call, analysis.jitted_functions)
    if given is not None:
        caller, annotation = given
        return Kind.ARRAY, f"`{value.id}`", f"a parameter of `{caller}` annotated `{analysis.snippet(annotation)}`"
    evidence = _reaching(analysis, value, call)
    return (evidence.kind, evidence.what, analysis.origin(evidence)) if evidence is not None else None


# How a value reaches the call and stays what it was made as: assigned to a name or an attribute, returned by
# a function, given to a constructor that keeps it.
_KEEPING = frozenset({Relation.ASSIGNED, Relation.RETURNS, Relation.GIVEN})


def _reaching(analysis, value: ast.expr, call: ast.Call):
    """A container or array that reaches the static argument through names and helpers' returns (`config
    = dict(...)`, `make_kwargs()` of this module or another, `make()[0]` an element of one's tuple), when
    nothing else can reach it instead."""
    if not isinstance(value, (ast.Name, ast.Call)) and not _element_of_a_value(value) \
            and not _attribute_of_an_object(value):
        return None
    evidence = analysis.values.passed(value, call)
    if not evidence and isinstance(value, ast.Name):
        # A parameter of the helper the call is in: what every call of the helper passes (`make_values(batch,
        # size)[0]`, the jitted call moved into a helper), when each is known; not of a wrapper that passes it
        # on as its own static argument (the calls of the wrapper are judged).
        function = analysis.index.innermost_scope(call)
        if function is not None and function.name not in analysis.jitted_functions:
            evidence = analysis.values.passed_to(function, value.id, complete=True)
    # What the name or call itself holds, not the elements of the container it holds.
    unhashable = {id(e.node) for e in evidence if e.kind in UNHASHABLE}
    made = [e for e in evidence if e.trail and not e.elements and (
        _always_one_of(e.trail[-1].node, e.node, unhashable)
        or (isinstance(e.trail[-1].node, Elsewhere) and not e.contained)
        or (e.kind is Kind.ARRAY and isinstance(e.trail[-1].node, ARITHMETIC)))]  # `mask = jnp.arange(n) < k`
    if not made or any(e.kind not in UNHASHABLE or any(hop.relation not in _KEEPING for hop in e.trail)
                       for e in made):
        return None
    return made[0]


def _attribute_of_an_object(value: ast.expr) -> bool:
    """`config.widths`, `self.sizes`, `make_config().widths`: an attribute of what a name holds (an object
    built here or the method's own) or of an object a call builds."""
    return isinstance(value, ast.Attribute) and isinstance(value.value, (ast.Name, ast.Call))


def _unpacked(value: ast.expr, function: FunctionInfo | None) -> bool:
    """A local name bound once, by unpacking what a call gives (`mask, n = f(x)`: `mask` is `f(x)[0]`)."""
    bound = function.local_bindings.get(value.id, []) if isinstance(value, ast.Name) and function else []
    return len(bound) == 1 and _element_of_a_value(bound[0])


def _element_of_a_value(value: ast.expr) -> bool:
    """`make()[0]`, `pair[1]`, `make()["config"]`: an element, by its key, of what a call or a name gives."""
    return isinstance(value, ast.Subscript) and element_key(value.slice) is not None \
        and isinstance(value.value, (ast.Name, ast.Call, ast.Subscript))


def _always_one_of(expression: ast.AST, made: ast.AST, unhashable: set[int]) -> bool:
    """Whether an expression's value is `made` itself, or a choice one of whose branches is `made` and each
    of whose branches is an unhashable value (`{...} if c else [...]`; not `{...} if c else None`, which
    may be hashable)."""
    branches, pending = [], [expression]
    while pending:
        current = pending.pop()
        if isinstance(current, ast.IfExp):
            pending.extend((current.body, current.orelse))
        elif isinstance(current, ast.BoolOp):
            pending.extend(current.values)
        elif isinstance(current, ast.NamedExpr):
            pending.append(current.value)
        else:
            branches.append(current)
    return any(branch is made for branch in branches) and (
        len(branches) == 1 or all(id(branch) in unhashable for branch in branches))
