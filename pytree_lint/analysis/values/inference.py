"""What an expression can evaluate to, as far as the module's own text proves it.

`ValueInference.infer(expr, context)` follows local variables, parameters (annotations and defaults),
`self.x` / `obj.x` to every assignment of that attribute in the class, class-level fields and
module-level names, and returns the `Evidence` it found: an array, a mutable container, a volatile value
(new on every call), an instance of a class of this module, or a value known to be safe. An expression
it cannot follow yields no evidence, and rules stay silent on it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import TYPE_CHECKING

from ...knowledge import jax as jax_knowledge
from ...knowledge import numpy as np_knowledge
from ...knowledge import python as py
from ...knowledge import scipy as scipy_knowledge
from ...knowledge.genjax import PYTREE_MAKING_DECORATORS
from ...knowledge.jax_dataclasses import LIBRARY as JAX_DATACLASSES
from ..pytrees.fields import Frameworks, declared_fields, is_dataclass, memoizes, parse_string_annotation
from ..record import NamedTuple, field, record
from ..syntax.model import (
    PROPERTY_DECORATORS,
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Param,
    Scope,
    argument_given,
    as_display,
    attribute_key,
    child_nodes,
    constructor_parameter,
    converts,
    display_element,
    element_key,
    fillings_in,
    is_inlined,
    is_name,
    is_none,
    isinstance_test,
    isinstance_types,
    keyword_arguments,
    live_bindings,
    nodes_of,
    returned_expression,
    test_atoms,
    walk_statements,
    written_as,
)
from ..syntax.names import MEANT
from ..syntax.shims import taken_branch
from .kinds import Kind, Leaf, Relation, Volatility

if TYPE_CHECKING:
    from ..project.summary import Argument, Construction, Keeps, ModuleSummary, Value

ARRAY_TYPES = jax_knowledge.ARRAY_TYPES | np_knowledge.ARRAY_TYPES
_MAX_DEPTH = 12  # expressions followed within one summary (names, arguments, operands)
# Calls evaluated with their arguments within one another (`f(g(x))` of helpers that return expressions of
# their parameters): past this, a call's summary alone (each level multiplies the work by the calls it makes).
_MAX_INLINED = 2
_MAX_READ_DEPTH = 4  # `getattr(getattr(obj, a), b)` reads followed to the attribute they start from
_MAX_NESTED_SUMMARIES = 24  # summaries (a helper's returns, a class's attribute) computed inside one another
# Expressions that compute a new value from their operands: an array when an operand is one (_arithmetic).
ARITHMETIC = (ast.BinOp, ast.Compare, ast.UnaryOp)
# Operands that make arithmetic a sequence operation (concatenation, repetition), never an array's.
SEQUENCE_DISPLAYS = (ast.List, ast.Tuple, ast.ListComp, ast.Set, ast.SetComp, ast.Dict, ast.DictComp)
MAX_TRAIL = 32  # steps an evidence's trail keeps (the first half, and the ones between that matter)


class Elsewhere(NamedTuple):
    """An expression in another module of the project, as messages cite it: `text` (path:line)."""

    text: str
    path: str
    line: int


@record
class Holder:
    """Who holds a value on its way: an attribute of a class's instances (`cls`), a local or parameter of
    a function (`function`), or a module-level name (neither)."""

    name: str
    cls: ClassInfo | None = None
    function: FunctionInfo | None = None


class Hop(NamedTuple):
    """One step of the path a value takes to the place it is reported: `via` `relation` `node`."""

    via: str
    relation: Relation
    node: ast.AST | Elsewhere
    holder: Holder | None = None
    # Made where the program sets its objects up, not per instance: a constructor argument given at module
    # level or by a classmethod or staticmethod (a factory such as `create()`), an attribute assigned by
    # a method other than the constructor (`on_run_start`, a lazily built `jax.jit`), and kept after, or the
    # default of a parameter of a def made once (`def dimap(self, pre=lambda v: v)`).
    kept: bool = False
    by: str | None = None  # GIVEN: the method whose constructor call gives the value (None: module level)
    # GIVEN to the one object built at this construction (`Held(x).value`): held by it alone, not by every
    # object of its class; held beyond the expression only if that object is (a hop after this one says so).
    own: bool = False
    # GIVEN by another module's call, whose function changes the value in place after (its summary's
    # Argument.changed): where.
    changed: Elsewhere | None = None

    @property
    def phrase(self) -> str:
        """The hop's verb as messages write it: "is given by `create()`"."""
        return f"{self.relation.value} by `{self.by}()`" if self.by else self.relation.value


class Evidence(NamedTuple):
    kind: Kind
    node: ast.AST
    what: str
    trail: tuple[Hop, ...] = ()
    shared: bool = False  # one module-level object: the same object on every flatten
    cls: ClassInfo | None = None  # INSTANCE: the class
    constructed: bool = False  # INSTANCE: built by a constructor call, not only annotated
    leaf: Leaf | None = None  # a Python value jit cannot trace as a leaf
    refers: str | None = None  # REFERENCE: the project name it stands for (see summary.Value)
    contained: bool = False  # from another module's summary: an element of the value cited, not all of it
    volatility: Volatility | None = None  # VOLATILE: why it differs each time (where that decides a message)
    annotated: bool = False  # what a type annotation alone says (a `Callable` may be a callable pytree)
    elided: int = 0  # steps of a long trail left out between its first ones and its origin (see `through`)
    # The element of a tuple, list or dict display the evidence is about, outermost first (`(a, (b, c))`: c's
    # is (1, 1); `{"mask": m}`: m's is ("mask",)), or the attribute of an object a builder returns (its
    # `attribute_key`, `.widths`), or ANY_ELEMENT for what was put into a container at a place not known
    # (`xs.append(m)`); empty: the value itself. Unpacking (`a, b = f()`), indexing (`f()[0]`,
    # `f()["mask"]`) and attribute reads of a built object (`f().widths`) select by it.
    elements: tuple[int | str, ...] = ()

    @property
    def proves_leaf(self) -> bool:
        """A leaf jit rejects, for certain: a `Callable` annotation alone is not (a `jax.tree_util.Partial`
        or a flax/equinox module is a callable pytree), an assigned function or lambda is."""
        return self.leaf is not None and not (self.leaf is Leaf.CALLABLE and self.annotated)

    def through(self, via: str, relation: Relation, node: ast.AST, holder: Holder | None = None,
                kept: bool = False, by: str | None = None, own: bool = False) -> Evidence:
        trail = (Hop(via, relation, node, holder, kept, by, own), *self.trail)
        if len(trail) <= MAX_TRAIL:
            return self._replace(trail=trail)
        # A long chain (helpers returning helpers' results): a message says its first steps and its origin;
        # of the steps between, those that hold the value or keep it stay (what the mutation and made-once
        # checks read), the others are counted. Bounded, each step costs the same however long the chain.
        head, middle, origin = trail[:MAX_TRAIL // 2], trail[MAX_TRAIL // 2:-1], trail[-1:]
        meaningful = [hop for hop in middle if hop.holder is not None or hop.kept][-(MAX_TRAIL // 2 - 1):]
        return self._replace(trail=(*head, *meaningful, *origin),
                       elided=self.elided + len(middle) - len(meaningful))

    @property
    def made_once(self) -> bool:
        """The value is made where the program sets its objects up, and kept (see Hop.kept)."""
        return any(hop.kept for hop in self.trail)

    @property
    def holders(self) -> list[Holder]:
        """Every name and attribute that holds the value on its way (what a mutation would go through)."""
        return [hop.holder for hop in self.trail if hop.holder is not None]

    @property
    def held_outside(self) -> bool:
        """The value is held beyond the expression that made it: by an attribute (`self.x`) or a
        module-level name; not a container a flatten function builds afresh on every call."""
        return self.shared or any("." in hop.via and not hop.own for hop in self.trail)


def _caches_in_a_module_dict(function: FunctionInfo, index: ModuleIndex) -> bool:
    """The function returns what a module-level dict holds under a key it has (`if key in _FACTORS: return
    _FACTORS[key]`, a statement of its body's top level) and stores what it makes there (`_FACTORS[key] = op`)."""
    if function.is_lambda:
        return False
    caches = {statement.test.comparators[0].id for statement in function.node.body
              if isinstance(statement, ast.If) and isinstance(statement.test, ast.Compare)
              and len(statement.test.ops) == 1 and isinstance(statement.test.ops[0], ast.In)
              and isinstance(statement.test.comparators[0], ast.Name) and len(statement.body) == 1
              and isinstance(statement.body[0], ast.Return) and isinstance(statement.body[0].value, ast.Subscript)
              and is_name(statement.body[0].value.value, statement.test.comparators[0].id)}
    caches = {name for name in caches if name not in function.all_params and name not in function.local_bindings
              and index.aliases.is_module_local(name)}
    return bool(caches) and any(isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript)
                                and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id in caches
                                for node in function.nodes(ast.Assign))


def _one_object(given: Evidence) -> Evidence:
    """A value given to a constructor, as each object holds it: its own (not `shared`), but for an object
    compared by identity that a module-level name (or a default) holds: the same function on every object
    (`_scale_init = lambda ...`, then `ArrayInfo(shape, _scale_init)` in a function) is no new one."""
    return given if given.shared and given.kind is Kind.VOLATILE else given._replace(shared=False)


class Filled(NamedTuple):
    """A value a function puts into the container an object's attribute holds (`obj.<attr>[key] = value`,
    `obj.<attr>.append(value)`, `obj.<attr>[k].update(value)`), or a local name (`vecs.append(q)`)."""

    owner: ast.Name  # the object's name (`self`, or one declared as an object of the class), or the local
    attr: str | None  # None: the local's own container
    value: ast.expr
    function: FunctionInfo
    statement: ast.stmt
    # Where in the container it goes: the keys from the container down (see Evidence.elements; ANY_ELEMENT
    # for a place not known, `append`'s); for `update`, down to where each element of `value` goes under its
    # own key.
    elements: tuple[int | str, ...]


# An element key (see Evidence.elements) for an element of a container whose place is not known (what
# `append` puts in): it is what any element may be.
ANY_ELEMENT = "[]"
# Of what is put into a container, what says something of the value holding it: an array, a value made anew,
# an object. Not that it is a container (the container's own assignment says so) or a hashable constant.
FILLED_KINDS = frozenset({Kind.ARRAY, Kind.VOLATILE, Kind.INSTANCE})


class Context(NamedTuple):
    """Where an expression is evaluated: its function and the names known to be class instances."""

    function: FunctionInfo | None = None
    instances: tuple[tuple[str, ClassInfo], ...] = ()
    statement: ast.AST | None = None  # the statement being evaluated: only earlier assignments reach it

    @staticmethod
    def of(function: FunctionInfo | None, statement: ast.AST | None = None) -> Context:
        """How a function reads its names: its own scope, `self` an instance of its class (None: the
        module's); a nested function reads the instance of the method around it, unless it binds that name."""
        if function is None:
            return MODULE_CONTEXT
        instances = ((function.self_name, function.cls),) if function.self_name and function.cls else ()
        inner, outer, bound = function, function.parent, set()
        while not instances and isinstance(outer, FunctionInfo):
            bound.update(inner.all_params, () if inner.is_lambda else inner.local_bindings)
            if outer.self_name and outer.cls:
                if outer.self_name not in bound:
                    instances = ((outer.self_name, outer.cls),)
                break
            inner, outer = outer, outer.parent
        return Context(function, instances, statement)

    def instance_class(self, name: str) -> ClassInfo | None:
        for known, cls in self.instances:
            if known == name:
                return cls
        return None


MODULE_CONTEXT = Context()


def _changes_of_objects(function: FunctionInfo, only_reads: Callable[[ast.Call], bool]
                        ) -> tuple[set[tuple[str, str]], set[str]]:
    """What a function may change of the objects its names hold: the `name.attr` it assigns or deletes, and
    the names it hands to a call (which may assign their attributes), unless `only_reads` says the call's
    callee changes nothing."""
    assigned: set[tuple[str, str]] = set()
    handed: set[str] = set()
    for node in nodes_of(function.node.body, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Attribute):
            if isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Name):
                assigned.add((node.value.id, node.attr))
        elif not only_reads(node):
            handed.update(argument.id for argument in [*node.args, *(keyword.value for keyword in node.keywords)]
                          if isinstance(argument, ast.Name))
    return assigned, handed


def _union(groups) -> list[Evidence]:
    found: list[Evidence] = []
    for group in groups:
        found.extend(group)
    return found


def _builder_name(builder: FunctionInfo | None, method: FunctionInfo | None) -> str | None:
    """The def a message says gives a value to a construction (None: module level): the def a factory
    returns, when it is no lambda, else the method."""
    if builder is not None and not builder.is_lambda:
        return builder.name
    return method.name if method is not None else None


def _keeps_an_array(index: ast.expr) -> bool:
    """An index that takes an array from an array whatever the rest of it is: a slice, `...` (`a[..., mask]`
    is an array, a 0-d one at least) or a new axis (`None`), alone or among the entries of a tuple."""
    entries = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(entry, ast.Slice) or (isinstance(entry, ast.Constant) and (entry.value is Ellipsis
                                                                                    or entry.value is None))
               for entry in entries)


@record
class ValueInference:
    index: ModuleIndex
    frameworks: Frameworks
    _summaries: dict[tuple[int, str], list[Evidence]] = field(default_factory=dict)
    _active: set[int] = field(default_factory=set)
    _nested: int = 0
    _inlined: int = 0  # calls evaluated with their arguments inside one another (see _returned_here)
    _callees: dict[int, list[FunctionInfo]] = field(default_factory=dict)
    # (helper, parameter) -> what the module's calls of it pass (see _passed_by_callers), each asked once
    _passed: dict[tuple[int, str, bool], list[Evidence] | None] = field(default_factory=dict)
    _once_per_parent_call: dict[int, bool] = field(default_factory=dict)  # per nested def: see _name
    # per function (by its node's id): the classes' constructions its returns are (see constructions_returned)
    _returned_constructions: dict[int, list[tuple[ast.Call, FunctionInfo | None]] | None] = field(
        default_factory=dict)
    # per function (by its node's id): the attributes of its names it assigns, the names it hands to calls
    _object_changes: dict[int, tuple[set[tuple[str, str]], set[str]]] = field(default_factory=dict)
    _keeps: dict[int, bool] = field(default_factory=dict)  # per class (by id): keeps_what_it_is_given
    _fills_of: dict[int, list[Filled]] = field(default_factory=dict)  # per function (by its node's id): _fills
    # per function (by its node's id): the tests under which its returns make a Python scalar of something
    _scalar_tests: dict[int, dict[str, str]] = field(default_factory=dict)
    # Set while the module is summarised (there is no project to look into then): the absolute name a
    # qualified name has when it is one of the project's, else None. Such names become references.
    project_name: Callable[[str], str | None] | None = None
    # Set with it: the module's own absolute name (a parameter of its functions is a reference then too).
    module_name: str | None = None
    # Whether the object a call in a function builds is made anew by each call of the function and passed on
    # (ModuleAnalysis.made_per_call, which knows the module's jitted functions): what it is given is new then.
    made_per_call: Callable[[ast.Call, FunctionInfo], bool] = lambda _call, _maker: False

    # public --------------------------------------------------------------------------------------
    def passed(self, argument: ast.expr, call: ast.Call) -> list[Evidence]:
        """What an argument of a call is, evaluated where the call is written (the calling function's
        locals and parameters, as the assignments that can reach the call leave them: not a later branch's)."""
        function = self.index.innermost_scope(call)
        statement = function.statement_holding(call) if function is not None else None
        return self.infer(argument, Context.of(function, statement))

    def infer(self, expr: ast.expr, context: Context = MODULE_CONTEXT) -> list[Evidence]:
        key = id(expr)
        if key in self._active or len(self._active) > _MAX_DEPTH:
            return []
        self._active.add(key)
        try:
            return self._infer(expr, context)
        finally:
            self._active.discard(key)

    def attribute(self, cls: ClassInfo, attr: str, via: str) -> list[Evidence]:
        """Everything `cls` instances' attribute `attr` can hold, reported as reached through `via`."""
        found = self._summary((id(cls), attr), lambda: self._attribute_sources(cls, attr))
        return [_rename(e, via) for e in found]

    def _summary(self, key: tuple[int, str], compute: Callable[[], list[Evidence]]) -> list[Evidence]:
        """What a function returns or an attribute holds, computed once and joined (one evidence per origin,
        see _joined): so a chain of helpers each returning one of several calls of the one before costs one
        summary per helper, not one walk per path. A summary asked for while it is computed (recursion)
        gives nothing; past _MAX_NESTED_SUMMARIES nested summaries, nothing either, and that is not kept."""
        found = self._summaries.get(key)
        if found is not None:
            return found
        if self._nested >= _MAX_NESTED_SUMMARIES:
            return []
        self._summaries[key] = []
        # A fresh depth budget: what is kept must not depend on how deep the first asker was.
        outer, self._active = self._active, set()
        self._nested += 1
        try:
            found = self._summaries[key] = _joined(compute())
        finally:
            self._active = outer
            self._nested -= 1
        return found

    def annotation(self, annotation: ast.expr) -> list[Evidence]:
        """What an annotation says a value is (an array, a mutable container, an instance, ...)."""
        parsed = parse_string_annotation(annotation)
        if parsed is not None:
            # The parsed nodes are not in the module: report the string itself.
            return [e._replace(node=annotation) for e in self.annotation(parsed)]
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            return []
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            return self._union_annotation([annotation.left, annotation.right])
        if isinstance(annotation, ast.Subscript):
            return self._subscript_annotation(annotation)
        cls = self.index.class_named(annotation)
        if cls is not None:
            return [Evidence(Kind.INSTANCE, annotation, f"a `{cls.name}`", cls=cls)]
        name = self._type_name(annotation)
        if name is None:
            return []
        if name in ARRAY_TYPES or name.rsplit(".", 1)[-1] in np_knowledge.ARRAY_TYPE_NAMES:
            return [Evidence(Kind.ARRAY, annotation, "an array type")]
        if name in py.MUTABLE_TYPES:
            return [Evidence(Kind.MUTABLE, annotation, f"a `{name.rsplit('.', 1)[-1]}`")]
        if name in py.SAFE_TYPES or name in py.TUPLE_TYPES:
            leaf = {"str": Leaf.STR, "type": Leaf.CLASS}.get(name)
            return [Evidence(Kind.SAFE, annotation, "a hashable type", leaf=leaf)]
        if name in py.CALLABLE_TYPES:
            return [Evidence(Kind.SAFE, annotation, "a callable type", leaf=Leaf.CALLABLE, annotated=True)]
        return []

    # annotations ---------------------------------------------------------------------------------
    def _type_name(self, node: ast.expr) -> str | None:
        """`jax.Array`, `list`, `typing.Optional`, ... for a type expression, builtins included."""
        if is_none(node):
            return "None"
        qualified = self.index.qualify(node)
        if qualified is not None:
            return qualified
        if isinstance(node, ast.Name):
            if node.id == "None" or not self.index.aliases.is_module_local(node.id):
                return node.id
        return None

    def _union_annotation(self, alternatives: list[ast.expr]) -> list[Evidence]:
        """`A | B | None`: an array (a container, a leaf jit rejects, ...) only when every alternative but
        None is one (`int | Array` is no array, `str | Array` neither)."""
        evidence = [self.annotation(a) for a in alternatives if not is_none(a)]
        found: list[Evidence] = []
        for concern in (lambda e: e.kind is Kind.ARRAY, lambda e: e.kind is Kind.MUTABLE,
                        lambda e: e.kind is Kind.INSTANCE, lambda e: e.leaf is not None):
            if evidence and all(any(concern(e) for e in alternative) for alternative in evidence):
                found.extend(e for alternative in evidence for e in alternative if concern(e))
        return found

    def _subscript_annotation(self, annotation: ast.Subscript) -> list[Evidence]:
        base = self._type_name(annotation.value) or ""
        short = base.rsplit(".", 1)[-1]
        inner = annotation.slice
        args = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        if not args or isinstance(inner, ast.Slice):
            return []
        if base in py.WRAPPER_TYPES or base in JAX_DATACLASSES.static_annotations or short in py.WRAPPER_SHORT_NAMES:
            return self.annotation(args[0])
        if base in py.UNION_TYPES or short == "Union":
            return self._union_annotation(args)
        if base in py.MUTABLE_TYPES or short in py.MUTABLE_TYPE_SHORT_NAMES:
            return [Evidence(Kind.MUTABLE, annotation, f"a `{short}`")]
        if base in py.CALLABLE_TYPES:
            return [Evidence(Kind.SAFE, annotation, "a callable type", leaf=Leaf.CALLABLE, annotated=True)]
        if base in py.CLASS_TYPES:
            return [Evidence(Kind.SAFE, annotation, "a class", leaf=Leaf.CLASS)]
        if base in py.TUPLE_TYPES:
            arrays = [e for a in args for e in self.annotation(a) if e.kind is Kind.ARRAY]
            return [e._replace(node=annotation, what="a tuple of arrays") for e in arrays[:1]] or [
                Evidence(Kind.SAFE, annotation, "a tuple")]
        if base.startswith(jax_knowledge.JAXTYPING) and short in jax_knowledge.JAXTYPING_DTYPES:
            if any(e.kind is Kind.ARRAY for e in self.annotation(args[0])):
                return [Evidence(Kind.ARRAY, annotation, "an array type")]
            return []
        if base in ARRAY_TYPES:
            return [Evidence(Kind.ARRAY, annotation, "an array type")]
        return []

    # expressions ---------------------------------------------------------------------------------
    def _infer(self, expr: ast.expr, context: Context) -> list[Evidence]:
        if isinstance(expr, ast.Name):
            return self._name(expr, context)
        if isinstance(expr, ast.Attribute):
            return self._attribute(expr, context)
        if isinstance(expr, ast.Call):
            return self._call(expr, context)
        if isinstance(expr, ast.JoinedStr):
            volatile = [e for part in expr.values if isinstance(part, ast.FormattedValue)
                        for e in self.infer(part.value, context) if e.kind is Kind.VOLATILE]
            return volatile or [Evidence(Kind.SAFE, expr, "a string", leaf=Leaf.STR)]
        if isinstance(expr, ast.Constant):
            if isinstance(expr.value, (str, bytes)):
                return [Evidence(Kind.SAFE, expr, "a string", leaf=Leaf.STR)]
            if isinstance(expr.value, (int, float, complex)) and not isinstance(expr.value, bool):
                return [Evidence(Kind.SAFE, expr, "a literal")]
            return []  # None, True, False, bytes, ...: placeholders say nothing against an annotation
        if isinstance(expr, ast.Tuple):
            return self._positioned(expr.elts, context)
        if isinstance(expr, ast.List):
            return [Evidence(Kind.MUTABLE, expr, "a list display"), *self._positioned(expr.elts, context)]
        if isinstance(expr, ast.Set):
            return [Evidence(Kind.MUTABLE, expr, "a set display"), *self._elements(expr.elts, context)]
        if isinstance(expr, ast.Dict):
            return [Evidence(Kind.MUTABLE, expr, "a dict display"), *self._keyed(expr, context)]
        if isinstance(expr, (ast.ListComp, ast.SetComp)):
            kind = "list" if isinstance(expr, ast.ListComp) else "set"
            return [Evidence(Kind.MUTABLE, expr, f"a {kind} comprehension"),
                    *self._problems(self.infer(expr.elt, context))]
        if isinstance(expr, ast.DictComp):
            return [Evidence(Kind.MUTABLE, expr, "a dict comprehension"),
                    *self._problems(self.infer(expr.value, context))]
        if isinstance(expr, ast.Lambda):
            return [Evidence(Kind.VOLATILE, expr, "a lambda", leaf=Leaf.CALLABLE)]
        if isinstance(expr, ARITHMETIC):
            return self._arithmetic(expr, context)
        if isinstance(expr, ast.BoolOp):
            return _union(self.infer(value, context) for value in expr.values)
        if isinstance(expr, ast.IfExp):
            taken = taken_branch(self.index, expr)
            if taken is not None:
                return self.infer(taken, context)
            # `float(x) if isinstance(x, SCALARS) else jnp.asarray(x)`: an array only of an array
            made = _scalar_made(expr.body, context.function, self.index)
            orelse = _cast_kept(expr.orelse, test_atoms(expr.test, False), self.index,
                                _scalar_tests(expr.test, made) if made is not None else {})
            return self.infer(expr.body, context) + self.infer(orelse, context)
        if isinstance(expr, ast.NamedExpr):
            return self.infer(expr.value, context)
        if isinstance(expr, ast.Subscript):
            return self._subscript(expr, context)
        return []

    @staticmethod
    def _problems(evidence: list[Evidence]) -> list[Evidence]:
        return [e for e in evidence if e.kind is not Kind.SAFE]

    def _elements(self, elements: list[ast.expr], context: Context) -> list[Evidence]:
        return _union(self.infer(e, context) for e in elements if not isinstance(e, ast.Starred))

    def _keyed(self, display: ast.Dict, context: Context) -> list[Evidence]:
        """The evidence of a dict display's values, each with its key where `d["key"]` can take it back (a
        constant int or identifier-like string, not replaced by a later `**` entry)."""
        found = []
        for key, value in zip(display.keys, display.values):
            if key is None:
                continue
            element = element_key(key)
            certain = element is not None and display_element(display, element) is value
            found.extend(e._replace(elements=(element, *e.elements)) if certain else e
                         for e in self.infer(value, context))
        return found

    def _positioned(self, elements: list[ast.expr], context: Context) -> list[Evidence]:
        """The evidence of a tuple or list display's elements, each with its position (up to a starred one:
        after it, positions are not known)."""
        starred = next((i for i, e in enumerate(elements) if isinstance(e, ast.Starred)), len(elements))
        return [*(e._replace(elements=(i, *e.elements)) for i, element in enumerate(elements[:starred])
                  for e in self.infer(element, context)), *self._elements(elements[starred:], context)]

    def _arithmetic(self, expr, context: Context) -> list[Evidence]:
        if isinstance(expr, ast.UnaryOp):
            if isinstance(expr.op, ast.Not):
                return [Evidence(Kind.SAFE, expr, "a bool")]
            operands = [expr.operand]
        elif isinstance(expr, ast.BinOp):
            operands = [expr.left, expr.right]
        else:
            if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in expr.ops):
                return [Evidence(Kind.SAFE, expr, "a bool")]
            operands = [expr.left, *expr.comparators]
        for operand in operands:
            if isinstance(operand, SEQUENCE_DISPLAYS):
                return []  # `[x] + rest`, `(x,) * n`: a sequence, whatever it holds
            evidence = self.infer(operand, context)
            if any(e.kind is Kind.MUTABLE for e in evidence):
                return []  # a list or another container: the result is one too
            array = next((e for e in evidence if e.kind is Kind.ARRAY), None)
            if array is not None:  # an array computed from it: `x > 0`, `t / (1 + jnp.abs(a))`
                return [array]
        return []

    def _stays_a_function(self, definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A def whose decorators keep it a callable: none, or a library's (`jax.jit`, `jax.named_call`,
        `eqx.filter_jit`, `functools.wraps`, builtins), but not the module's or the project's own, whose
        result is not known, nor one that makes a pytree of it (genjax's `@Pytree.partial()`)."""
        for decorator in definition.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = self.index.qualify(target)
            if name is None and isinstance(target, ast.Name) and not self.index.aliases.is_module_local(target.id):
                continue  # a builtin: `staticmethod`, `property`
            if name is None or name in PYTREE_MAKING_DECORATORS or self.index.definition(target) is not None:
                return False
        return True

    def _subscript(self, expr: ast.Subscript, context: Context) -> list[Evidence]:
        index = expr.slice
        key = element_key(index)
        if key is not None:
            # An element of a tuple, list or dict a display makes, here or in a helper (`f()[0]`, what `a, b =
            # f()` binds each name to: see syntax.model.assignment_pairs, `f()["mask"]`); of what another
            # module's function returns, as a summary records it: a reference to that element (`pkg.m.f()[0]`).
            return _element(self.infer(expr.value, context), key)
        if not _keeps_an_array(index):
            return []
        return [e for e in self.infer(expr.value, context) if e.kind is Kind.ARRAY][:1]

    def _name(self, expr: ast.Name, context: Context) -> list[Evidence]:
        name = expr.id
        function = context.function
        if function is not None:
            found: list[Evidence] = []
            bound = function.bindings_before(name, context.statement)
            param = function.all_params.get(name)
            for binding in bound:
                value = binding.value
                if isinstance(value, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if self._stays_a_function(value):
                        found.append(Evidence(Kind.VOLATILE, value, f"a function defined inside `{function.name}`",
                                              leaf=Leaf.CALLABLE))
                elif value is not None:
                    found.extend(e.through(name, Relation.ASSIGNED, value, Holder(name, function=function))
                                 for e in self.infer(value, context._replace(statement=binding.statement)))
            if param is not None and not function.rebinds_before(name, context.statement):
                narrowed = self._no_array_at(function, context.statement, name)
                found.extend(e for e in self._parameter(param, context) if not (narrowed and e.kind is Kind.ARRAY))
            if len(bound) == 1 and param is None and len(function.assignments_of(name)) == 1:
                found.extend(self._filled_local(name, function))  # `vecs = []`, then `vecs.append(q)`
            if bound or param is not None:
                return found
            if isinstance(function.parent, FunctionInfo):  # a closure's free name: its enclosing function's
                found = self._name(expr, Context.of(function.parent))
                once = self._once_per_parent_call.get(id(function.node))
                if once is None:
                    once = self._once_per_parent_call[id(function.node)] = _runs_once_per_call_of_parent(function)
                if once:
                    return found
                # Called again and again (returned, stored, handed on, called in a loop): the same value on each
                # of its calls.
                return [e.through(name, Relation.ENCLOSED, function.parent.node, kept=True) for e in found]
        if not self.index.aliases.is_module_local(name):
            return self._imported(expr, name)
        if name in self.index.functions:
            if not self._stays_a_function(self.index.functions[name].node):
                return []
            return [Evidence(Kind.SAFE, expr, f"the function `{name}`", leaf=Leaf.CALLABLE)]
        if name in self.index.classes:
            return [Evidence(Kind.SAFE, expr, f"the class `{name}`", leaf=Leaf.CLASS)]
        found = []
        for value in self.index.bindings.get(name, ()):
            if value is not None:
                found.extend(e._replace(shared=True).through(name, Relation.ASSIGNED, value, Holder(name))
                             for e in self.infer(value, MODULE_CONTEXT))
        return found

    def _parameter(self, param: Param, context: Context) -> list[Evidence]:
        name = param.name
        function = context.function
        holder = Holder(name, function=function)
        found: list[Evidence] = []
        if param.annotation is not None:
            found.extend(e.through(name, Relation.ANNOTATED, param.annotation, holder)
                         for e in self.annotation(param.annotation))
        if param.default is not None:  # made when the def runs: once, for a def that is not made per call
            once = function is not None and function.defined_once
            found.extend(e._replace(shared=True).through(name, Relation.DEFAULTS_TO, param.default, holder, once)
                         for e in self.infer(param.default, context))
        if function is not None and function.cls is not None and function.name == "__init__":
            position = next((i for i, p in enumerate(function.params) if p.node is param.node), None)
            if position != 0:  # position 0 is `self`
                found.extend(self.constructor_arguments(function.cls, name,
                                                        None if position is None else position - 1))
        return found

    def constructor_arguments(self, cls: ClassInfo, name: str, position: int | None, via: str | None = None,
                              everywhere: bool = False) -> list[Evidence]:
        """What the constructor calls in the class's body or at module level (see
        ModuleIndex.constructor_calls) pass as the argument `name` (or positional argument `position`);
        `via` names the value in the trail (default: `name`). `everywhere`: the calls in every function too,
        their arguments judged by module-level names only."""
        calls = self.index.constructor_calls(cls) if not everywhere else [
            (call, None) for call, _in_function in self.index.calls_mentioning((cls.name,))
            if self.index.resolve_class(call.func) is cls]
        found = []
        for call, method in calls:
            argument = argument_given(call, name, position)
            if argument is None:
                continue
            if method is None:
                context = MODULE_CONTEXT
            else:
                context = Context(method, ((method.self_name, cls),) if method.self_name else ())
            builder = self.index.returned_builder(call)
            factory = method is None or ((method.is_classmethod or method.is_staticmethod) and builder is None)
            # A value passed at module level is still one per instance: not `shared`; but for an object
            # compared by identity (a function, a token) that a module-level name holds (see _one_object).
            found.extend(_one_object(e).through(via or name, Relation.GIVEN, argument, None, factory,
                                                _builder_name(builder, method))
                         for e in self.infer(argument, context))
        found.extend(self._constructed_elsewhere(cls, name, position, via or name))
        if not everywhere:  # and the module's functions, each read in its own scope, as other modules' are
            found.extend(self._constructed_in_functions(cls, name, position, via or name))
        return found

    def _constructed_in_functions(self, cls: ClassInfo, name: str, position: int | None, via: str) -> list[Evidence]:
        """What the module's functions pass as the argument `name` (or `position`) when they build a `cls`:
        made once (kept), as another module's builder's values are, unless the function makes the object per
        call and passes it on (see made_per_call: a builder that only returns it runs as often as its callers,
        which is their business); the objects of other classes it passes are judged per site
        (ClassSemantics.array_fields)."""
        found = []
        for call, function in self.index.constructions_in_functions(cls):
            argument = argument_given(call, name, position)
            if argument is not None:
                given = self.infer(argument, Context.of(function))
                if not given and isinstance(argument, ast.Name):  # a helper's parameter: what its callers pass
                    given = self.passed_to(function, argument.id)
                given = [e for e in given if e.kind is not Kind.INSTANCE]
                kept = bool(given) and not self.made_per_call(call, function)  # asked only of a known value
                found.extend(_one_object(e).through(via, Relation.GIVEN, argument, kept=kept, by=function.name)
                             for e in given)
        return found

    def given_at(self, call: ast.Call, cls: ClassInfo, attr: str, written_in: FunctionInfo | None = None,
                 context: Context | None = None) -> list[Evidence] | None:
        """What one construction of `cls` gives its attribute `attr` (the argument of the parameter that
        fills it as it is, read where the call is written, or in `written_in`: a builder's construction
        inlined there, in `context` when that is where it is evaluated): an object's own values, not every
        construction's. None when that is unknown: the call passes none, the binding is unsure, or nothing is
        known of the argument (a parameter of a helper the call is in) and it is no literal."""
        parameter = self._filling_parameter(cls, attr)
        argument = argument_given(call, *parameter) if parameter is not None else None
        if argument is None:
            return None
        function = written_in or self.index.innermost_scope(argument)
        reading = context if context is not None and context.function is function else Context.of(function)
        found = [e.through(f"{cls.name}.{attr}", Relation.GIVEN, argument, own=True)
                 for e in self.infer(argument, reading)]
        if not self._keeps_arrays(cls, attr, parameter[0]):
            found = [e for e in found if e.kind is not Kind.ARRAY]
        if not found and function is not None and isinstance(argument, ast.Name):  # built by a helper: its callers'
            found = [e.through(f"{cls.name}.{attr}", Relation.GIVEN, argument, own=True)
                     for e in self._passed_by_callers(function, argument.id) or ()]
        return found if found or isinstance(argument, ast.Constant) else None

    def passed_to(self, function: FunctionInfo, name: str, complete: bool = False) -> list[Evidence]:
        """What may reach a parameter a name read in `function` is (its own or, in a closure, an enclosing
        function's): what the module's calls of that function pass, through chains of helpers (`complete`:
        nothing unless every call's is known; see _passed_by_callers)."""
        defining = self.parameter_of(function, name)
        return (self._passed_by_callers(defining, name, complete) or []) if defining is not None else []

    @staticmethod
    def parameter_of(function: FunctionInfo, name: str) -> FunctionInfo | None:
        """The function whose parameter a name read in `function` is: its own, or (a free name of a nested
        function) the nearest enclosing function's; None when a function on the way binds it otherwise."""
        current: Scope | None = function
        while isinstance(current, FunctionInfo):
            if name in current.all_params:
                return current
            if name in current.local_bindings:
                return None
            current = current.parent
        return None

    def _passed_by_callers(self, function: FunctionInfo, name: str, complete: bool = True) -> list[Evidence] | None:
        """What the module's calls of a helper pass as its parameter `name` (not rebound in it), read in each
        caller, and when a caller passes a parameter of its own, what its callers pass in turn (a chain of
        helpers). `complete`: None when some call passes nothing known for it, or there is no call (else the
        values the calls that are known pass: what may reach it; while the module is summarised, for a
        function no call of the module makes, a reference to what other modules' calls pass). Once per
        parameter (a chain of helpers costs its length; a recursive one is unknown)."""
        key = (id(function.node), name, complete)
        if key not in self._passed:
            self._passed[key] = None  # asked again while being answered: a recursion, unknown
            self._passed[key] = self._passed_by_each_caller(function, name, complete)
        return self._passed[key]

    def _passed_by_each_caller(self, function: FunctionInfo, name: str, complete: bool) -> list[Evidence] | None:
        params = function.params[1:] if function.self_name else function.params
        position = next((i for i, param in enumerate(params) if param.name == name), None)
        if name not in function.all_params or name in function.local_bindings or function.name == "__init__":
            return None
        found: list[Evidence] = []
        callers = self.index.callers_of(function)
        if not callers and not complete and self.module_name is not None and function.parent is None \
                and not function.is_lambda:  # called from other modules only: what they pass, by reference
            reference = f"{self.module_name}.{function.name}({name})"
            return [Evidence(Kind.REFERENCE, function.node, f"what calls of `{function.name}` pass",
                             refers=reference)]
        for call, _caller in callers:
            argument = argument_given(call, name, position)
            scope = self.index.innermost_scope(call)  # a call in a def nested in the caller passes its names
            given = self.infer(argument, Context.of(scope)) if argument is not None else []
            if not given and scope is not None and isinstance(argument, ast.Name):
                given = self.passed_to(scope, argument.id, complete)
            if not given and complete:
                return None
            found.extend(e.through(name, Relation.GIVEN, argument, by=scope.name if scope else None)
                         for e in given)
        return found or None

    def arrays_given_in_functions(self, cls: ClassInfo, attr: str) -> list[Evidence]:
        """The arrays the module's functions pass for the attribute `attr` when they build a `cls`
        (`Step(x, scale=jnp.float32(2))` in `def bad()`), each read in its function's scope: for a static
        field, an array given at any one construction is one too many. (Only arrays: whether another kind of
        value harms depends on how often the object is built, which a construction in a function leaves open.)"""
        parameter = self._filling_parameter(cls, attr)
        if parameter is None or not self._keeps_arrays(cls, attr, parameter[0]):
            return []
        return [e for e in self._constructed_in_functions(cls, *parameter, attr) if e.kind is Kind.ARRAY]

    def _keeps_arrays(self, cls: ClassInfo, attr: str, parameter: str) -> bool:
        """Whether an array given for the constructor parameter may be what `attr` keeps: not when every
        assignment of it in `__init__` is where a type test says it is no array (an array takes another branch)."""
        init = self.index.find_method(cls, "__init__")
        keeping = [a for a in cls.assignments.get(attr, ()) if a.method is init and is_name(a.value, parameter)]
        return init is None or not keeping or not all(self._no_array_at(init, a.statement, parameter)
                                                      for a in keeping)

    def _no_array_at(self, function: FunctionInfo, statement: ast.AST | None, name: str) -> bool:
        """A type test that holds wherever `statement` runs says the name is a builtin container or string
        (`if isinstance(x, tuple): self.t = x`, the array branch being the `else`): no array is it there."""
        if statement is None or function.is_lambda:
            return False
        tests, exits = function.guards.get(id(statement), ((), ()))
        for test, holds in (*tests, *exits):
            for atom, atom_holds in test_atoms(test, holds):
                tested = isinstance_test(atom) if atom_holds else None
                if tested is not None and is_name(tested[0], name) and all(
                        isinstance(each, ast.Name) and each.id in py.NOT_ARRAY_TYPES
                        and self.index.is_builtin(each.id, function) for each in isinstance_types(tested[1])):
                    return True
        return False

    def _filling_parameter(self, cls: ClassInfo, attr: str) -> tuple[str, int | None] | None:
        """The constructor parameter (name, position after `self`) that fills `attr`: a generated
        constructor's field, or an `__init__` parameter assigned to `self.<attr>` as it is. None too when
        `__post_init__` always assigns the field anew (jax-snana's `object.__setattr__(self, "fudgepar",
        tuple(self.fudgepar))`: what it is given never stays)."""
        init = self.index.find_method(cls, "__init__")
        if init is None:
            return None if self._reassigned_after_init(cls, attr) else (attr, self.field_position(cls, attr))
        for assignment in cls.assignments.get(attr, ()):
            if assignment.method is init and isinstance(assignment.value, ast.Name):
                parameter = constructor_parameter(init, assignment.value.id)
                if parameter is not None:
                    return parameter
        return None

    def _constructed_elsewhere(self, cls: ClassInfo, name: str, position: int | None, via: str) -> list[Evidence]:
        """What the project's other modules pass as the argument `name` (or `position`) when they build a
        `cls` (`Mesh(coords=np.zeros(3))` in pkg/build.py), from their summaries. A value is made once (kept)
        unless a function makes the object per call and passes it on: a builder that only returns it is as
        often as its callers (ModuleView.built_per_call)."""
        project = self.index.project
        if project is None or cls.parent is not None:
            return []
        return self._given_at(project.constructions(cls.name), name, position, cls.node, via)

    def given_to_subclasses(self, cls: ClassInfo, attr: str, keeps: Keeps) -> dict[str, list[Evidence]]:
        """What the project's constructions of each class other modules derive from `cls` (through others
        too, of any module) that `keeps` give its field `attr`, filled by `cls`'s own constructor parameter
        (`keeps` says the subclass binds neither), by the subclass's name: a field a base declares static is
        the base's module's to judge, whichever module gives it a value."""
        project = self.index.project
        parameter = self._filling_parameter(cls, attr)
        if project is None or cls.parent is not None or parameter is None:
            return {}
        made_of: dict[str, list[tuple[Construction, ModuleSummary]]] = {}
        for name, construction, summary in project.subclass_constructions(cls.name, keeps,
                                                                          self._own_subclasses(cls, keeps)):
            made_of.setdefault(name, []).append((construction, summary))
        return {name: found for name, made in made_of.items()
                if (found := self._given_at(made, *parameter, cls.node, attr))}

    def _own_subclasses(self, cls: ClassInfo, keeps: Keeps) -> list[str]:
        """The module's classes derived from `cls`, through others of them, that `keeps` (as
        Project.subclasses asks of other modules' classes)."""
        found, pending, seen = [], [cls], {id(cls)}
        while pending:
            for name, derived in self.index.derived_from(pending.pop()):
                if id(derived) not in seen and keeps(derived.bound_names,
                                                     self.frameworks.library_class(derived) is not None):
                    seen.add(id(derived))
                    found.append(name)
                    pending.append(derived)
        return found

    def _given_at(self, constructions: list[tuple[Construction, ModuleSummary]], name: str, position: int | None,
                  node: ast.AST, via: str) -> list[Evidence]:
        """What other modules' constructions pass as the argument `name` (or `position`), as evidence at
        `node`."""
        project = self.index.project
        found = []
        for construction, summary in constructions:
            for argument in construction.arguments:
                if _passes(argument, name, position):
                    changed = Elsewhere(argument.changed, summary.display_path, argument.changed_line) \
                        if argument.changed else None
                    found.extend(_summarised(value, node, via, Relation.GIVEN, made_in.display_path,
                                             construction.factory
                                             or project.built_per_call(construction, summary,
                                                                       self.keeps_what_it_is_given) is None,
                                             changed)
                                 for value, made_in in project.resolved(summary, (argument.value,)))
        return found

    def _attribute(self, expr: ast.Attribute, context: Context) -> list[Evidence]:
        owner, attr = expr.value, expr.attr
        if isinstance(owner, ast.Name):
            cls = context.instance_class(owner.id)
            if cls is not None:
                return self.attribute(cls, attr, f"{owner.id}.{attr}")
            built = self._attribute_of_a_built_object(owner, attr, context)
            if built:
                return built
        elif isinstance(owner, ast.Call):  # an object built here or by a helper (`make_held(x).value`)
            built = self._held_by_objects(owner, attr, context)
            if built:
                return built
        if attr in np_knowledge.SAFE_ATTRIBUTES:
            return [Evidence(Kind.SAFE, expr, f"`.{attr}`")]
        qualified = self.index.qualify(expr)
        if qualified is not None:
            if qualified.startswith(jax_knowledge.ACTIVATIONS) and attr.islower() and attr not in ("initializers",):
                return [Evidence(Kind.SAFE, expr, f"the function `{qualified}`", leaf=Leaf.CALLABLE)]
            return self._imported(expr, self.index.code(expr))  # a project module's name, or a library constant
        if attr in np_knowledge.ARRAY_ATTRIBUTES:
            return [e for e in self.infer(owner, context) if e.kind is Kind.ARRAY][:1]
        if isinstance(owner, ast.Call) and self.project_name is not None:  # while the module is summarised: a
            # reference to that attribute of what another module's function returns (`pkg.m.make()['.widths']`)
            return _element(self.infer(owner, context), attribute_key(attr))
        return []

    def _attribute_of_a_built_object(self, owner: ast.Name, attr: str, context: Context) -> list[Evidence]:
        """`config.widths` where every binding of the local `config` that reaches here builds an object
        (`config = PadConfig(widths=[(1, 1)])`, or a builder called here: of the module, whatever its body,
        or of another module, from its summary): what the attribute of those objects holds, each its own
        object's value when the class keeps what its constructor is given (see _set_only_when_built), else
        every object's. Nothing when a binding is something else, or when the function assigns
        `config.widths` or hands `config` to a call, which might."""
        function = context.function
        if function is None or function.is_lambda or owner.id in function.all_params:
            return []
        found: list[Evidence] = []
        for binding in function.bindings_before(owner.id, context.statement):
            given = self._held_by_objects(binding.value, attr, context) if binding.value is not None else []
            if not given:
                return []
            found.extend(e.through(owner.id, Relation.ASSIGNED, binding.value, Holder(owner.id, function=function))
                         for e in given)
        if not found:
            return []
        if id(function.node) not in self._object_changes:
            self._object_changes[id(function.node)] = _changes_of_objects(
                function, lambda call: self._only_reads(call, function))
        assigned, handed = self._object_changes[id(function.node)]
        return [] if (owner.id, attr) in assigned or owner.id in handed else found

    def _only_reads(self, call: ast.Call, caller: FunctionInfo) -> bool:
        """A call of a def of the module (or nested in the caller, or of another module: its summary's
        expression, at the call) that only returns an expression making no call but constructions that keep
        what they are given (`def widths_of(config): return config.widths`, `return Held(config.widths)`): it
        changes none of the objects it is given."""
        callee = self._helper(call.func, Context.of(caller))
        value = returned_expression(callee) if callee is not None else self.index.inlined(call, caller)
        return value is not None and not nodes_of(value, ast.NamedExpr) and all(
            self.keeps_arguments(inner) for inner in nodes_of(value, ast.Call))

    def _held_by_objects(self, value: ast.expr, attr: str, context: Context) -> list[Evidence]:
        """What the attribute `attr` of the objects an expression (evaluated in `context`) builds holds: a
        class's construction (`PadConfig(widths=...)`, through names bound once), a function of the module
        that returns one (its summary, once per function and attribute, whatever the calls of it: a chain of
        builders costs one summary per builder), or another module's (from its summary). Nothing when an
        object is not known."""
        function = context.function
        value = written_as(value, function, self.index)
        if not isinstance(value, ast.Call):
            return []
        cls = self.index.class_named(value.func)
        if cls is not None:
            return (self.given_at(value, cls, attr, function, context) or [] if self._set_only_when_built(cls, attr)
                    else self.attribute(cls, attr, f"{cls.name}.{attr}"))
        helper = self._helper(value.func, context)
        if helper is not None:
            return self._summary((id(helper.node), attribute_key(attr)), lambda: self._held_by_returned(helper, attr))
        found = self._held_by_objects_built_elsewhere(value, attr, function)
        if not found and not is_inlined(value):  # another module's builder of what it is given: at this call
            inlined = self.index.inlined(value, function)
            found = self._held_by_objects(inlined, attr, context) if inlined is not None else []
        return found

    def _held_by_returned(self, function: FunctionInfo, attr: str) -> list[Evidence]:
        """What the attribute `attr` of the objects a function returns holds, when each return builds one."""
        found: list[Evidence] = []
        for statement in function.return_statements:
            given = self._held_by_objects(statement.value, attr, Context.of(function)) \
                if statement.value is not None else []
            if not given:
                return []
            found.extend(given)
        return found

    def _held_by_objects_built_elsewhere(self, value: ast.expr, attr: str, function: FunctionInfo | None
                                         ) -> list[Evidence]:
        """What the attribute `attr` holds of the objects a function of another project module returns, from
        its summary: as its returns keep it (their elements `.attr`, for the classes of its module), or, for
        the classes it imports (FunctionFacts.builds), what its construction passes for it, or what the
        class's objects hold (`value` as written_as gives it)."""
        project = self.index.project
        definition = self.index.definition(value.func) if isinstance(value, ast.Call) else None
        facts = definition.function if definition is not None else None
        if project is None or facts is None:
            return []
        if not facts.builds:
            return _element(self.infer(value, Context.of(function)), attribute_key(attr))
        found = []
        for built in facts.builds:
            made = project.definition(built.callee)
            cls = project.foreign_class(made) if made is not None else None
            if cls is None:
                return []
            parameter = self._filling_parameter(cls, attr) if self._set_only_when_built(cls, attr) else None
            given = self.attribute(cls, attr, f"{cls.name}.{attr}") if parameter is None else [
                _summarised(argument.value, value, f"{cls.name}.{attr}", Relation.GIVEN,
                            definition.summary.display_path)  # type: ignore[union-attr]
                for argument in built.arguments if _passes(argument, *parameter)]
            if not given:
                return []
            found.extend(given)
        return found

    def attributes_kept(self, function: FunctionInfo) -> list[tuple[ast.expr, list[Evidence]]]:
        """For each attribute that every object a function returns keeps from its constructor (each return
        builds one of a class of the module: see returned_constructions), each construction's argument for it
        with what it is, the evidence's element path starting with the attribute's key (`.widths`): what a
        summary keeps of a builder's objects for other modules' reads (`default_config().widths`)."""
        made = self.returned_constructions(function) or []
        built = [(call, where, cls) for call, where in made if (cls := self.index.resolve_class(call.func)) is not None]
        if not made or len(built) < len(made):
            return []
        found: list[tuple[ast.expr, list[Evidence]]] = []
        for attr in sorted(set.intersection(*(self._attributes_kept_by(cls) for _, _, cls in built))):
            given = []
            for call, where, cls in built:
                parameter = self._filling_parameter(cls, attr)
                argument = argument_given(call, *parameter) if parameter is not None else None
                evidence = self.given_at(call, cls, attr, where)
                if argument is None or not evidence:
                    break
                # cited as where the value was made (the argument's own hop dropped: it may be a bare name)
                given.append((argument, [e._replace(elements=(attribute_key(attr), *e.elements), trail=e.trail[1:])
                                         for e in evidence]))
            else:
                found.extend(given)
        return found

    def _attributes_kept_by(self, cls: ClassInfo) -> set[str]:
        """The attributes a class's objects keep as their constructor is given them (_set_only_when_built)."""
        named = {attr for owner in self.index.class_and_bases(cls) for attr in (*owner.fields, *owner.assignments)}
        return {attr for attr in named if self._set_only_when_built(cls, attr)}

    def constructions_returned(self, value: ast.expr, function: FunctionInfo | None
                               ) -> list[tuple[ast.Call, FunctionInfo | None]] | None:
        """The calls of classes an expression's value is made by, each with the function it is written in
        (where its arguments are read): the expression itself (`PadConfig(...)`, through names bound once),
        or every return of the function of the module (a nested one too) it calls (returned_constructions).
        None when a way to the value is anything else."""
        value = written_as(value, function, self.index)
        if not isinstance(value, ast.Call):
            return None
        if self._calls_a_class(value.func):
            return [(value, function)]
        helper = self._helper(value.func, Context.of(function))
        return self.returned_constructions(helper) if helper is not None else None

    def returned_constructions(self, function: FunctionInfo) -> list[tuple[ast.Call, FunctionInfo | None]] | None:
        """The calls of classes every return of a function is made by (see constructions_returned), read once
        per function (a function met again while its returns are read, recursion, builds nothing known).
        None when a return is anything else, or there is none."""
        key = id(function.node)
        if key not in self._returned_constructions:
            self._returned_constructions[key] = None  # while its returns are read
            found: list[tuple[ast.Call, FunctionInfo | None]] | None = []
            for statement in function.return_statements:
                made = None if statement.value is None else self.constructions_returned(statement.value, function)
                if made is None or found is None:
                    found = None
                    break
                found.extend(made)
            self._returned_constructions[key] = found or None
        return self._returned_constructions[key]

    def _calls_a_class(self, func: ast.expr) -> bool:
        """A callee that is a class: of the module or of the project (read from its module); while the module
        is summarised, a capitalised name of the project."""
        if self.index.class_named(func) is not None:
            return True
        qualified = self.index.qualify(func) if self.index.project is None and self.project_name is not None else None
        return qualified is not None and qualified.rsplit(".", 1)[-1][:1].isupper() \
            and self.project_name(qualified) is not None  # type: ignore[misc]

    def _set_only_when_built(self, cls: ClassInfo, attr: str) -> bool:
        """Whether an object's attribute keeps what its constructor was given (ModuleIndex.kept_parameter),
        a constructor the class writes or one made from its fields (see _generates_constructor)."""
        return self.index.kept_parameter(cls, attr) is not None and self._filling_parameter(cls, attr) is not None \
            and (self.index.find_method(cls, "__init__") is not None or self._generates_constructor(cls))

    def keeps_arguments(self, call: ast.Call) -> bool:
        """A construction of a class of the project whose constructor only keeps what it is given: a generated
        one (no `__post_init__`), or an `__init__` that only assigns its parameters to attributes. What it is
        given goes where the object goes (`Held(Units("m"))`)."""
        cls = self.index.class_named(call.func)
        return cls is not None and self.keeps_what_it_is_given(cls)

    def keeps_what_it_is_given(self, cls: ClassInfo) -> bool:
        """The class's constructor only keeps what it is given (see keeps_arguments): once per class."""
        if id(cls) not in self._keeps:
            init = self.index.find_method(cls, "__init__")
            self._keeps[id(cls)] = (
                self._generates_constructor(cls) and self.index.find_method(cls, "__post_init__") is None
                if init is None else init.self_name is not None and all(
                    _keeps_a_parameter(statement, init) or (isinstance(statement, ast.Expr)
                                                            and isinstance(statement.value, ast.Constant))
                    for statement in init.node.body))  # type: ignore[union-attr]
        return self._keeps[id(cls)]

    def _generates_constructor(self, cls: ClassInfo) -> bool:
        """A class whose constructor is made from its fields and keeps what it is given (a converter aside):
        a dataclass (fields.is_dataclass: a dataclass decorator's, a project decorator applying one, a
        NamedTuple) or a pytree library's class (`eqx.Module`). Not another library's base, whose constructor
        may convert (pydantic's `BaseModel` makes a tuple of a list)."""
        return is_dataclass(self.index, cls) or self.frameworks.library_class(cls) is not None

    def _call(self, expr: ast.Call, context: Context) -> list[Evidence]:
        func = expr.func
        if isinstance(func, ast.Name) and not hasattr(func, MEANT) and self.index.is_builtin(func.id, context.function):
            return self._builtin_call(func.id, expr, context)  # (a name copied from another module means its own)
        cls = self.index.class_named(func)  # of this module, or of another of the project
        if cls is not None:
            return [Evidence(Kind.INSTANCE, expr, f"a new `{cls.name}`", cls=cls, constructed=True)]
        qualified = self.index.qualify(func)
        if qualified is not None:
            definition = self.index.project.definition(qualified) if self.index.project is not None else None
            if definition is not None:
                # What it returns there, and its returned expression written here with the call's arguments
                # (`tuple(norms)` of what this call passes; an object of a class of this module it imports),
                # as a helper of this module is read.
                returned = self._returned_elsewhere(definition, expr)
                inlined = None if returned and self._inlined >= _MAX_INLINED else self.index.inlined(
                    expr, context.function)
                if inlined is None:
                    return returned
                self._inlined += 1
                try:
                    return [*returned, *self.infer(inlined, context)]
                finally:
                    self._inlined -= 1
            reference = self.project_name(qualified) if self.project_name is not None else None
            if reference is not None:
                return [Evidence(Kind.REFERENCE, expr, f"what `{reference}` returns", refers=f"{reference}()")]
            return self._library_call(qualified, expr, context)
        helper = self._helper(func, context)
        if helper is not None:
            return [*self._returned_here(expr, helper, context), *self._returned(helper)]
        if isinstance(func, ast.Attribute):
            method = self.index.method_of(func.value, func.attr, context.function)
            if method is not None and not PROPERTY_DECORATORS & set(method.decorator_names):
                # `self.m()`, `cls.m()`, `Class.m()`, `type(self).m()`
                return [*self._returned_here(expr, method, context), *self._returned(method)]
            made = self._returned_by_object_method(func, context)
            return made if made is not None else self._method_call(func, expr, context)
        return []

    def _returned_by_object_method(self, func: ast.Attribute, context: Context) -> list[Evidence] | None:
        """What `obj.name(...)` returns when `obj` is known to be an object of a class of the project with that
        method (`Builder(cfg).build()`, `builder = Builder(); builder.build()`, the class of this module or
        another): the method's returns on that object, for each class it may be (None: not known to be one,
        or a property)."""
        if func.attr not in self._method_names and not self._built_here(func.value, context):
            return None  # no class of the module has such a method, nor is the receiver built here: not read
        found: list[Evidence] = []
        for receiver in self.infer(func.value, context):
            cls = receiver.cls if receiver.kind is Kind.INSTANCE else None
            method = self.index.find_method(cls, func.attr) if cls is not None else None
            if method is None or PROPERTY_DECORATORS & set(method.decorator_names):
                return None
            found.extend(self._returned(method) if method.cls is cls else self._returns(method, cls))
        return found or None

    def _built_here(self, receiver: ast.expr, context: Context) -> bool:
        """Whether a receiver is written as a construction of a class of the project (`Builder(cfg)`, a local
        name bound once to one, a helper's call that returns one): its methods may be another module's."""
        made = written_as(receiver, context.function, self.index)
        return isinstance(made, ast.Call) and self.index.class_named(made.func) is not None

    @cached_property
    def _method_names(self) -> frozenset[str]:
        """The names of the methods the module's classes define."""
        return frozenset(name for cls in self.index.classes.values() for name in cls.methods)

    def _returned_here(self, call: ast.Call, callee: FunctionInfo, context: Context) -> list[Evidence]:
        """What a callee that only returns an expression of what the call gives it (`def mask_of(box):
        return box.mask`; a nested def's names of the function it is called in) returns at this call: the
        expression with the call's arguments, evaluated where the call is (its summary, `_returned`, knows
        nothing of its parameters beyond their annotations, nor what the caller's `self` is an instance of)."""
        value = returned_expression(callee)
        if value is None:
            return []
        given = {param.name for param in callee.params[1 if callee.self_name else 0:]}
        given.update(param.name for param in callee.keyword_only_params)
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
        if callee.self_name and isinstance(receiver, ast.Name) and context.instance_class(receiver.id) not in (
                None, callee.cls):  # a base's method on an object of a subclass: its attributes are the subclass's
            given.add(callee.self_name)
        read = {node.id for node in nodes_of(value, ast.Name)}
        caller = context.function
        callers_names = set() if caller is None else {
            *caller.all_params, *([] if caller.is_lambda else caller.local_bindings)}
        if caller is not None and callee.parent is caller:
            given |= callers_names  # a nested def called where it is defined
        elif not (read - given).isdisjoint(callers_names):
            return []  # a name of the callee's module the caller's own name would hide
        if read.isdisjoint(given):
            return []
        inlined = self.index.inlined(call, caller) if self._inlined < _MAX_INLINED else None
        if inlined is None:
            return []
        kept = self.memoized(callee)
        self._inlined += 1
        try:
            found = self.infer(inlined, context)
        finally:
            self._inlined -= 1
        return [_built_by(e, callee).through(f"{callee.name}()", Relation.RETURNS, element_of(value, e.elements),
                                             kept=kept) for e in found]

    def _helper(self, func: ast.expr, context: Context) -> FunctionInfo | None:
        """The def a call names: one nested in the caller (bound once there), or the module's own (not shadowed
        by a local or parameter of the caller)."""
        if not isinstance(func, ast.Name):
            return None
        caller = context.function
        if caller is not None and not caller.is_lambda and func.id in caller.local_bindings:
            bound = caller.local_bindings[func.id]
            nested = len(bound) == 1 and isinstance(bound[0], (ast.FunctionDef, ast.AsyncFunctionDef))
            return FunctionInfo(bound[0], parent=caller) if nested else None  # type: ignore[arg-type]
        if caller is not None and func.id in caller.all_params:
            return None
        helper = self.index.module_function(func.id)
        return helper if helper is not None and not helper.is_lambda else None

    def _returned(self, helper: FunctionInfo) -> list[Evidence]:
        """What a helper of the module returns, each value's trail continued by "which returns ..."."""
        if (id(helper.node), "return") not in self._summaries:
            # The helpers it calls first, callees before callers: each summary then finds the ones it needs
            # made, however long the chain, instead of nesting past _MAX_NESTED_SUMMARIES.
            for callee in self._callees_first(helper):
                self._summary((id(callee.node), "return"), lambda callee=callee: self._returns(callee))
        return self._summary((id(helper.node), "return"), lambda: self._returns(helper))

    def _returns(self, helper: FunctionInfo, on: ClassInfo | None = None) -> list[Evidence]:
        """What a function returns; `on`, for a base's method: the class of the object it is called on (its
        `self` an instance of that class, whose attributes a subclass may set)."""
        found: list[Evidence] = []
        kept = self.memoized(helper)
        for statement in helper.return_statements:
            if statement.value is not None:
                context = Context.of(helper, statement) if on is None or not helper.self_name else Context(
                    helper, ((helper.self_name, on),), statement)
                found.extend(_built_by(e, helper).through(f"{helper.name}()", Relation.RETURNS,
                                                          element_of(statement.value, e.elements), kept=kept)
                             for e in self.infer(self.as_returned(helper, statement), context))
        return found

    def as_returned(self, function: FunctionInfo, statement: ast.Return) -> ast.expr:
        """What a return of the function gives, as far as what kind of value it is: its expression, but for a
        cast to an array made only when what it casts is no scalar (`if isinstance(x, (int, float)): return
        int(x)`, then `return jnp.astype(x, int)`), which gives what it casts: an array given stays one, and
        no array is made of a scalar (a conditional expression is read so wherever it is: `infer`)."""
        value = statement.value
        assert value is not None
        if not _casts(value, self.index):
            return value
        conditions = function.return_conditions
        if id(function.node) not in self._scalar_tests:  # once per function: its returns read once
            self._scalar_tests[id(function.node)] = {
                key: made for other in function.return_statements if other.value is not None
                and (made := _scalar_made(other.value, function, self.index)) is not None
                for test, holds in conditions.get(id(other), ()) if holds for key in _scalar_tests(test, made)}
        stable = [(test, holds) for test, holds in conditions.get(id(statement), ())
                  if not ((tested := isinstance_test(test)) is not None and isinstance(tested[0], ast.Name)
                          and tested[0].id in function.local_bindings)]  # a name assigned in the body may change
        return _cast_kept(value, stable, self.index, self._scalar_tests[id(function.node)])

    def memoized(self, function: FunctionInfo) -> bool:
        """A function of the module decorated with a memoiser (`functools.lru_cache`, `functools.cache`, or a
        decorator of the project that memoises), or that memoises by hand in a module-level dict (`if key in
        _CACHE: return _CACHE[key]`, then `_CACHE[key] = made`): what a call returns was made by the first call
        with equal arguments, and is kept."""
        if _caches_in_a_module_dict(function, self.index):
            return True
        for decorator in getattr(function.node, "decorator_list", ()):
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            qualified = self.index.qualify(target)
            local = self.index.module_function(target.id) if isinstance(target, ast.Name) else None
            project = self.index.project
            if qualified in py.MEMOIZERS or (local is not None and memoizes(self.index, local)) or (
                    project is not None and qualified is not None and project.memoizes(qualified)):
                return True
        return False

    def _callees_first(self, helper: FunctionInfo) -> list[FunctionInfo]:
        """The module's functions `helper` calls by name, directly or not, in post-order (callees before their
        callers, `helper` itself left out); each function's body is read once per inference."""
        order: list[FunctionInfo] = []
        seen = {id(helper.node)}
        stack = [(helper, iter(self._direct_callees(helper)))]
        while stack:
            function, callees = stack[-1]
            callee = next(callees, None)
            if callee is None:
                stack.pop()
                if function is not helper:
                    order.append(function)
            elif id(callee.node) not in seen:
                seen.add(id(callee.node))
                stack.append((callee, iter(self._direct_callees(callee))))
        return order

    def _direct_callees(self, function: FunctionInfo) -> list[FunctionInfo]:
        found = self._callees.get(id(function.node))
        if found is None:
            names = {node.func.id for node in ast.walk(function.node)
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
            found = self._callees[id(function.node)] = [
                callee for callee in map(self.index.module_function, sorted(names))
                if callee is not None and not callee.is_lambda]
        return found

    def _returned_elsewhere(self, definition, expr: ast.Call) -> list[Evidence]:
        """What a function of another project module returns, from the summaries (its own, and those of the
        modules whose functions it returns the results of)."""
        project = self.index.project
        assert project is not None
        kept = project.memoized(definition)
        return [_summarised(value, expr, f"{definition.name}()", Relation.RETURNS, summary.display_path, kept)
                for value, summary in project.returned_by(definition)]

    def _imported(self, expr: ast.Name | ast.Attribute, name: str) -> list[Evidence]:
        """What a module-level name of another project module holds (`from .masks import MASK`, `masks.MASK`):
        as a lint sees it, from the summaries; as a summary records it, a reference to it."""
        qualified = self.index.qualify(expr)
        if qualified is None:
            return []
        project = self.index.project
        if project is not None:
            definition = project.definition(qualified)
            if definition is None:
                return []
            return [_summarised(value, expr, name, Relation.ASSIGNED, summary.display_path)._replace(shared=True)
                    for value, summary in project.held_by(definition)]
        reference = self.project_name(qualified) if self.project_name is not None else None
        return [Evidence(Kind.REFERENCE, expr, f"what `{reference}` holds", refers=reference)] if reference else []

    def _kept_by_an_object(self, value: ast.expr, context: Context) -> bool:
        """Whether a value is read from an object's attribute (`self.manager`, `getattr(manager, name)` of a
        local read as `obj.manager`): the same object on every flatten of the same instance, so its `id()`
        is as new as the object it names (autopdex's `SimState` keeps the ids of its manager's solvers), unlike
        `id(self)` of the instance, new with each."""
        function = context.function
        for _depth in range(_MAX_READ_DEPTH):
            value = written_as(value, function, self.index)
            if isinstance(value, ast.Attribute):
                return True
            if not (isinstance(value, ast.Call) and is_name(value.func, "getattr") and value.args
                    and self.index.is_builtin("getattr", function)):
                return False
            value = value.args[0]
        return False

    def _builtin_call(self, name: str, expr: ast.Call | ast.expr, context: Context,
                      arguments: list[ast.expr] | None = None) -> list[Evidence]:
        if arguments is None:
            arguments = [*expr.args, *(k.value for k in expr.keywords)]
        if name in py.MUTABLE_BUILTINS:
            made = [Evidence(Kind.MUTABLE, expr, f"a `{name}`" if name != "sorted" else "a list")]
            # `dict(k=v)`, `list((a, b))`: their values, by key and position as a display's
            display = as_display(expr) if name in ("dict", "list") and isinstance(expr, ast.Call) else None
            if isinstance(display, ast.Dict):
                return [*made, *self._keyed(display, context)]
            if isinstance(display, ast.List):
                return [*made, *self._positioned(display.elts, context)]
            return made
        if name == "id" and arguments and self._kept_by_an_object(arguments[0], context) and not any(
                e.kind in (Kind.ARRAY, Kind.VOLATILE) for e in self.infer(arguments[0], context)):
            return []  # the identity of an object something keeps: new only where that object is
        if name in ("id", "object") and (name == "id" or not arguments):
            return [Evidence(Kind.VOLATILE, expr, f"`{name}()`",
                             volatility=Volatility.IDENTITY if name == "id" else Volatility.OBJECT)]
        if name in py.SAFE_BUILTINS:
            # A conversion is hashable, but keeps what makes its input volatile (`str(uuid4())`), and a
            # tuple keeps the arrays and objects it is built from (`tuple(np.asarray(v) for v in vs)`,
            # `tuple(self.configs)`), not an array it iterates: its items are scalars or rows, by its rank
            # (`tuple(np.array(offsets))`: NumPy floats).
            if name in py.HASHABLE_CONVERSIONS:  # its items, each an element (at a place kept where known)
                inner = [e if e.elements else e._replace(elements=(ANY_ELEMENT,)) for arg in arguments
                         for e in self._contents(_unstarred(arg), context)
                         if e.kind in (Kind.VOLATILE, Kind.ARRAY, Kind.INSTANCE)]
            else:
                inner = [e for arg in arguments for e in self._contents(_unstarred(arg), context)
                         if e.kind is Kind.VOLATILE]
            return inner or [Evidence(Kind.SAFE, expr, f"`{name}(...)`", leaf=Leaf.STR if name == "str" else None)]
        return []

    def _contents(self, expr: ast.expr, context: Context) -> list[Evidence]:
        """Evidence about what an iterable yields (the elements of a display or comprehension; not an array
        it is: an array yields scalars or rows, by its rank)."""
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return self._elements(expr.elts, context)
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self.infer(expr.elt, context)
        return [e for e in self.infer(expr, context) if e.kind is not Kind.ARRAY or e.elements]

    def _library_call(self, qualified: str, expr: ast.Call, context: Context) -> list[Evidence]:
        if (qualified in py.VOLATILE_CALLS or qualified in jax_knowledge.TRANSFORMATIONS
                or qualified.startswith(py.VOLATILE_MODULES)):
            callable_result = qualified == py.PARTIAL or qualified.startswith("jax.")
            return [Evidence(Kind.VOLATILE, expr, f"`{qualified}(...)`",
                             leaf=Leaf.CALLABLE if callable_result else None)]
        if qualified in py.MUTABLE_CALLS:
            return [Evidence(Kind.MUTABLE, expr, f"a `{qualified.rsplit('.', 1)[-1]}`")]
        if qualified in py.COPY_CALLS:
            first = _first_argument(expr)
            return self.infer(first, context) if first is not None else []
        if qualified.startswith("numpy."):
            return self._numpy_call(qualified[len("numpy."):], expr, context)
        if qualified in scipy_knowledge.SPARSE_CONSTRUCTORS:
            return [Evidence(Kind.ARRAY, expr, "a SciPy sparse matrix")]
        if qualified in jax_knowledge.ARRAY_FUNCTIONS or (
                qualified.startswith(jax_knowledge.ARRAY_MODULES)
                and not qualified.startswith(tuple(jax_knowledge.NON_ARRAY))
                and qualified.split(".", 2)[-1] not in np_knowledge.NON_ARRAY_FUNCTIONS):
            return [Evidence(Kind.ARRAY, expr, "a JAX array")]
        if qualified in py.SAFE_CALLS:
            return [Evidence(Kind.SAFE, expr, f"`{qualified}(...)`")]
        return []

    def _numpy_call(self, name: str, expr: ast.Call, context: Context) -> list[Evidence]:
        if name in np_knowledge.NON_ARRAY_FUNCTIONS:
            return [Evidence(Kind.SAFE, expr, f"`numpy.{name}(...)`")]
        if name in np_knowledge.SCALAR_CONSTRUCTORS:
            return [Evidence(Kind.SAFE, expr, "a NumPy scalar")]
        if name in np_knowledge.ARRAY_CONSTRUCTORS:
            if name in np_knowledge.VOLATILE_WITHOUT_ARGUMENTS and not expr.args and not expr.keywords:
                return [Evidence(Kind.VOLATILE, expr, f"`numpy.{name}()`")]
            return [Evidence(Kind.ARRAY, expr, "a NumPy array")]
        keywords = {k.arg for k in expr.keywords}
        if name.startswith("random."):
            return [Evidence(Kind.ARRAY, expr, "a NumPy array")] if "size" in keywords else []
        if name in np_knowledge.REDUCTIONS:
            keeps_axis = len(expr.args) + len(expr.keywords) > 1 or bool(keywords & {"axis", "keepdims"})
            if not keeps_axis:
                return [Evidence(Kind.SAFE, expr, "a NumPy scalar")]
        # Any other numpy function returns an array when it is given one (np.exp(w), np.where(m, a, b)).
        for arg in [*expr.args, *(k.value for k in expr.keywords)]:
            if any(e.kind is Kind.ARRAY for e in self.infer(_unstarred(arg), context)):
                return [Evidence(Kind.ARRAY, expr, "a NumPy array")]
        return []

    def _method_call(self, func: ast.Attribute, expr: ast.Call, context: Context) -> list[Evidence]:
        method = func.attr
        key = element_key(expr.args[0]) if method == "get" and expr.args and not expr.keywords else None
        if isinstance(key, str):  # `settings.get("mask", default)`: the dict's value by its key, or the default
            default = self.infer(expr.args[1], context) if len(expr.args) > 1 else []
            return [*_element(self.infer(func.value, context), key), *default]
        if method not in np_knowledge.ARRAY_METHODS and method not in np_knowledge.SAFE_METHODS \
                and method != np_knowledge.TOLIST:
            return []
        owner = self.infer(func.value, context)
        if not any(e.kind is Kind.ARRAY for e in owner):
            return []
        if method == np_knowledge.TOLIST:
            return [Evidence(Kind.MUTABLE, expr, "a list (`.tolist()`)")]
        if method in np_knowledge.SAFE_METHODS:
            return [Evidence(Kind.SAFE, expr, f"`.{method}()`")]
        return [Evidence(Kind.ARRAY, expr, "an array")]

    # attributes of a class -------------------------------------------------------------------------
    def _attribute_sources(self, cls: ClassInfo, attr: str) -> list[Evidence]:
        if self.index.sets_attribute_itself(cls, attr):
            return []  # what is assigned is not what is stored
        holder = Holder(attr, cls=cls)
        found: list[Evidence] = []
        for owner in self.index.class_and_bases(cls):
            for assignment in self._live_assignments(owner.assignments.get(attr, ())):
                method = assignment.method
                if assignment.augmented:
                    if method.name not in py.CONSTRUCTOR_METHODS:
                        updated = Hop(_PLACEHOLDER, Relation.UPDATED_BY, assignment.statement, holder)
                        found.append(Evidence(Kind.VOLATILE, assignment.statement,
                                              f"a value `{method.name}()` changes", trail=(updated,),
                                              volatility=Volatility.CHANGED))
                    continue
                if assignment.value is None:
                    continue
                context = Context(method, ((method.self_name or "self", cls),), assignment.statement)
                kept = method.name not in py.CONSTRUCTOR_METHODS
                found.extend(e.through(_PLACEHOLDER, Relation.ASSIGNED, assignment.value, holder, kept)
                             for e in self.infer(assignment.value, context))
        found.extend(self._updated_by_functions(cls, attr, holder))
        found.extend(self._filled(cls, attr, holder))
        method = self.index.find_method(cls, attr)
        if not found and method is not None and not method.decorator_names:
            found.append(Evidence(Kind.SAFE, method.node, f"the bound method `{cls.name}.{attr}`",
                                  leaf=Leaf.CALLABLE))
        elif not found and method is not None and PROPERTY_DECORATORS & set(method.decorator_names):
            # a property: what its getter returns (a base's getter, of this class's objects)
            found.extend(self._returned(method) if method.cls is cls else self._returns(method, cls))
        declared = [owner.fields[attr] for owner in self.index.class_and_bases(cls) if attr in owner.fields]
        for class_field in declared[:1]:
            found.extend(self._field_default(class_field, holder))
            if self.index.find_method(cls, "__init__") is None and not self._reassigned_after_init(cls, attr) \
                    and not converts(class_field) and self._generates_constructor(cls):  # a dataclass or
                # NamedTuple: fields in order (a converter's result is what is kept: an array one says so above)
                found.extend(self.constructor_arguments(cls, attr, self.field_position(cls, attr), _PLACEHOLDER))
            # The declared type speaks unless a value built per instance says otherwise; a container type
            # does not speak over a value the class stores (a tuple, a frozendict, a MappingProxyType).
            if class_field.annotation is not None and all(e.shared for e in found):
                stored = any(a.value is not None for owner in self.index.class_and_bases(cls)
                             for a in owner.assignments.get(attr, ()))
                found.extend(e.through(_PLACEHOLDER, Relation.ANNOTATED, class_field.annotation, holder)
                             for e in self.annotation(class_field.annotation)
                             if not (stored and e.kind is Kind.MUTABLE))
        return found

    @cached_property
    def _augmented_attributes(self) -> dict[str, list[tuple[ast.AugAssign, FunctionInfo]]]:
        """`obj.<attr> += ...` in the module's functions and methods, by attribute: one walk for every
        attribute asked about."""
        found: dict[str, list[tuple[ast.AugAssign, FunctionInfo]]] = {}
        for function in self.index.defs:
            if not function.is_lambda:  # statements only: cheaper than every node of every body
                for node, _blocks in walk_statements(function.node.body):
                    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                        found.setdefault(node.target.attr, []).append((node, function))
        return found

    def _fills(self, function: FunctionInfo) -> list[Filled]:
        """What a function puts into containers, those objects' attributes hold and its locals': one walk of
        its statements, kept."""
        key = id(function.node)
        if key in self._fills_of:
            return self._fills_of[key]
        found = self._fills_of[key] = []
        for statement, node, container, value in fillings_in(function):
            keys: list[int | str | None]
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):  # `c[key] = v`
                keys = [element_key(node.targets[0].slice)]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method = node.func.attr
                keys = [element_key(node.args[0])] if method == "setdefault" and len(node.args) == 2 \
                    else [] if method == "update" else [None]  # the others: at a place not known
            else:
                continue
            while isinstance(container, ast.Subscript):
                keys.insert(0, element_key(container.slice))
                container = container.value
            if isinstance(container, ast.Name):  # a local alias of the attribute: `mask = self.mask`
                bound = function.bindings_before(container.id, statement)
                container = bound[0].value if len(bound) == 1 and isinstance(bound[0].value, ast.Attribute) \
                    else container
            elements = tuple(ANY_ELEMENT if key is None else key for key in keys)
            if isinstance(container, ast.Attribute) and isinstance(container.value, ast.Name):
                found.append(Filled(container.value, container.attr, value, function, statement, elements))
            elif isinstance(container, ast.Name):
                found.append(Filled(container, None, value, function, statement, elements))
        return found

    def _filled_local(self, name: str, function: FunctionInfo) -> list[Evidence]:
        """What a function puts into the container its local `name` holds, assigned once (`vecs = []`, then
        `vecs.append(q)`): the container holds it (see FILLED_KINDS). Read once per name."""
        sites = [filled for filled in self._fills(function) if filled.attr is None and filled.owner.id == name]
        if not sites:
            return []

        def compute() -> list[Evidence]:
            holder = Holder(name, function=function)
            return [self._inside(evidence, filled).through(name, Relation.FILLED_WITH, filled.value, holder)
                    for filled in sites
                    for evidence in self.infer(filled.value, Context(function, statement=filled.statement))
                    if evidence.kind in FILLED_KINDS]
        return self._summary((id(function.node), f"{name}[]"), compute)

    @staticmethod
    def _inside(evidence: Evidence, filled: Filled) -> Evidence:
        """Evidence of what is put in, as an element of the container (see Filled.elements)."""
        return evidence._replace(elements=(*filled.elements, *evidence.elements))

    @cached_property
    def _filled_through_names(self) -> dict[str, list[Filled]]:
        """What the module's functions put into objects' containers through a name other than a method's
        own `self` (one declared as an object of a class), by attribute: one walk for every attribute asked
        about."""
        found: dict[str, list[Filled]] = {}
        for function in self.index.defs:
            if not function.is_lambda:
                for filled in self._fills(function):
                    if filled.attr is not None and filled.owner.id != function.self_name:
                        found.setdefault(filled.attr, []).append(filled)
        return found

    def _filled(self, cls: ClassInfo, attr: str, holder: Holder) -> list[Evidence]:
        """What is put into the container the attribute holds (`self.mask[name] = jnp.ones(n)`,
        `net.layers.append(layer)`): by a method of the class or of a base of it, through `self`; by a
        function of this module through a name declared as one of them; by a function of another module
        through what it declares as one (see FILLED_KINDS)."""
        related = self.index.class_and_bases(cls)
        ids = {id(owner) for owner in related}
        sites = [filled for owner in related for method in owner.methods.values() if not method.is_lambda
                 for filled in self._fills(method) if filled.attr == attr and filled.owner.id == method.self_name]
        for filled in self._filled_through_names.get(attr, ()):
            declared = self.index.declared_type(filled.owner, filled.function)  # `net: Net`, `for net in nets`
            named = self.index.class_named(declared) if declared is not None else None
            if named is not None and id(named) in ids:
                sites.append(filled)
        found = []
        for filled in sites:
            kept = filled.function.name not in py.CONSTRUCTOR_METHODS
            context = Context(filled.function, ((filled.owner.id, cls),), filled.statement)
            found.extend(self._inside(evidence, filled).through(_PLACEHOLDER, Relation.FILLED_WITH, filled.value,
                                                                holder, kept)
                         for evidence in self.infer(filled.value, context) if evidence.kind in FILLED_KINDS)
        if cls.parent is None:  # and the functions of other modules
            for change, summary in self.index.changes_elsewhere(cls.name):
                if change.attribute == attr:
                    found.extend(_summarised(value, cls.node, _PLACEHOLDER, Relation.FILLED_WITH,
                                             summary.display_path, kept=True)._replace(elements=(ANY_ELEMENT,))
                                 for value in change.filled)
        return found

    def _updated_by_functions(self, cls: ClassInfo, attr: str, holder: Holder) -> list[Evidence]:
        """`obj.<attr> += ...` in a function of the module where `obj` is declared as the class (or one of
        its bases here: a parameter, an item of a collection of them), called from somewhere else than a
        constructor: a value that function changes."""
        related = {id(c) for c in self.index.class_and_bases(cls)}
        found = []
        for node, function in self._augmented_attributes.get(attr, ()):
            declared = self.index.declared_type(node.target.value, function)  # `model: MLP`, `for m in models`
            named = self.index.resolve_class(declared) if declared is not None else None
            if named is not None and id(named) in related and not self._called_while_building(function):
                updated = Hop(_PLACEHOLDER, Relation.UPDATED_BY, node, holder)
                found.append(Evidence(Kind.VOLATILE, node, f"a value `{function.name}()` changes",
                                      trail=(updated,), volatility=Volatility.CHANGED))
        if cls.parent is None:  # and the functions of other modules
            for change, summary in self.index.changes_elsewhere(cls.name):
                if change.attribute == attr and change.augmented and not self._called_while_building_here(
                        change.function):
                    where = Elsewhere(change.text, summary.display_path, change.line)
                    updated = Hop(_PLACEHOLDER, Relation.UPDATED_BY, where, holder)  # type: ignore[arg-type]
                    found.append(Evidence(Kind.VOLATILE, where,  # type: ignore[arg-type]
                                          f"a value `{change.function.rsplit('.', 1)[-1]}()` changes",
                                          trail=(updated,), volatility=Volatility.CHANGED))
        return found

    def _called_while_building_here(self, function: str) -> bool:
        """Every call this module makes of another module's function (absolute name) is in a constructor."""
        return self._in_constructors(self.index.calls_to(function))

    def _called_while_building(self, function: FunctionInfo) -> bool:
        """Every call the module makes of the function is in a constructor (the object is being built)."""
        return self._in_constructors(self.index.calls_named(function.name))

    def _in_constructors(self, calls: list[ast.Call]) -> bool:
        """Some calls, and each made in a constructor."""
        return bool(calls) and all((caller := self.index.enclosing_function(call)) is not None
                                   and caller.name in py.CONSTRUCTOR_METHODS for call in calls)

    def field_position(self, cls: ClassInfo, attr: str) -> int | None:
        """The position of a generated constructor's argument for field `attr`: annotated fields, bases first
        (None when a field is keyword-only, or anything else makes the order unsure)."""
        if any("kw_only" in self.index.code(d) for d in cls.decorators):
            return None
        order: list[str] = []
        for owner in reversed(self.index.class_and_bases(cls)):
            for declared in declared_fields(self.index, owner):
                if self.index.qualify(declared.annotation) == py.KW_ONLY:
                    break
                if declared.name not in order:
                    order.append(declared.name)
        return order.index(attr) if attr in order else None

    def _reassigned_after_init(self, cls: ClassInfo, attr: str) -> bool:
        """A dataclass field `__post_init__` always assigns (`object.__setattr__(self, "index",
        jnp.asarray(self.index))`): what a constructor is given for it never stays there."""
        post_init = self.index.find_method(cls, "__post_init__")
        return post_init is not None and any(a.unconditional and not a.augmented and a.method is post_init
                                             for owner in self.index.class_and_bases(cls)
                                             for a in owner.assignments.get(attr, ()))

    @staticmethod
    def _live_assignments(assignments):
        """Per method, the assignments the method's last unconditional assignment does not overwrite."""
        by_method: dict[int, list] = {}
        for assignment in assignments:
            by_method.setdefault(id(assignment.method), []).append(assignment)
        live = []
        for group in by_method.values():
            live.extend(live_bindings(group))
        return live

    def _field_default(self, class_field, holder: Holder) -> list[Evidence]:
        value = class_field.value
        if value is None:
            return []
        if isinstance(value, ast.Call) and self.frameworks.is_field_call(value):
            args = keyword_arguments(value)
            found: list[Evidence] = []
            converter = args.get("converter")
            if converter is not None and self._array_function(converter):
                found.append(Evidence(Kind.ARRAY, converter, "an array").through(
                    _PLACEHOLDER, Relation.CONVERTED_BY, converter, holder))
            if "default" in args:
                found.extend(e._replace(shared=True).through(_PLACEHOLDER, Relation.DEFAULTS_TO, args["default"],
                                                             holder)
                             for e in self.infer(args["default"]))
            factory = args.get("default_factory")
            if factory is not None:
                found.extend(e.through(_PLACEHOLDER, Relation.DEFAULTS_TO, factory, holder)
                             for e in self._factory(factory))
            return found
        return [e._replace(shared=True).through(_PLACEHOLDER, Relation.DEFAULTS_TO, value, holder)
                for e in self.infer(value)]

    def _factory(self, factory: ast.expr) -> list[Evidence]:
        """What a `default_factory` builds: `list` builds a list, `lambda: np.zeros(3)` an array."""
        if isinstance(factory, ast.Lambda):
            return self.infer(factory.body)
        if isinstance(factory, ast.Name) and self.index.is_builtin(factory.id):
            return self._builtin_call(factory.id, factory, MODULE_CONTEXT, arguments=[])
        qualified = self.index.qualify(factory)
        if qualified in py.MUTABLE_CALLS:
            return [Evidence(Kind.MUTABLE, factory, f"a `{qualified.rsplit('.', 1)[-1]}`")]
        return []

    def _array_function(self, function: ast.expr) -> bool:
        """`jnp.asarray`, `np.array`, ...: a function that makes arrays (as a `converter=`)."""
        qualified = self.index.qualify(function) or ""
        if qualified.startswith("numpy."):
            return qualified[len("numpy."):] in np_knowledge.ARRAY_CONSTRUCTORS
        return qualified in jax_knowledge.ARRAY_FUNCTIONS or (
            qualified.startswith(jax_knowledge.ARRAY_MODULES)
            and qualified.split(".", 2)[-1] not in np_knowledge.NON_ARRAY_FUNCTIONS)


def _passes(argument: Argument, name: str, position: int | None) -> bool:
    """A summarised construction's argument is the one it passes as the parameter `name` (or at `position`)."""
    return argument.keyword == name or (position is not None and argument.position == position)


def _keeps_a_parameter(statement: ast.stmt, init: FunctionInfo) -> bool:
    """`self.x = x`: a statement of `__init__` keeping one of its parameters as it is."""
    return (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(target := statement.targets[0], ast.Attribute) and is_name(target.value, init.self_name)
            and isinstance(statement.value, ast.Name) and statement.value.id in init.all_params)


def _summarised(value: Value, node: ast.AST, via: str, relation: Relation, path: str, kept: bool = False,
                changed: Elsewhere | None = None) -> Evidence:
    """Evidence from another module's summary: what `via` `relation` there, cited by module and line
    (`changed`: that module changes it in place after, there)."""
    hop = Hop(via, relation, Elsewhere(value.text, path, value.line), None, kept or value.made_once, changed=changed)
    return Evidence(Kind(value.kind), node, value.what, leaf=Leaf(value.leaf) if value.leaf else None,
                    trail=(hop,), contained=value.contained, elements=value.elements)


def _runs_once_per_call_of_parent(function: FunctionInfo) -> bool:
    """A nested function that its enclosing function's own body calls by name, outside loops, and that
    nothing else names (it is not returned, stored, handed on, or called from another nested function): it
    runs as often as its enclosing function, so the values it reads from there are as new as its own."""
    parent = function.parent
    named = sum(1 for node in nodes_of(parent.node, ast.Name) if node.id == function.name)  # type: ignore[union-attr]
    called = 0
    pending = [(child, False) for child in child_nodes(parent.node)]  # type: ignore[union-attr]
    while pending:
        node, looped = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function.name:
            if looped:
                return False  # called again and again within one call of its enclosing function
            called += 1
        looped = looped or isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp,
                                             ast.DictComp, ast.GeneratorExp))
        pending.extend((child, looped) for child in child_nodes(node))
    return called > 0 and called == named


def _element(evidence: list[Evidence], key: int | str) -> list[Evidence]:
    """The evidence of the element `key` of what `evidence` is about: its own where a display said it, and a
    reference to that element of what a reference stands for (`pkg.m.f()[0]`, resolved by the project)."""
    part = f"attribute `{key[1:]}`" if isinstance(key, str) and key.startswith(".") else f"element {key!r}"
    return [e._replace(elements=e.elements[1:]) if e.elements else
            e._replace(refers=f"{e.refers}[{key!r}]", what=f"{part} of {e.what}")
            for e in evidence
            if e.elements[:1] in ((key,), (ANY_ELEMENT,)) or (e.refers is not None and not e.elements)]


def element_of(display: ast.expr, elements: tuple[int | str, ...]) -> ast.expr:
    """The expression of a tuple, list or dict display at an element path (see Evidence.elements), as far as
    the displays written go: what a message cites as returned (`jnp.arange(n)` of `return jnp.arange(n), n`)."""
    for key in elements:
        element = display_element(display, key)
        if element is None:
            break
        display = element
    return display


def _casts(value: ast.expr, index: ModuleIndex) -> bool:
    """A cast to an array of something (`jnp.astype(x, int)`, `jnp.asarray(x)`)."""
    return isinstance(value, ast.Call) and bool(value.args) and index.qualify(value.func) in np_knowledge.ARRAY_CASTS


def _cast_kept(value: ast.expr, atoms: Iterable[tuple[ast.expr, bool]], index: ModuleIndex,
               scalars: dict[str, str]) -> ast.expr:
    """What a cast to an array casts (`x` of `jnp.astype(x, int)`), when a test that holds where it is made
    says that is no scalar: `isinstance(x, T)` fails, and T holds only scalar types, or where it holds the
    code makes a Python scalar of `x` (`scalars`: a test, as `ast.dump` gives it, -> the dump of what is made
    a scalar there: `int(x)`); else the value."""
    if not _casts(value, index):
        return value
    assert isinstance(value, ast.Call)
    cast = ast.dump(value.args[0])
    for test, holds in atoms:
        tested = isinstance_test(test) if not holds else None
        if tested is not None and ast.dump(tested[0]) == cast and (
                scalars.get(ast.dump(test)) == cast or _scalar_types(tested[1], index)):
            return value.args[0]
    return value


def _scalar_made(value: ast.expr, function: FunctionInfo | None, index: ModuleIndex) -> str | None:
    """The dump of what a value makes a Python scalar of: `int(x)`, `float(x)` (the builtins), or a call of
    a parameter of the function given the type (`typ(x)`)."""
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and isinstance(value.func, ast.Name)):
        return None
    name = value.func.id
    scalar = name in np_knowledge.SCALAR_TYPES and index.is_builtin(name, function)
    return ast.dump(value.args[0]) if scalar or (function is not None and name in function.all_params) else None


def _scalar_tests(test: ast.expr, made: str) -> dict[str, str]:
    """A test that holds where a Python scalar is made of something (`made`, dumped), by the dump of it and of
    each alternative of an `or` (any one of them may be the one that holds)."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    return {ast.dump(part): made for part in parts}


def _scalar_types(types: ast.expr, index: ModuleIndex) -> bool:
    """An isinstance type, or tuple of types (written there or held by a module-level name), of scalars only."""
    written = written_as(types, None, index)
    candidates = [written_as(c, None, index) for c in (written.elts if isinstance(written, ast.Tuple) else [written])]
    return bool(candidates) and all(
        (index.qualify(c) or (c.id if isinstance(c, ast.Name) else "")) in np_knowledge.SCALAR_TYPES
        for c in candidates)


def _built_by(evidence: Evidence, helper: FunctionInfo) -> Evidence:
    """Evidence returned by a helper: its own locals built the value before returning it (`sizes.append`
    there is building, not changing it later), so they are no holders to watch."""
    trail = tuple(hop._replace(holder=None) if hop.holder is not None and hop.holder.function is helper else hop
                  for hop in evidence.trail)
    return evidence._replace(trail=trail)


def _joined(evidence: list[Evidence]) -> list[Evidence]:
    """One evidence per origin and what rules judge of it (kind, class, who holds it, whether it is shared
    or made once): the same value reached along several paths is one value, kept with its first path."""
    kept: dict[tuple, Evidence] = {}
    for e in evidence:
        key = (e.kind, e.leaf, e.what, id(e.node), e.shared, id(e.cls), e.constructed, e.made_once, e.elements,
               tuple((h.name, id(h.cls), id(h.function)) for h in e.holders))
        kept.setdefault(key, e)
    return list(kept.values())


def _unstarred(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Starred) else node


def _first_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        return _unstarred(call.args[0])
    return call.keywords[0].value if call.keywords else None


_PLACEHOLDER = "\0"


def _rename(evidence: Evidence, via: str) -> Evidence:
    """Attribute evidence is cached once per class; the access path (`self.x`, `obj.x`) is filled in."""
    trail = tuple(h._replace(via=via) if h.via == _PLACEHOLDER else h for h in evidence.trail)
    return evidence._replace(trail=trail)
