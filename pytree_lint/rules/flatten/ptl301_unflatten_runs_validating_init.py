"""PTL301 unflatten-runs-validating-init

What it does:
    Finds an unflatten function (a def, a lambda or a `tree_unflatten` classmethod) that rebuilds the
    object by calling the class, when the class's `__init__` or `__post_init__` raises, asserts, checks
    `.ndim`/`.shape`/`.dtype`/`.size`, calls `checkify.check`, or converts with `jnp.asarray`/`np.asarray`/
    `jnp.array` on an argument that receives a leaf child, or on a value computed from one (`positive =
    w > 0; checkify.check(jnp.all(positive))`), also in a base `__init__` called through `super()`.
    `register_dataclass` and `flax.struct` classes are rebuilt through `__init__` too, so a validating
    `__post_init__` (or `__init__`) there is reported at its `def`. The message quotes the first such check
    in the order the constructor runs, and names the transformation it fails under.

Why is this bad:
    JAX calls unflatten with whatever its transformations put in the leaves, not only arrays: None (and
    nested instances) under `jax.jacobian`, ShapeDtypeStructs under `jax.eval_shape`, per-example
    tracers inside `vmap`, `PytreeLeaf()` placeholders when it reports a `vmap` `in_axes` error, and
    `PartitionSpec` leaves under `jax.jacfwd` and `jax.hessian`, which a test against None lets through.
    (`object()` sentinels, which JAX's docs still mention, are gone since jax 0.8.0.) Measured on jax
    0.10.2: a `w.ndim != 2` check raises `ValueError: w must be 2-D, got ndim=1` under vmap and
    `AttributeError: 'NoneType' object has no attribute 'ndim'` under jacobian; `jnp.asarray` in
    `__init__` raises `TypeError: float() argument must be a string or a real number, not
    'ShapeDtypeStruct'` under eval_shape and silently turns `jax.tree.map(lambda x: x.shape, t)` into an
    array; a value test (`if w > 1`) raises
    `TracerBoolConversionError` under jit, and a `checkify.check` makes every `jax.jit` taking the object
    raise `Cannot abstractly evaluate a checkify.check which was not functionalized`; guarded by `if w is
    not None`, the check raises `AttributeError: 'P' object has no attribute 'ndim'` under jacfwd, and
    guarded by a helper that catches every placeholder or by `hasattr(x, "shape")`, a check of a leading
    axis raises the constructor's `ValueError` under vmap (its outputs), jacobian and jacfwd, which unflatten
    with arrays of a leading axis more. JAX does not warn.

Example:
    @jax.tree_util.register_pytree_node_class
    class Linear:
        def __init__(self, w):
            if w.ndim != 2:
                raise ValueError("w must be 2-D")
            self.w = w

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)               # PTL301

Use instead:
    Rebuild without running `__init__`, and keep validation in `__init__` or a factory for users:

        @classmethod
        def tree_unflatten(cls, aux, children):
            obj = object.__new__(cls)
            obj.w, = children
            return obj

Known false positives:
    None known. Not reported: checks of a child that is itself a pytree node (a parameter annotated with a
    registered class, a NamedTuple, a list, tuple or dict type, a TensorFlow Probability distribution or
    bijector, or a class derived from one, or `Optional` of one; `isinstance` against
    a registered class, here or in another module, or a raise when it is none: `if not isinstance(image,
    Image): raise`): unflatten rebuilds the node before the constructor sees it, so `x is not None`,
    `isinstance(x, Grid)` and `len(x)` hold whatever the leaves are (measured: jit, eval_shape, vmap,
    jacobian, jacrev and tree.map all fine), nor what runs only when such a child is None (`if dist is None:
    ...`: never taken in an unflatten). Nor checks of a child annotated with a plain class of the
    project (no pytree, no array: a leaf jit, vmap, grad and eval_shape reject before any unflatten, so no
    tracer takes its place). Neither are checks of values fed by aux_data, unflattens that
    rebuild with `object.__new__`, and a `.dtype`/`.shape` read an `isinstance(x, jax.Array)` before it in
    the same `and` guards (a None leaf fails the isinstance and never reaches it; kauldron's `PRNGKey`), nor a
    raise that None children never reach (`if images is not None and ...: raise`; gemma's `Input`), nor an
    identity test against a sentinel (`x is _default`, or two compared: clu's `LastValue`): no leaf is it,
    nor a check that fails only on None leaves under an `if` a module helper true of None guards (`if not
    is_placeholder(x, y): assert x.shape == y.shape`; recurrentgemma's `Complex`, whose helper catches the
    PartitionSpec leaves too), or past `hasattr(x, "shape")` (cuequivariance's `RepArray`), unless it reads
    a leading axis: `x.shape[-1] != width` holds for the arrays of a leading axis more too. Two values'
    shapes or dtypes compared with each other fail only on placeholder leaves: a vmap or a jacobian changes
    both alike. An `if` that only reads a shape raises on no array; a raise under it is judged. Where an
    `isinstance(x, jnp.ndarray)` test lets only arrays on (`if not isinstance(...): return` before, or an
    `if isinstance(...):` around; totypes, fmmax), only what a tracer fails is reported.

Known limits:
    The constructors of the project are read, a base's in another module too (followed through `super()`
    or an explicit `Base.__init__(obj, ...)`); a library's are not. A child whose node-ness shows only at
    its construction sites, not in an annotation, is still judged a leaf, unless the constructor reads a
    member of it that no array has (`op.hilbert`: an object, so a node). Equinox modules are not reported:
    equinox does not run `__init__` or `__check_init__` on unflatten. A helper that says a value is a
    placeholder is taken to catch every kind JAX uses (one that catches only None still lets jacfwd's
    PartitionSpec leaves through), and what only nested instances break is not reported (`jax.hessian`, or a
    jacobian of a function returning the object, rebuilds it with instances of its class as leaves).
"""

from __future__ import annotations

import ast
import enum
import os
from collections.abc import Iterator
from typing import Any

from ...analysis.pytrees.aux import flatten_returns
from ...analysis.pytrees.structure import Constructor, names_in, self_attributes
from ...analysis.record import record, remade
from ...analysis.syntax.model import (
    NOT_NONE,
    FunctionInfo,
    arguments_in_order,
    child_nodes,
    excludes_none,
    guarded_statements,
    has_member_test,
    is_name,
    is_none,
    isinstance_test,
    isinstance_types,
    nodes_of,
    none_test,
    reached,
    test_atoms,
    written_as,
)
from ...analysis.syntax.names import dotted_name
from ...knowledge.jax import CHECKIFY_CHECKS
from ...knowledge.numpy import (
    ARRAY_MEMBERS,
    ARRAY_TYPE_SUFFIXES,
    CHECKED_ATTRIBUTES,
    CONCRETE_TYPES,
    CONVERSIONS,
    SCALAR_ANNOTATIONS,
    SHAPE_ATTRIBUTES,
    SHAPE_FUNCTIONS,
)
from ...runtime.observe import Outcome, first_line, jax_module
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule

CHECKIFY_UNDER_JIT = "checkify.check which was not functionalized"
REMEDY = "rebuild with `object.__new__` and set the attributes instead"


def _constructor_frame(error: BaseException) -> str | None:
    """The `__init__`/`__post_init__` outside JAX that an error was raised in, as "name (file:line)"."""
    jax_dir = os.path.dirname(jax_module().__file__)
    import traceback  # here: the static path never needs it

    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.name in ("__init__", "__post_init__") and not frame.filename.startswith(jax_dir):
            return f"{frame.name} ({os.path.basename(frame.filename)}:{frame.lineno})"
    return None


def probe_validating_init(examples: list[Any], target: str | None) -> Outcome:
    jax = jax_module()
    import jax.numpy as jnp

    transformations = {
        "jax.jit(lambda t: t)": lambda t: jax.jit(lambda x: x)(t),
        "jax.jacobian(lambda t: t)": lambda t: jax.jacobian(lambda x: x)(t),
        "jax.jacfwd(lambda t: t)": lambda t: jax.jacfwd(lambda x: x)(t),
        "jax.eval_shape(lambda t: t)": lambda t: jax.eval_shape(lambda x: x, t),
        "jax.vmap(lambda t: t) over two stacked examples": lambda t: jax.vmap(lambda x: x)(
            jax.tree.map(lambda *xs: jnp.stack(xs), t, examples[1])),
    }
    for name, transformation in transformations.items():
        try:
            transformation(examples[0])
        except Exception as error:
            if CHECKIFY_UNDER_JIT in str(error):  # raised where jit lowers the check, not in the constructor
                return Outcome("confirmed", f"{name} raised {first_line(error)}")
            frame = _constructor_frame(error)
            if frame is not None:
                return Outcome("confirmed", f"{name} raised, in {frame} run by unflatten, {first_line(error)}")
    return Outcome("unconfirmed", f"{', '.join(transformations)} all rebuilt the example without an error")


class UnflattenRunsValidatingInit(Rule):
    code = "PTL301"
    name = "unflatten-runs-validating-init"
    summary = "unflatten rebuilds the object through a constructor that validates or converts its arguments"
    runtime = ExamplesProbe(probe_validating_init, structural=True)

    def check(self, analysis):
        structure = analysis.structure
        for registration in analysis.registrations:
            cls = registration.cls
            if cls is None:
                continue
            unflatten = structure.unflatten(registration)
            if unflatten is not None:
                count = structure.child_count(registration)
                calls = [] if unflatten.builds_with_new else [
                    (call, cls, arguments_in_order(call), False) for call in unflatten.constructor_calls]
                calls += [(init.node, init.cls, init.arguments, True) for init in unflatten.init_calls]
                for call, built, arguments, explicit in calls:
                    constructor = structure.constructor(built)
                    if constructor is None:
                        continue
                    children = self._child_parameters(structure, unflatten, constructor, arguments, count)
                    nodes = children & _node_parameters(analysis, constructor)
                    children -= nodes | _opaque_parameters(analysis, constructor)
                    given = {**_filled_when_none(constructor, arguments, unflatten, children),
                             **_literals_from_aux(analysis, registration, unflatten, arguments),
                             **_literals_given(constructor, arguments)}
                    # children set on the object before an explicit `__init__` runs on it (`obj.x = children[0]`)
                    carried = {read.attribute for read in unflatten.attribute_reads
                               if explicit and read.node.lineno < call.lineno}
                    validation = find_validation(analysis, constructor, children, given, carried, nodes)
                    if validation is not None:
                        yield self._report(analysis, call, cls, validation, registration)
                        break
            elif registration.unflatten is None and registration.unflatten_runs:
                constructor = structure.constructor(cls)
                if constructor is None:
                    continue
                if "__init__" not in registration.unflatten_runs:  # built with `__new__`: only `__post_init__`
                    constructor = remade(constructor, init=None)
                library = registration.library
                static = {field.name for field in registration.static_fields} | (analysis.frameworks.static_names(
                    cls, library.convention) if library is not None else set())
                children = {p.name for p in constructor.parameters if p.name not in static}
                nodes = children & _node_parameters(analysis, constructor)
                children -= nodes | _opaque_parameters(analysis, constructor)
                validation = find_validation(analysis, constructor, children, nodes=nodes)
                if validation is not None:  # no unflatten of the user's: report the method to change
                    yield self._report(analysis, validation.method.node, cls, validation, registration)

    @staticmethod
    def _child_parameters(structure, unflatten, constructor, arguments, count: int | None) -> set[str]:
        """The parameters a constructor call fills with the children themselves (`children[0]`, a name
        unpacked from them, `*children` when flatten's child count is known). A value computed from a
        child (`len(xs)`) is not one, and positions behind a star argument of unknown length are unknown."""
        parameters = constructor.parameters
        found, position = set(), 0
        for argument in arguments:
            if isinstance(argument, ast.keyword):
                if argument.arg is not None and structure.child_read(unflatten, argument.value) is not None:
                    found.add(argument.arg)
                elif argument.arg is None:
                    break
            elif isinstance(argument, ast.Starred):
                if not (structure.is_children(unflatten, argument.value) and count is not None):
                    break
                found.update(p.name for p in parameters[position:position + count])
                position += count
            else:
                if position < len(parameters) and structure.child_read(unflatten, argument) is not None:
                    found.add(parameters[position].name)
                position += 1
        return found

    @staticmethod
    def _report(analysis, node, cls, validation, registration) -> Report:
        owner = validation.method.cls.name if validation.method.cls is not None else cls.name
        method = f"{owner}.{validation.method.name}"
        return Report(node, f"unflatten rebuilds `{cls.name}` through `{method}`, which {validation.what} "
                            f"({analysis.located(validation.node)}): {validation.consequence}; {REMEDY}",
                      target=registration.target)


def _literals_given(constructor: Constructor, arguments: list) -> dict[str, object]:
    """The parameters a constructor call passes a literal constant (`cls(*children, _check=False)`): by
    keyword, or by position before any star argument."""
    given: dict[str, object] = {}
    position: int | None = 0
    for argument in arguments:
        if isinstance(argument, ast.keyword):
            if argument.arg is not None and isinstance(argument.value, ast.Constant):
                given[argument.arg] = argument.value.value
        elif isinstance(argument, ast.Starred):
            position = None
        elif position is not None:
            if isinstance(argument, ast.Constant) and position < len(constructor.parameters):
                given[constructor.parameters[position].name] = argument.value
            position += 1
    return given


def _literals_from_aux(analysis, registration, unflatten, arguments: list) -> dict[str, object]:
    """The literal constants a `**aux_data` argument passes, by key, when every return of flatten gives aux_data
    as a dict display holding them (bqskit-qfactor-jax's `{"radixes": ..., "_from_tree": True}`, whose
    `_from_tree` turns the constructor's conversion off)."""
    flatten = registration.flatten
    if flatten is None or unflatten.aux is None or not any(
            isinstance(a, ast.keyword) and a.arg is None and is_name(a.value, unflatten.aux) for a in arguments):
        return {}
    found: dict[str, object] | None = None
    for returned in flatten_returns(flatten, analysis.index):
        aux = written_as(returned.aux, flatten, analysis.index)
        if not isinstance(aux, ast.Dict):
            return {}
        literals = {key.value: value.value for key, value in zip(aux.keys, aux.values)
                    if isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Constant)}
        found = literals if found is None else {k: v for k, v in found.items() if k in literals and literals[k] == v}
    return found or {}


def _filled_when_none(constructor: Constructor, arguments: list, unflatten, children: set[str]) -> dict[str, object]:
    """The parameters an unflatten passes a value from aux_data whose attribute the constructor makes when it
    is None (`if self._n_dofs is None: self._n_dofs = ...`, in `__init__` or `__post_init__`): every object
    has it set, so what flatten kept of it is no None, and the branch that makes it does not run on unflatten
    (fluxfem's `FESpacePytree`). Named as the attribute (`self._n_dofs`) and as the parameter."""
    passed = {argument.arg: argument.value for argument in arguments
              if isinstance(argument, ast.keyword) and argument.arg is not None}
    found: dict[str, object] = {}
    for parameter in constructor.parameters:
        value = passed.get(parameter.name)
        if (value is None or parameter.name in children or not parameter.attribute or unflatten.aux is None
                or unflatten.aux not in names_in(value)):
            continue
        for method in (constructor.init, constructor.post_init):
            if method is not None and method.self_name is not None \
                    and _makes_when_none(method, f"{method.self_name}.{parameter.attribute}"):
                found[f"{method.self_name}.{parameter.attribute}"] = found[parameter.name] = NOT_NONE
    return found


def _makes_when_none(method: FunctionInfo, dotted: str) -> bool:
    """The method's body assigns `dotted` a value that is no None under `if <dotted> is None:`."""
    for statement in method.node.body:
        if isinstance(statement, ast.If) and (tested := none_test(statement.test)) is not None \
                and tested[1] and dotted_name(tested[0]) == dotted:
            return any(isinstance(inner, ast.Assign) and any(dotted_name(t) == dotted for t in inner.targets)
                       and not is_none(inner.value) for inner in statement.body)
    return False


def _node_parameters(analysis, constructor: Constructor) -> set[str]:
    """The parameters that receive pytree nodes: annotated as one, or required to be an instance of a
    registered class (`if not isinstance(image, Image): raise TypeError(...)`). Unflatten rebuilds the node
    before it passes it, so a check on the node itself (`image.dtype`, read from its aux_data) holds
    whatever its leaves are."""
    found = {p.name for p in constructor.parameters if analysis.subtree_types.is_node(p.annotation)}
    init = constructor.init
    for statement, tests, _exits in guarded_statements(init) if init is not None else ():
        if isinstance(statement, ast.Raise):  # raised when the parameter is no instance of the node class
            found.update(tested[0].id for test, holds in tests for atom, held in test_atoms(test, holds)
                         if not held and (tested := isinstance_test(atom)) is not None
                         and isinstance(tested[0], ast.Name) and analysis.subtree_types.is_node(tested[1]))
    return found


def _opaque_parameters(analysis, constructor: Constructor) -> set[str]:
    """The parameters annotated with a plain class of the project (a leaf that is no array): jit, vmap,
    grad and eval_shape reject such a leaf before unflatten runs, so the constructor only ever sees the
    object given (drbx's layouts compared in `__post_init__`)."""
    return {p.name for p in constructor.parameters if analysis.subtree_types.is_opaque_leaf(p.annotation)}


VALUE_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
_MAX_BASE_INITS = 8  # `super().__init__` chains followed
_MAX_HELPER_DEPTH = 3  # helpers a None guard calls, followed (see _true_of_none)


class Failure(enum.Enum):
    """Which transformation a check on a leaf fails under, and how (measured on jax 0.10.2)."""

    CHECKIFY = ("every `jax.jit` taking it raises `Cannot abstractly evaluate a checkify.check which was not "
                "functionalized`")
    CONCRETE = "`jax.jit` unflattens with tracers, so the test raises `TracerBoolConversionError`"
    NUMPY = "`jax.jit` unflattens with tracers, so the conversion raises `TracerArrayConversionError`"
    SHAPE = ("`jax.jacobian` unflattens with None leaves (`AttributeError: 'NoneType' object has no attribute "
             "'{attribute}'`) and `jax.vmap` with per-example shapes")
    NONE = "`jax.jacobian` unflattens with None leaves, so the check raises"
    NONE_ATTRIBUTE = ("`jax.jacobian` unflattens with None leaves (`AttributeError: 'NoneType' object has no attribute "
                      "'{attribute}'`)")
    SHAPE_OF = ("`jax.jacobian` unflattens with None leaves (whose `{attribute}` is that of a scalar) and `jax.vmap` "
                "with per-example shapes, so the check raises")
    TYPE = "`jax.eval_shape` unflattens with ShapeDtypeStruct leaves and `jax.jacobian` with None, so the check raises"
    CONVERSION = ("`jax.jacobian` raises `ValueError: None is not a valid value for jnp.array` and `jax.eval_shape` "
                  "a `TypeError` on its ShapeDtypeStruct leaves")
    PLACEHOLDER = ("`jax.jacfwd` and `jax.hessian` unflatten with `PartitionSpec` leaves, which a test against None "
                   "lets through (`AttributeError: 'P' object has no attribute '{attribute}'`)")
    RESHAPED = ("`jax.vmap` (its outputs), `jax.jacobian` and `jax.jacfwd` unflatten with arrays of a leading axis "
                "more (the batch, the basis they map over), so the check raises")


@record
class Validation:
    """A statement of a constructor that fails on the leaves JAX passes to unflatten."""

    method: FunctionInfo
    node: ast.AST  # the test, assertion or conversion
    what: str  # "raises when it checks `.ndim`", "asserts and compares values", "converts with `jnp.asarray`"
    failure: Failure
    attribute: str = ""  # the array attribute a SHAPE check reads

    @property
    def consequence(self) -> str:
        return self.failure.value.format(attribute=self.attribute)


@record
class LeafCheck:
    what: str  # "checks `.ndim`", "compares values"
    failure: Failure
    attribute: str = ""
    # Reads only trailing axes of a shape (`x.shape[-1]`): the same with the leading axis more that vmap and
    # jacobians add (see Failure.RESHAPED).
    trailing: bool = False


def _is_compound(statement: ast.stmt) -> bool:
    return hasattr(statement, "body") or isinstance(statement, ast.Match)


def find_validation(analysis, constructor: Constructor, child_parameters: set[str],
                    given: dict[str, object] | None = None, carried: frozenset[str] | set[str] = frozenset(),
                    nodes: frozenset[str] | set[str] = frozenset()) -> Validation | None:
    """The first check or conversion `__init__` / `__post_init__` applies to a parameter (or the attribute
    it fills) that receives a child, in the order they run (a base `__init__` called through `super()` at
    the point of the call). Only what fails on a leaf that is not a concrete array counts: its
    `.ndim`/`.shape`/`.dtype`/`.size`, an `isinstance` against an array or number type, a value comparison,
    a conversion, a `checkify.check`. `len(child)` and `isinstance(child, SomeModule)` hold for a subtree
    child, and checks of aux-fed parameters are fine: aux_data comes back as is. `given`: the literals the
    call passes (a check the call turns off with `_perform_checks=False` does not run). `carried`: the
    attributes already holding children when it runs (set by the unflatten before an explicit `__init__`).
    `nodes`: the parameters given node children, never None (`node is not None or leaf is not None` holds
    whatever the leaves are)."""
    attributes = {p.attribute for p in constructor.parameters if p.name in child_parameters and p.attribute}
    attributes |= carried
    checks = _LeafChecks(analysis, attributes, frozenset(nodes))
    for method, names in ((constructor.init, child_parameters), (constructor.post_init, set())):
        if method is not None and method.self_name is not None:
            # What the call passes is read through the attributes it fills too (`if not self.checks: return`
            # in `__post_init__`, where `checks=False` was passed).
            kept = {f"{method.self_name}.{p.attribute}": given[p.name] for p in constructor.parameters
                    if given and p.name in given and p.attribute}
            found = checks.search(method, names, 0, {**(given or {}), **kept} if method is constructor.init
                                  else kept)
            if found is not None:
                return found
    return None


# What a tracer (jit's, vmap's) fails too: checks that an `isinstance(x, jax.Array)` guard lets through.
TRACER_FAILURES = frozenset({Failure.CONCRETE, Failure.NUMPY, Failure.CHECKIFY})


class _LeafChecks:
    """The checks of one constructor's methods on the children they receive (`names`) or store
    (`attributes`, the same `self` through every base `__init__`)."""

    def __init__(self, analysis, attributes: set[str], nodes: frozenset[str] = frozenset()) -> None:
        self.analysis = analysis
        self.index = analysis.index
        self.attributes = attributes
        self.nodes = nodes  # parameters given node children: rebuilt before the constructor sees them
        self._computed: dict[tuple[int, frozenset[str]], set[str]] = {}  # see _computed_from

    def search(self, method: FunctionInfo, names: set[str], depth: int,
               given: dict[str, object] | None = None) -> Validation | None:
        self_name = method.self_name
        for statement, tests, exits in guarded_statements(method, given):
            if any((value := self._with_none_children(test, set(), None)) is not None and value is not holds
                   for test, holds in (*tests, *exits)):
                continue  # behind a None test of a node child that never comes out so (`if dist is None:`)
            if self._concrete_only(tests, names, self_name):
                continue  # only a concrete value gets here (`if isinstance(x, np.number):`): no leaf unflatten gives
            found = self._validation_at(method, statement, tests, names, self_name, depth)
            # Where a test has let only arrays through (`if not isinstance(x, jax.Array): return`), None and
            # placeholder leaves never arrive: only what a tracer fails is left.
            if found is not None and (found.failure in TRACER_FAILURES
                                      or not self._arrays_only(method, [*tests, *exits], names, self_name)):
                return found
        return None

    def _validation_at(self, method: FunctionInfo, statement: ast.stmt, tests: tuple[tuple[ast.expr, bool], ...],
                       names: set[str], self_name: str | None, depth: int) -> Validation | None:
        """The check or conversion a statement of the constructor makes on a child (`tests`: the ifs around it)."""
        if isinstance(statement, ast.Raise):
            guard = next(((t, check, failure) for t, holds in tests
                          if (check := self._leaf_check(t, names, self_name))
                          and self._reached(check, t, holds, names, self_name)
                          and (failure := self._failure_reaching(check, [(u, h) for u, h in tests if u is not t],
                                                                 names, self_name))), None)
            if guard is not None:
                return Validation(method, guard[0], f"raises when it {guard[1].what}", guard[2], guard[1].attribute)
        if isinstance(statement, ast.Assert) and (check := self._leaf_check(statement.test, names, self_name)) \
                and self._reached(check, statement.test, False, names, self_name) \
                and (failure := self._failure_reaching(check, list(tests), names, self_name)):
            return Validation(method, statement.test, f"asserts and {check.what}", failure, check.attribute)
        if isinstance(statement, (ast.If, ast.While)):
            attribute, past_none_test = next(self._checked_attributes(statement.test, names, self_name), (None, False))
            if attribute is None:
                return None
            check = LeafCheck(f"checks `.{attribute.attr}`", Failure.PLACEHOLDER if past_none_test else Failure.SHAPE,
                              attribute.attr)
            failure = self._failure_reaching(check, list(tests), names, self_name)
            # Reading an array's shape in a test raises on no array, of whatever shape: a raise or assert it
            # leads to is judged as a statement of its own.
            if failure is None or failure is Failure.RESHAPED:
                return None
            return Validation(method, statement.test, check.what, failure, attribute.attr)
        if _is_compound(statement):
            return None
        names = {name for name in names if self._still_a_child(method, name, names, statement)}
        for node in nodes_of(statement, (ast.Call, ast.Attribute)):
            # A helper, method or property whose body returns the conversion: the conversion it returns.
            written = written_as(node, method, self.index)
            called = [node] if isinstance(node, ast.Call) else []
            for made in (*called, *(nodes_of(written, ast.Call) if written is not node else ())):
                found = self._call(method, made, names, self_name, depth)
                if found is not None:
                    return found
        return None

    @staticmethod
    def _still_a_child(method: FunctionInfo, name: str, names: set[str], statement: ast.stmt) -> bool:
        """Whether a child's name still holds a child at `statement`: no assignment before it rebinds the name,
        or the last one computes its value from the children (`y = y if costs is None else costs`), not anew
        (jax-sgmc's `JaxUUID`: `if ints is None: ints = [...]`, then `np.array(ints)`)."""
        overwriting = method.overwriting_before(name, statement)
        return overwriting is None or not isinstance(overwriting.value, ast.expr) or bool(
            names_in(overwriting.value) & names)

    def _concrete_only(self, tests: tuple[tuple[ast.expr, bool], ...], names: set[str], self_name: str | None,
                       ) -> bool:
        """Some test that holds here says a child is an instance of concrete types only (a NumPy or Python
        scalar, a str, a NumPy array): no tracer, None, ShapeDtypeStruct or PartitionSpec leaf is one."""
        for test, holds in tests:
            for atom, held in test_atoms(test, holds):
                tested = isinstance_test(atom) if held else None
                if tested is not None and self._is_child(tested[0], names, self_name) and all(
                        (self.index.qualify(kind) or dotted_name(kind)) in CONCRETE_TYPES
                        for kind in isinstance_types(tested[1])):
                    return True
        return False

    def _arrays_only(self, method: FunctionInfo, tests: list[tuple[ast.expr, bool]], names: set[str],
                     self_name: str | None) -> bool:
        """Some test that holds here says a child is an instance of types None is not (`isinstance(x,
        (jnp.ndarray, np.ndarray))`, or a local bound to one): with None leaves, which JAX gives every leaf at
        once, nothing here runs."""
        return any(excludes_none(test, holds, lambda node: self._is_child(node, names, self_name), method)
                   for test, holds in tests)

    def _call(self, method: FunctionInfo, call: ast.Call, names: set[str], self_name: str | None,
              depth: int) -> Validation | None:
        base_init = self._base_init(method, call, self_name) if depth < _MAX_BASE_INITS else None
        if base_init is not None:  # it sees the children passed on, and those already on `self`
            passed = base_init.positional_params[1:]
            received = {passed[i].name for i, a in enumerate(call.args) if i < len(passed)
                        and not isinstance(a, ast.Starred) and self._is_child(a, names, self_name)}
            received |= {k.arg for k in call.keywords if k.arg and self._is_child(k.value, names, self_name)}
            return self.search(base_init, received, depth + 1) if received or self.attributes else None
        arguments = [written_as(a, method, self.index) for a in [*call.args, *(k.value for k in call.keywords)]]
        arguments += [written_as(inner, method, self.index) for a in arguments for inner in nodes_of(a, ast.Call)
                      if inner is not a]  # `jnp.all(positive())` of a nested def returning `w > 0`
        computed = self._computed_from(method, names, self_name)
        if not any(self._mentions(a, computed, self_name) for a in arguments):
            return None
        qualified = self.index.qualify(call.func)
        if qualified in CONVERSIONS:
            failure = Failure.NUMPY if qualified.startswith("numpy.") else Failure.CONVERSION
            return Validation(method, call, f"converts with `{self.index.code(call.func)}`", failure)
        if qualified in CHECKIFY_CHECKS:
            return Validation(method, call, f"calls `{self.index.code(call.func)}`", Failure.CHECKIFY)
        return None

    def _base_init(self, method: FunctionInfo, call: ast.Call, self_name: str | None) -> FunctionInfo | None:
        """The base class `__init__` a `super().__init__(...)` call in a constructor runs (of this module or
        another of the project)."""
        func = call.func
        if not (method.name == "__init__" and method.cls is not None and isinstance(func, ast.Attribute)
                and func.attr == "__init__" and isinstance(func.value, ast.Call)
                and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"):
            return None
        bases = self.index.class_and_bases(method.cls, across_modules=True)[1:]
        return next((owner.methods["__init__"] for owner in bases if "__init__" in owner.methods), None)

    def _computed_from(self, method: FunctionInfo, names: set[str], self_name: str | None) -> set[str]:
        """The children's names and the method's locals computed from them (`held = w > 0`, and from those):
        what a conversion or a check given such a local is given of the leaves. One read of each value."""
        key = (id(method.node), frozenset(names))
        if key not in self._computed:
            found = set(names)
            readers: dict[str, set[str]] = {}  # a name -> the locals whose values read it
            for local, values in ({} if method.is_lambda else method.local_bindings).items():
                for value in values:
                    if not isinstance(value, ast.expr):
                        continue
                    if self_name and self_attributes(value, self_name) & self.attributes:
                        found.add(local)  # computed from a child the object already holds
                    for read in names_in(value):
                        readers.setdefault(read, set()).add(local)
            self._computed[key] = reached(found, readers)
        return self._computed[key]

    def _is_child(self, node: ast.AST, names: set[str], self_name: str | None) -> bool:
        return (isinstance(node, ast.Name) and node.id in names) or (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == self_name and node.attr in self.attributes)

    def _mentions(self, node: ast.AST, names: set[str], self_name: str | None) -> bool:
        return bool(names_in(node) & names or (self_name and self_attributes(node, self_name) & self.attributes))

    def _reached(self, check: LeafCheck, test: ast.expr, raises_when: bool, names: set[str],
                 self_name: str | None) -> bool:
        """Whether a check that fails only on None leaves (`x is None`) raises with them: the test, the
        children None, comes out as the raise needs (`if x is not None and ...: raise` never does)."""
        if check.failure is not Failure.NONE:
            return True
        value = self._with_none_children(test, names, self_name)
        return value is None or value is raises_when

    def _failure_reaching(self, check: LeafCheck, tests: list[tuple[ast.expr, bool]], names: set[str],
                          self_name: str | None) -> Failure | None:
        """How a check that None leaves fail fails with the leaves that get past the `if`s around it
        (`tests`): as with None leaves when no `if` comes out, every child None, the other way; when one does,
        a read of an array attribute fails on the PartitionSpec leaves `jax.jacfwd` and `jax.hessian` unflatten
        with (measured, jax 0.10.2: `if x is not None: assert x.ndim == 2`), and a check only None fails never
        fails. When a helper keeps None out (`if not is_placeholder(x): ...`), it may test for every
        placeholder (recurrentgemma's `_is_pytree_placeholder` tests for PartitionSpec): only a shape read
        against something else than the same shape of another child fails, on the arrays of a leading axis
        more that jacobians unflatten with. Other checks fail on other leaves too: their own failure."""
        if check.failure not in (Failure.NONE, Failure.NONE_ATTRIBUTE, Failure.SHAPE, Failure.PLACEHOLDER):
            return check.failure
        kept_out = [test for test, holds in tests
                    if (value := self._with_none_children(test, names, self_name)) is not None and value is not holds]
        if not kept_out:
            return check.failure
        if check.failure is Failure.NONE:
            return None
        if any(nodes_of(test, ast.Call) for test in kept_out):  # a helper or `hasattr`: only a shape it reads
            return Failure.RESHAPED if check.failure is Failure.SHAPE and check.attribute in SHAPE_ATTRIBUTES \
                and not check.trailing else None  # can fail, unless it reads only trailing axes
        return Failure.PLACEHOLDER

    def _with_none_children(self, test: ast.expr, names: set[str], self_name: str | None) -> bool | None:
        """The truth of a test made of `child is None`, `child is not None`, `not`, `and` and `or` when every
        child is None (a node child, rebuilt first, never is); None when something else decides it."""
        if isinstance(test, ast.Compare):
            found = none_test(test)
            if found is not None and isinstance(found[0], ast.Name) and found[0].id in self.nodes:
                return not found[1]
            return found[1] if found is not None and self._is_child(found[0], names, self_name) else None
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._with_none_children(test.operand, names, self_name)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            values = [self._with_none_children(value, names, self_name) for value in test.values]
            deciding = isinstance(test.op, ast.Or)  # a True decides an `or`, a False an `and`
            if deciding in values:
                return deciding
            return (not deciding) if all(value is not None for value in values) else None
        tested_member = has_member_test(test)
        if tested_member is not None and self._is_child(tested_member[0], names, self_name):
            return hasattr(None, tested_member[1])  # `hasattr(x, "shape")`: None has no such member
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and not test.keywords and test.args \
                and all(self._is_child(a.value if isinstance(a, ast.Starred) else a, names, self_name)
                        for a in test.args):
            helper = self.index.module_function(test.func.id)  # `is_placeholder(self.real, self.imag)`
            return _true_of_none(helper, self.index, len(test.args)) if helper is not None else None
        return None

    def _checked_attributes(self, test: ast.AST, names: set[str], self_name: str | None,
                            typed: frozenset[str] = frozenset(), not_none: frozenset[str] = frozenset(),
                            ) -> Iterator[tuple[ast.Attribute, bool]]:
        """The `.ndim`/`.shape`/`.dtype`/`.size` reads of a child a test makes, each with whether an earlier
        `child is not None` of the same `and` keeps None leaves from it (only placeholders that are not None
        reach it then), but those an earlier `isinstance(child, ...)` or `hasattr(child, ...)` of the same
        `and` guards: a None or placeholder leaf fails it, and the read is never made (`isinstance(x,
        jax.Array) and x.dtype == ...`); a tracer has them all. `typed`, `not_none`: the children so tested
        before this part of the test."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            for value in test.values:
                yield from self._checked_attributes(value, names, self_name, typed, not_none)
                tested = isinstance_test(value) or has_member_test(value)
                if tested is not None and self._is_child(tested[0], names, self_name):
                    typed = typed | {self.index.code(tested[0])}  # None and placeholders fail it: no read follows
                found = none_test(value)
                if found is not None and not found[1] and self._is_child(found[0], names, self_name):
                    not_none = not_none | {self.index.code(found[0])}
            return
        if isinstance(test, ast.Attribute) and test.attr in CHECKED_ATTRIBUTES and self._is_child(
                test.value, names, self_name) and self.index.code(test.value) not in typed:
            yield test, self.index.code(test.value) in not_none
        for child in child_nodes(test):
            yield from self._checked_attributes(child, names, self_name, typed, not_none)

    def _mentions_as_leaf(self, node: ast.AST, names: set[str], self_name: str | None) -> bool:
        """Whether an expression reads a child other than through a member no array has: a child read as
        `op.hilbert` is an object, so a node (unflatten rebuilds it before the constructor sees it), and
        what its attribute holds is not one of the leaves."""
        pending = [node]
        while pending:
            current = pending.pop()
            if isinstance(current, ast.Attribute) and current.attr not in ARRAY_MEMBERS and self._is_child(
                    current.value, names, self_name):
                continue
            if self._is_child(current, names, self_name):
                return True
            pending.extend(child_nodes(current))
        return False

    def _leaf_check(self, test: ast.AST, names: set[str], self_name: str | None) -> LeafCheck | None:
        """What in a test fails on a leaf that is None, a ShapeDtypeStruct or a tracer, the first in the order
        Python evaluates it. An attribute read or a comparison an `isinstance` before it guards (`isinstance(x,
        Array) and x.dtype == ...`, `not isinstance(x, Array) and x >= 0`: no tracer reaches it) is not: the
        isinstance is what fails then."""
        # each read no isinstance guards -> whether a test against None keeps None leaves from it
        unguarded = {id(attribute): past for attribute, past in self._checked_attributes(test, names, self_name)}
        pending = [test]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Attribute) and id(node) in unguarded:
                return LeafCheck(f"checks `.{node.attr}`", Failure.PLACEHOLDER if unguarded[id(node)]
                                 else Failure.SHAPE, node.attr)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
                continue
            if isinstance(node, ast.Call) and is_name(node.func, "isinstance"):
                tested = isinstance_test(node)
                if tested is not None and self._is_child(tested[0], names, self_name) and _array_types(
                        self.analysis, tested[1]):
                    return LeafCheck("checks `isinstance`", Failure.TYPE)
                continue
            if isinstance(node, ast.Compare) and all(map(_bool_only, (node.left, *node.comparators))) and any(
                    is_name(c.func, "isinstance") for c in nodes_of(node, ast.Call)):
                # Two type tests' bools compared (`isinstance(a, X) != isinstance(b, X)`): no leaf makes them
                # raise; only what they read of the leaves may.
                pending.extend(reversed([part for side in (node.left, *node.comparators) for part in _tested(side)]))
                continue
            if isinstance(node, ast.Compare) and any(isinstance(op, VALUE_COMPARISONS) for op in node.ops):
                operands = [o for o in (node.left, *node.comparators) if self._mentions_as_leaf(o, names, self_name)
                            and not _only_in_len(o) and not _identity_only(o)]
                read = next((c for o in operands for c in nodes_of(o, ast.Call) if c.args and self._is_child(
                    c.args[0], names, self_name) and self.index.qualify(c.func) in SHAPE_FUNCTIONS), None)
                if read is not None:  # `jnp.ndim(x) < 2`: static under jit, wrong for None leaves
                    name = SHAPE_FUNCTIONS[self.index.qualify(read.func) or ""]
                    return LeafCheck(f"checks `{self.index.code(read.func)}`", Failure.SHAPE_OF, name)
                shapes = [a for o in operands for a in nodes_of(o, ast.Attribute)
                          if a.attr in CHECKED_ATTRIBUTES and self._is_child(a.value, names, self_name)]
                shape = next((a for a in shapes if id(a) in unguarded), None)
                if shape is not None and unguarded[id(shape)]:
                    return LeafCheck(f"checks `.{shape.attr}`", Failure.PLACEHOLDER, shape.attr)
                if shape is not None and _same_member_of_two(node, shape.attr) and all(  # `x.shape == y.shape`
                        self._is_child(side.value, names, self_name)  # of two children: alike under vmap
                        for side in (node.left, *node.comparators) if isinstance(side, ast.Attribute)):
                    return LeafCheck(f"checks `.{shape.attr}`", Failure.NONE_ATTRIBUTE, shape.attr)
                if shape is not None:
                    return LeafCheck(f"checks `.{shape.attr}`", Failure.SHAPE, shape.attr,
                                     _trailing_axes_only(shape, operands))
                if shapes:  # only an array's own shape or dtype, read once an isinstance let it through
                    continue
                identity = all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
                if identity and not any(map(is_none, (node.left, *node.comparators))):
                    pending.extend(reversed(child_nodes(node)))  # `x is _default`: no leaf is the sentinel, as
                    continue  # no array given to a build is
                if operands:
                    return LeafCheck("compares values", Failure.NONE if identity else Failure.CONCRETE)
            pending.extend(reversed(child_nodes(node)))
        return None


def _trailing_axes_only(shape: ast.Attribute, operands: list[ast.expr]) -> bool:
    """A child's `.shape` read only for axes counted from the end (`x.shape[-1]`, `x.shape[-2:]`): a leading
    axis more leaves them as they are."""
    subscripts = [node for operand in operands for node in nodes_of(operand, ast.Subscript) if node.value is shape]
    return shape.attr == "shape" and bool(subscripts) and all(_from_the_end(node.slice) for node in subscripts)


def _from_the_end(index: ast.expr) -> bool:
    """An index counted from the end (`-1`), or a slice from such an index to the end (`-2:`)."""
    if isinstance(index, ast.Slice):
        return index.upper is None and index.step is None and index.lower is not None and _from_the_end(index.lower)
    value = index.operand if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) else None
    return isinstance(value, ast.Constant) and type(value.value) is int and value.value > 0


def _true_of_none(function: FunctionInfo, index, given: int, depth: int = 0) -> bool | None:
    """What a module function returns given None for each of its first `given` positional arguments, when its
    first statements say (`if arg is None: return True`; `return all(is_placeholder(a) for a in args)` of its
    `*args`); None when something else decides it."""
    if depth > _MAX_HELPER_DEPTH or function.is_lambda:
        return None
    params = {p.name for p in function.positional_params[:given]}  # `*args` is a tuple: read by _returned_of_none
    for statement in function.node.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring
        if isinstance(statement, ast.If) and len(statement.body) == 1 and isinstance(statement.body[0], ast.Return):
            decided = _none_test(statement.test, params)
            if decided is None:
                return None
            if decided:
                return _returned_of_none(statement.body[0].value, function, params, index, depth)
            continue
        if isinstance(statement, ast.Return):
            return _returned_of_none(statement.value, function, params, index, depth)
        return None
    return None


def _none_test(test: ast.expr, params: set[str]) -> bool | None:
    """`p is None` / `p is not None` of a parameter that is None: its truth; else None."""
    found = none_test(test)
    return found[1] if found is not None and isinstance(found[0], ast.Name) and found[0].id in params else None


def _returned_of_none(value: ast.expr | None, function: FunctionInfo, params: set[str], index,
                      depth: int) -> bool | None:
    """A returned bool given parameters that are all None: a constant, a None test of one, `or`/`and` of
    these (decided by the first that decides it: `x is None or isinstance(x, P)`), or `all(...)`/`any(...)`
    of a module function over the `*args` (each of them None)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, bool):
        return value.value
    if value is not None and (decided := _none_test(value, params)) is not None:
        return decided
    if isinstance(value, ast.BoolOp):
        deciding = isinstance(value.op, ast.Or)  # a True decides an `or`, a False an `and`
        for operand in value.values:  # in order: an operand not known may raise before a later one decides
            known = _returned_of_none(operand, function, params, index, depth)
            if known is None or known is deciding:
                return known
        return not deciding
    star = function.star_param
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("all", "any")
            and len(value.args) == 1 and isinstance(value.args[0], ast.GeneratorExp) and star is not None):
        generator = value.args[0]
        loop = generator.generators[0] if len(generator.generators) == 1 else None
        element = generator.elt
        if (loop is not None and not loop.ifs and is_name(loop.iter, star.arg) and isinstance(loop.target, ast.Name)
                and isinstance(element, ast.Call) and isinstance(element.func, ast.Name)
                and [a.id for a in element.args if isinstance(a, ast.Name)] == [loop.target.id]):
            inner = index.module_function(element.func.id)
            return _true_of_none(inner, index, 1, depth + 1) if inner is not None else None
    return None


def _only_in_len(operand: ast.expr) -> bool:
    return isinstance(operand, ast.Call) and isinstance(operand.func, ast.Name) and operand.func.id == "len"


def _same_member_of_two(compare: ast.Compare, member: str) -> bool:
    """`a.shape == b.shape` (or `!=`): the same member of two values compared, which a vmap changes alike."""
    sides = (compare.left, *compare.comparators)
    return (len(compare.ops) == 1 and isinstance(compare.ops[0], (ast.Eq, ast.NotEq))
            and all(isinstance(side, ast.Attribute) and side.attr == member for side in sides))


def _bool_only(operand: ast.expr) -> bool:
    """A Python bool made of identity and `isinstance` tests alone, whatever the leaves are."""
    if isinstance(operand, ast.Call) and is_name(operand.func, "isinstance"):
        return True
    if isinstance(operand, ast.UnaryOp) and isinstance(operand.op, ast.Not):
        return _bool_only(operand.operand)
    if isinstance(operand, ast.BoolOp):
        return all(map(_bool_only, operand.values))
    return _identity_only(operand)


def _tested(test: ast.expr) -> list[ast.expr]:
    """What a bool-only test reads (see _bool_only): the object of each `isinstance`, each identity test."""
    if isinstance(test, ast.Call):
        return test.args[:1]
    if isinstance(test, ast.UnaryOp):
        return _tested(test.operand)
    if isinstance(test, ast.BoolOp):
        return [part for value in test.values for part in _tested(value)]
    return [test]


def _identity_only(operand: ast.expr) -> bool:
    """A Python bool made of identity tests alone (`value is _default`, `not (x is None)`, `a is b or c is
    d`): comparing it compares bools, whatever the leaves are (clu's `LastValue`: `(value is _default) ==
    (total is _default)`)."""
    if isinstance(operand, ast.Compare):
        return all(isinstance(op, (ast.Is, ast.IsNot)) for op in operand.ops)
    if isinstance(operand, ast.UnaryOp) and isinstance(operand.op, ast.Not):
        return _identity_only(operand.operand)
    if isinstance(operand, ast.BoolOp):
        return all(_identity_only(value) for value in operand.values)
    return False


def _array_types(analysis, types: ast.expr) -> bool:
    """An isinstance type (or tuple of types) that a None, ShapeDtypeStruct or placeholder leaf fails.
    A registered class is no such type: a child that passes the check is a node, rebuilt before it."""
    index = analysis.index
    for candidate in isinstance_types(types):
        if analysis.subtree_types.is_node(candidate):
            continue
        name = index.qualify(candidate) or (candidate.id if isinstance(candidate, ast.Name) else "")
        if name in SCALAR_ANNOTATIONS or name.endswith(ARRAY_TYPE_SUFFIXES):
            return True
    return False
