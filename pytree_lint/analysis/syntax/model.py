"""The semantic model of one module, built from its `ast` in one pass over the statements.

It holds the import aliases, the classes (their methods, class-level fields and every assignment to an
instance attribute), module-level functions and bindings, and each statement-level call with its scope.
Deeper questions are answered lazily and once: a function's local bindings and returns (one walk of its
body), every call in the module (one walk of the whole tree, made only when a rule asks).
"""

from __future__ import annotations

import ast
import copy
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache, cached_property
from itertools import repeat
from typing import TYPE_CHECKING, TypeVar, Union

from ...knowledge.jax import SHAPE_MODULES, SHAPE_PARAMETERS
from ...knowledge.python import FILLING_METHODS, MUTATING_METHODS, NEUTRAL_BASES, SETATTR_CALLS
from ..record import field, record, remade
from .names import MEANT, AliasTable, dotted_name
from .source import Source, home_of

if TYPE_CHECKING:
    from ..project.modules import Definition, ModuleView
    from ..project.summary import Inline

Scope = Union["ClassInfo", "FunctionInfo"]
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@record
class Param:
    """A parameter of a def or lambda, with its annotation and default (ast keeps those apart)."""

    node: ast.arg
    default: ast.expr | None = None

    @property
    def name(self) -> str:
        return self.node.arg

    @property
    def annotation(self) -> ast.expr | None:
        return self.node.annotation


@record
class FunctionInfo:
    """A def or lambda; `cls` is the class whose body defines it (methods only)."""

    node: FunctionNode
    cls: ClassInfo | None = None
    parent: Scope | None = None

    @property
    def is_lambda(self) -> bool:
        return isinstance(self.node, ast.Lambda)

    @property
    def defined_once(self) -> bool:
        """Its def runs once, as the program sets up (at module level, or in a class body there): each of its
        defaults is one object for every call."""
        scope = self.parent
        while scope is not None:
            if isinstance(scope, FunctionInfo):
                return False
            scope = scope.parent
        return True

    @property
    def name(self) -> str:
        return "<lambda>" if self.is_lambda else self.node.name

    @property
    def name_node(self) -> ast.AST:
        """Where the function is named: the def (reported at its name), or the lambda itself."""
        return self.node

    @property
    def body(self) -> list[ast.stmt] | ast.expr:
        return self.node.body

    @cached_property
    def decorator_names(self) -> list[str]:
        if self.is_lambda:
            return []
        return [dotted_name(d) or "" for d in self.node.decorator_list]

    @property
    def is_staticmethod(self) -> bool:
        return "staticmethod" in self.decorator_names

    @property
    def is_classmethod(self) -> bool:
        return "classmethod" in self.decorator_names

    @cached_property
    def positional_params(self) -> list[Param]:
        """Every positional parameter, `self` and `cls` included, with its default."""
        arguments = self.node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
        return [Param(node, default) for node, default in zip(positional, defaults)]

    @cached_property
    def keyword_only_params(self) -> list[Param]:
        arguments = self.node.args
        return [Param(node, default) for node, default in zip(arguments.kwonlyargs, arguments.kw_defaults)]

    @cached_property
    def params(self) -> list[Param]:
        """Positional parameters as a caller fills them: without the `cls` of a classmethod."""
        positional = self.positional_params
        if self.cls is not None and self.is_classmethod:
            positional = positional[1:]
        return positional

    @property
    def argument_params(self) -> list[tuple[int | None, Param]]:
        """Each named parameter a caller fills, with its position (None: keyword-only)."""
        return [*enumerate(self.params), *((None, p) for p in self.keyword_only_params)]

    @property
    def star_param(self) -> ast.arg | None:
        return self.node.args.vararg

    @cached_property
    def all_params(self) -> dict[str, Param]:
        arguments = self.node.args
        found = [*self.positional_params, *self.keyword_only_params]
        found.extend(Param(star) for star in (arguments.vararg, arguments.kwarg) if star is not None)
        return {param.name: param for param in found}

    @cached_property
    def self_name(self) -> str | None:
        """The name of the instance parameter of a method, e.g. `self`."""
        if self.cls is None or self.is_staticmethod or self.is_classmethod or not self.params:
            return None
        return self.params[0].name

    @cached_property
    def _body_facts(self) -> tuple[dict[str, list[Binding]], list[ast.Return], dict[int, int],
                                   dict[int, tuple[int, ...]]]:
        """One walk over the body's statements (nested defs not entered): each local name's bindings,
        the returns, and every statement's position in source order and the blocks around it."""
        bindings: dict[str, list[Binding]] = {}
        returns: list[ast.Return] = []
        order: dict[int, int] = {}
        blocks: dict[int, tuple[int, ...]] = {}
        if self.is_lambda:
            return bindings, returns, order, blocks

        def bind(target, value, statement, block: tuple[int, ...], overwrites: bool) -> None:
            for name_node, assigned in assignment_pairs(target, value):
                if isinstance(name_node, ast.Name):
                    bindings.setdefault(name_node.id, []).append(
                        Binding(assigned, statement, order[id(statement)], overwrites and not block, block, overwrites))

        for position, (statement, block) in enumerate(walk_statements(self.node.body)):
            order[id(statement)] = position
            blocks[id(statement)] = block
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    bind(target, statement.value, statement, block, True)
            elif isinstance(statement, ast.AnnAssign):
                if statement.value is not None:
                    bind(statement.target, statement.value, statement, block, True)
            elif isinstance(statement, ast.Return):
                returns.append(statement)
            elif isinstance(statement, (ast.For, ast.AsyncFor)):
                bind(statement.target, None, statement, block, False)
            elif isinstance(statement, (ast.With, ast.AsyncWith)):
                for item in statement.items:
                    if item.optional_vars is not None:
                        bind(item.optional_vars, None, statement, block, False)
            elif isinstance(statement, DEFINITIONS):
                value = statement if isinstance(statement, FUNCTIONS) else None
                bindings.setdefault(statement.name, []).append(
                    Binding(value, statement, position, not block, block, True))
        return bindings, returns, order, blocks

    def declared_type(self, node: ast.expr, generic: GenericName | None = None,
                      attribute: AttributeType | None = None, depth: int = 0) -> ast.expr | None:
        """What `node` is declared as here, when the code says: a parameter never rebound (`model: MLP`), an
        attribute of `self` its class annotates (`self.layers: list[Layer]`), an item of something declared a
        collection, by index (`models["main"]`), loop or comprehension (`for m in models`, `for k, m in
        models.items()`, `for i, m in enumerate(self.layers)`); None otherwise. `X | None` is `X`. `generic`
        names what a subscripted annotation's head stands for (the module's imports know `L` of `List as L`);
        `attribute` gives the annotation a declared class gives an attribute (`model.blocks` of `model: Model`)."""
        generic = generic or spelled_name
        found = None
        if depth > MAX_DECLARED_DEPTH:
            return None
        if isinstance(node, ast.Name):
            param = self.all_params.get(node.id)
            if param is not None:
                if param.annotation is not None and node.id not in self.local_bindings \
                        and node.id not in self._comprehension_targets:
                    found = param.annotation
            else:
                found = self._iterated_type(node.id, generic, attribute, depth)
        elif isinstance(node, ast.Attribute) and self.cls is not None and is_name(node.value, self.self_name or "") \
                and node.value.id not in self.local_bindings:
            found = self.cls.declared_attribute(node.attr)
        elif isinstance(node, ast.Attribute) and attribute is not None:
            owner = self.declared_type(node.value, generic, attribute, depth + 1)
            found = attribute(owner, node.attr) if owner is not None else None
        elif isinstance(node, ast.Subscript):
            container = self.declared_type(node.value, generic, attribute, depth + 1)
            found = None if container is None else (collection_item(container, True, generic)
                                                    or collection_item(container, False, generic))
        return not_optional(unquoted(found), generic) if found is not None else None

    def _iterated_type(self, name: str, generic: GenericName, attribute: AttributeType | None,
                       depth: int) -> ast.expr | None:
        """The declared item type of a name every binding of which iterates a declared collection."""
        iterations = self._iterations(name)
        found = None
        for collection, values in iterations or ():
            container = self.declared_type(collection, generic, attribute, depth + 1)
            found = collection_item(container, values, generic) if container is not None else None
            if found is None:
                return None
        return found

    def items_of(self, node: ast.expr) -> ast.expr | None:
        """The collection `node` is an item of: `layers` of `layers[0]`, or of a name every binding of which
        iterates that one collection (`for layer in tower.layers`, in loops or comprehensions)."""
        if isinstance(node, ast.Subscript):
            return node.value
        iterations = self._iterations(node.id) if isinstance(node, ast.Name) else None
        if not iterations or len({ast.dump(collection) for collection, _values in iterations}) != 1:
            return None
        return iterations[0][0]

    def _iterations(self, name: str) -> list[tuple[ast.expr, bool]] | None:
        """(the collection, whether its values are iterated) for each binding of a name, when every binding
        is a loop or comprehension over one: `for m in models`, `for k, m in models.items()` (values), `for
        i, m in enumerate(models)`, `for m in models.values()`; None when one binding is something else."""
        loops = [(b.statement.target, b.statement.iter) for b in self._body_facts[0].get(name, [])
                 if isinstance(b.statement, (ast.For, ast.AsyncFor))]
        if len(loops) != len(self._body_facts[0].get(name, [])):
            return None  # also assigned otherwise
        found = []
        for target, iterable in [*loops, *self._comprehension_targets.get(name, [])]:
            values = False
            if isinstance(target, ast.Tuple) and len(target.elts) == 2 and is_name(target.elts[1], name) \
                    and isinstance(iterable, ast.Call):
                if is_name(iterable.func, "enumerate") and len(iterable.args) == 1:
                    iterable = iterable.args[0]
                elif isinstance(iterable.func, ast.Attribute) and iterable.func.attr == "items" and not iterable.args:
                    iterable, values = iterable.func.value, True
                else:
                    return None
            elif not is_name(target, name):
                return None
            elif isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
                    and iterable.func.attr == "values" and not iterable.args:
                iterable, values = iterable.func.value, True
            found.append((iterable, values))
        return found

    @cached_property
    def _comprehension_targets(self) -> dict[str, list[tuple[ast.expr, ast.expr]]]:
        """Each name a comprehension of the body binds, with the (target, iterable) of every such binding."""
        found: dict[str, list[tuple[ast.expr, ast.expr]]] = {}
        for comprehension in self.nodes(ast.comprehension):
            for name in nodes_of(comprehension.target, ast.Name):
                found.setdefault(name.id, []).append((comprehension.target, comprehension.iter))
        return found

    @cached_property
    def guards(self) -> dict[int, tuple[Guards, Guards]]:
        """For each statement of the body (by id): the tests around it and the tests of the `if`s before it
        whose one branch leaves (see `guarded_statements`)."""
        return {id(statement): (tests, exits) for statement, tests, exits in guarded_statements(self)}

    @cached_property
    def return_conditions(self) -> dict[int, list[tuple[ast.expr, bool]]]:
        """The type tests that hold or fail where each return runs (see `return_conditions`)."""
        return return_conditions(self)

    @cached_property
    def changed_names(self) -> frozenset[str]:
        """The names the body changes after binding them (see `changed_names`)."""
        return frozenset() if self.is_lambda else changed_names(self.node)

    @cached_property
    def local_bindings(self) -> dict[str, list[ast.expr | ast.FunctionDef | None]]:
        """The values each local name can hold at the end of the body (None: assigned, value unknown).

        An assignment at the top level of the body overwrites the ones before it: `aux = []`,
        `aux.append(...)`, `aux = tuple(aux)` leaves only the tuple.
        """
        return {name: [b.value for b in live_bindings(entries)] for name, entries in self._body_facts[0].items()}

    def assignments_of(self, name: str) -> list[Binding]:
        """Every binding of a local name in the body (nested defs not entered), in source order."""
        return self._body_facts[0].get(name, [])

    def statement_holding(self, node: ast.AST) -> ast.stmt | None:
        """The innermost statement of the body that holds `node` (a nested def's own statements are not
        entered): where the names it reads are bound (see bindings_before)."""
        if self.is_lambda:
            return None
        start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        found = None
        for statement, _blocks in walk_statements(self.node.body):
            if (statement.lineno, statement.col_offset) <= start <= (statement.end_lineno, statement.end_col_offset):
                found = statement
        return found

    def bindings_before(self, name: str, statement: ast.AST | None) -> list[Binding]:
        """The bindings of `name` that can reach `statement` (all of them when it is not in this body):
        those before it in source order, from the last unconditional one on."""
        entries = self._body_facts[0].get(name, [])
        limit = self._body_facts[2].get(id(statement)) if statement is not None else None
        if limit is not None:
            entries = [b for b in entries if b.order < limit]
        return live_bindings(entries)

    def overwriting_before(self, name: str, statement: ast.AST) -> Binding | None:
        """The last assignment before `statement`, in its block or one around it, that overwrites `name`:
        what `name` holds there (`if ints is None: ints = [...]`, then `onp.array(ints)` in the same block);
        None when no such assignment is made."""
        limit, blocks = self._body_facts[2].get(id(statement)), self._body_facts[3].get(id(statement))
        if limit is None or blocks is None:
            return None
        return max((binding for binding in self.assignments_of(name)
                    if binding.overwrites and binding.order < limit and blocks[:len(binding.block)] == binding.block),
                   key=lambda binding: binding.order, default=None)

    @cached_property
    def _rebinds(self) -> dict[tuple[str, int], bool]:
        return {}

    def rebinds_before(self, name: str, statement: ast.AST | None) -> bool:
        """Every path through the body's statements before `statement` assigns `name` (or leaves the
        function): what the caller passed for it cannot reach `statement`."""
        line = getattr(statement, "lineno", None)
        if line is None or self.is_lambda:
            return False
        key = (name, line)  # asked for every parameter a value reaches: answered once
        if key not in self._rebinds:
            self._rebinds[key] = _always_rebinds([s for s in self.node.body if (s.end_lineno or s.lineno) < line],
                                                 name)
        return self._rebinds[key]

    @property
    def return_statements(self) -> list[ast.Return]:
        return self._body_facts[1]

    @cached_property
    def _preorder(self) -> list[ast.AST]:
        return nodes_of(self.node.body, ast.AST)

    def nodes(self, *kinds: type) -> list[ast.AST]:
        """The nodes of these types in the body (nested functions included), in source order: every rule
        that asks gets them from one walk of the body."""
        return [node for node in self._preorder if isinstance(node, kinds)]


@record
class Binding:
    """A value assigned to a local name, by which statement, where in the body, and whether always."""

    value: ast.expr | ast.FunctionDef | None
    statement: ast.AST
    order: int
    unconditional: bool
    # The blocks around the statement (ids of their statement lists; none at the body's top level), and
    # whether it overwrites the name there (an assignment does; a loop's or a `with`'s target may not run).
    block: tuple[int, ...] = ()
    overwrites: bool = False


@record
class AttributeAssignment:
    """`self.<attr> = value` (or `+=`, or `object.__setattr__(self, "attr", value)`) inside a method."""

    attr: str
    value: ast.expr | None
    statement: ast.AST
    method: FunctionInfo
    augmented: bool = False
    unconditional: bool = False  # at the top level of the method body, not inside if/for/try/...


@record
class ClassField:
    """A class-level `name: annotation = value` or `name = value`."""

    name: str
    annotation: ast.expr | None
    value: ast.expr | None
    statement: ast.AST


@record
class ClassInfo:
    node: ast.ClassDef
    parent: Scope | None = None
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    fields: dict[str, ClassField] = field(default_factory=dict)
    assignments: dict[str, list[AttributeAssignment]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def bases(self) -> list[ast.expr]:
        return self.node.bases

    @property
    def keywords(self) -> dict[str, ast.expr]:
        """The class statement's keywords (`metaclass=Meta`)."""
        return {k.arg: k.value for k in self.node.keywords if k.arg is not None}

    @property
    def decorators(self) -> list[ast.expr]:
        return self.node.decorator_list

    @property
    def bound_names(self) -> set[str]:
        """The names its body binds (fields, class attributes, methods): a subclass that binds neither a base's
        field nor `__init__` keeps the field as the base declares it."""
        return {*self.fields, *self.methods}

    @property
    def declared_annotations(self) -> list[ast.expr]:
        """The annotations it gives its attributes, in its body or where a method assigns them."""
        return [*(f.annotation for f in self.fields.values() if f.annotation is not None),
                *(a.statement.annotation for assigned in self.assignments.values() for a in assigned
                  if isinstance(a.statement, ast.AnnAssign))]

    def declared_attribute(self, attr: str) -> ast.expr | None:
        """The annotation the class gives an attribute: in its body (`layers: list[Layer]`) or where a method
        assigns it (`self.layers: list[Layer] = layers`)."""
        field = self.fields.get(attr)
        if field is not None and field.annotation is not None:
            return field.annotation
        return next((a.statement.annotation for a in self.assignments.get(attr, ())
                     if isinstance(a.statement, ast.AnnAssign)), None)

    @staticmethod
    def name_of_cls(method: FunctionInfo) -> str | None:
        """The name a classmethod calls its class by (its first parameter, usually `cls`)."""
        parameters = method.positional_params
        return parameters[0].name if parameters else None


@record
class CallSite:
    """A call made by a statement itself (`register(...)`, `Box = register(Box)`), with its scope and the
    `for` loops of that scope it is in, outermost first."""

    node: ast.Call
    scope: Scope | None
    loops: tuple[ast.For | ast.AsyncFor, ...] = ()


# The indexes a summary made without a project, lent to the lint of the same tree (see ModuleIndex.lend), by
# the id of their tree, until they are closed.
_LENT: dict[int, ModuleIndex] = {}


@record
class ModuleIndex:
    tree: ast.Module
    source: Source
    aliases: AliasTable = field(default_factory=AliasTable)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)  # the last def of each name
    # Names the module defines more than once with `def` (overloads a dispatcher chooses among, fallbacks):
    # which one a call reaches is decided when it runs.
    redefined: set[str] = field(default_factory=set)
    bindings: dict[str, list[ast.expr | None]] = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    decorated_classes: list[ClassInfo] = field(default_factory=list)
    all_classes: list[ClassInfo] = field(default_factory=list)
    # The project as this module sees it (analysis/project/modules.py): imported names followed across modules.
    project: ModuleView | None = None
    _mentioning: dict[tuple[str, ...], list[ast.stmt]] = field(default_factory=dict)
    _calls_spelling: dict[tuple[str, ...], list[tuple[ast.Call, bool]]] = field(default_factory=dict)
    _passing: dict[str, list[ast.Call]] = field(default_factory=dict)
    _inlined: dict[int, ast.expr | None] = field(default_factory=dict)
    _inline_names: dict[str, frozenset[str]] = field(default_factory=dict)  # per local name: inline_names
    _spellings: dict[frozenset[str], tuple[str, ...]] = field(default_factory=dict)
    _bases: dict[tuple[ClassInfo, bool], list[ClassInfo]] = field(default_factory=dict)  # see class_and_bases
    _qualified: dict[ast.AST, str | None] = field(default_factory=dict)  # see qualify
    # The index whose classes and functions this one reads (see build), and how many read this one's.
    owner: ModuleIndex | None = None
    readers: int = 0

    @classmethod
    def build(cls, tree: ast.Module, source: Source, project: ModuleView | None = None) -> ModuleIndex:
        """The module's index: for a tree a summary has indexed and lent (see lend), one reading that index's
        classes, functions and statements, with only what depends on the project found anew."""
        lent = _LENT.get(id(tree)) if project is not None else None
        if lent is not None and lent.tree is tree:
            lent.readers += 1
            # Its syntax is shared; what depends on the project (inlined helpers, spellings through imports) is not.
            return remade(lent, source=source, project=project, _inlined={}, _spellings={}, _bases={},
                          _qualified={}, owner=lent, readers=0)
        index = cls(tree, source, project=project)
        _Indexer(index).statements(tree.body)
        return index

    def lend(self) -> None:
        """Let the lint of the same tree (Project.adopt, or a module summarised before its lint) read this
        index, made without a project, until it is closed: the tree was indexed twice (4% of a cold netket
        run)."""
        _LENT[id(self.tree)] = self

    def close(self) -> None:
        """Break the cycles of the module's classes and their methods (each names the other; see
        ModuleAnalysis.close) once neither the index that made them nor one reading them (see build) is in
        use. The index is of no use after."""
        owner = self.owner
        if owner is not None:
            owner.readers -= 1
            if owner.readers == 0 and _LENT.get(id(owner.tree)) is not owner:
                owner._break_cycles()
            return
        if _LENT.get(id(self.tree)) is self:
            del _LENT[id(self.tree)]
        if self.readers == 0:
            self._break_cycles()

    def _break_cycles(self) -> None:
        for cls in self.all_classes:
            cls.methods.clear()
            cls.assignments.clear()

    @cached_property
    def _texts(self) -> dict[int, str]:
        return {id(statement): text for statement, text in self.statement_texts}

    @cached_property
    def statement_texts(self) -> list[tuple[ast.stmt, str]]:
        lines = self.source.lines
        return [(statement, "".join(lines[first_line(statement) - 1:statement.end_lineno]))
                for statement in self.tree.body]

    def statements_mentioning(self, words: tuple[str, ...]) -> list[ast.stmt]:
        """The top-level statements whose text holds one of `words`: where a use of a name must be (the
        expressions below the statements are walked only there). Each question is answered once."""
        key = tuple(sorted(words))
        if key not in self._mentioning:
            self._mentioning[key] = [statement for statement, text in self.statement_texts
                                     if any(word in text for word in words)]
        return self._mentioning[key]

    @cached_property
    def called_names(self) -> frozenset[str]:
        """The names the module's code calls (`f(...)`, `self.f(...)`), a `def` line not counted: whether a
        call here may run a function, asked of every function a summary keeps in one search of the text
        (callers_of, per function, searched it once each: 3% of a cold equinox run). A name written so in a
        comment counts too, not one in a docstring: an example there calls nothing (jax-md's
        `neighbor_list_multi_image` shows a call of itself in its own)."""
        text = self._text_without_docstrings  # a callee's last name is its reversed chain's first (no place needed)
        spelled = Counter(chain.partition(".")[0].strip()[::-1] for chain in _CALLED_REVERSED.findall(text[::-1]))
        spelled.subtract(_DEFINED_NAME.findall(text))
        return frozenset(name for name, count in spelled.items() if count > 0)

    @cached_property
    def _text_without_docstrings(self) -> str:
        """The module's text, the lines that only the docstrings of the module, its classes and its functions
        and methods fill left empty."""
        lines = list(self.source.lines)
        bodies = [self.tree.body, *(cls.node.body for cls in self.all_classes),
                  *(function.node.body for function in self.defs if not function.is_lambda)]
        for body in bodies:
            first = body[0] if body else None
            if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)) or first.end_lineno is None:
                continue
            start, end = first.lineno, first.end_lineno
            if lines[start - 1].encode()[:first.col_offset].strip():
                start += 1  # code before it on its first line
            if lines[end - 1].encode()[first.end_col_offset or 0:].strip():
                end -= 1  # and after it on its last
            for number in range(start, end + 1):
                lines[number - 1] = "\n"
        return "".join(lines)

    def calls_mentioning(self, words: tuple[str, ...]) -> list[tuple[ast.Call, bool]]:
        """Every call that covers a line spelling one of `words` (a call of `f` spells `f`, on its first line
        or, written over several, another), in source order, each with whether it is inside a function: the
        walk enters only the nodes covering such a line. Each question is answered once."""
        key = tuple(sorted(words))
        if key not in self._calls_spelling:
            found: list[tuple[ast.Call, bool]] = []
            for statement, lines in self.lines_spelling(words):
                found.extend(_calls_on_lines(statement, lines, covering=True))
            self._calls_spelling[key] = found
        return self._calls_spelling[key]

    def lines_spelling(self, words: tuple[str, ...], outside_classes: bool = False
                       ) -> list[tuple[ast.stmt, set[int]]]:
        """Each top-level statement whose text holds one of `words`, with the lines of the module that do
        (`outside_classes`: not the class statements)."""
        if not words:
            return []
        texts = self._texts
        return [(statement, _lines_of(statement, texts[id(statement)], _occurrences(texts[id(statement)], words)))
                for statement in self.statements_mentioning(words)
                if not (outside_classes and isinstance(statement, ast.ClassDef))]

    def calls_of(self, names: tuple[str, ...]) -> list[tuple[ast.Call, bool]]:
        """The calls whose callee is one of `names`, an attribute of one or one reached through a module
        (`Mesh(`, `Mesh.create(`, `mesh.Mesh(`), in source order, each with whether it is inside a function.
        Found from the text: only the lines that spell such a call are walked to (a call of `print` on
        another line of the class is never visited)."""
        found: list[tuple[ast.Call, bool]] = []
        for statement, text in self.statement_texts:
            if not any(name in text for name in names):
                continue
            lines = _lines_of(statement, text, [start for start, callee in _callees(text)
                                                if _calls_one(callee, names)])
            if lines:
                found.extend(_calls_on_lines(statement, lines))
        return found

    def calls_named(self, name: str) -> list[ast.Call]:
        """The module's calls written `name(...)`: of a function by its own name, not through an object."""
        return [call for call, _ in self.calls_mentioning((name,)) if is_name(call.func, name)]

    def calls_passing(self, name: str) -> list[ast.Call]:
        """The calls that pass the name `name` as an argument (`jax.eval_shape(traced, x)`), found from the
        lines that spell it. Once per name."""
        if name not in self._passing:
            found: list[ast.Call] = []
            for statement in self.statements_mentioning((name,)):
                text = self._texts[id(statement)]
                lines = _lines_of(statement, text, [match.start() for match in
                                                    re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", text)])
                found.extend(call for call, _ in _calls_on_lines(statement, lines, covering=True)
                             if any(isinstance(argument, ast.Name) and argument.id == name
                                    for argument in [*call.args, *(k.value for k in call.keywords)]))
            self._passing[name] = found
        return self._passing[name]

    def inlined(self, expr: ast.Call | ast.Attribute, caller: FunctionInfo | None) -> ast.expr | None:
        """What a call of a function or method of the module whose body only returns an expression (`def
        pair(p): return p.x, p.y`), or a read of a property of the caller's instance (`self.pair`), is written
        as at the call: the returned expression, its parameters replaced by the arguments. None for anything
        else (a body that does more, star arguments, a callee the module does not define). Once per call."""
        key = id(expr)
        if key not in self._inlined:
            self._inlined[key] = self._inline(expr, caller)
        return self._inlined[key]

    def _inline(self, expr: ast.Call | ast.Attribute, caller: FunctionInfo | None) -> ast.expr | None:
        bound: dict[str, ast.expr] = {}
        if isinstance(expr, ast.Attribute):
            callee = self.method_of(expr.value, expr.attr, caller)
            if callee is None or not PROPERTY_DECORATORS & set(callee.decorator_names):
                return None
            args: list[ast.expr] = []
            keywords: list[ast.keyword] = []
        else:
            args, keywords = expr.args, expr.keywords
            if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
                return None
            func = expr.func
            if isinstance(func, ast.Name):
                callee = self.function_named(func.id, caller)
            elif isinstance(func, ast.Attribute):
                callee = self.method_of(func.value, func.attr, caller)
            else:
                return None
            if callee is None:
                return self._inline_elsewhere(expr, caller)
            if PROPERTY_DECORATORS & set(callee.decorator_names):
                return None
        value = returned_expression(callee)
        if value is None or callee.star_param is not None or callee.node.args.kwarg is not None:
            return None
        parameters = callee.positional_params
        if callee.cls is not None and not callee.is_staticmethod and parameters:
            receiver = expr.value if isinstance(expr, ast.Attribute) else expr.func.value  # type: ignore[union-attr]
            bound[parameters[0].name] = receiver  # `self` (or `cls`) is what the method is called on
            parameters = parameters[1:]
        arguments = bound_arguments(args, keywords, [(p.name, p.default) for p in parameters],
                                     [(p.name, p.default) for p in callee.keyword_only_params])
        if arguments is None:
            return None
        return _Substituted({**bound, **arguments}, expr).visit(copy.deepcopy(value))

    def _inline_elsewhere(self, call: ast.Call, caller: FunctionInfo | None) -> ast.expr | None:
        """A call of another project module's function whose summary holds its returned expression."""
        if isinstance(call.func, ast.Name) and caller is not None and (
                call.func.id in caller.all_params or call.func.id in caller.local_bindings):
            return None
        definition = self.definition(call.func)
        facts = definition.function if definition is not None else None
        inline = facts.inline if facts is not None else None
        bound = bound_arguments(call.args, call.keywords, [(name, None) for name in inline.positional],
                                 [(name, None) for name in inline.keyword_only]) if inline is not None else None
        if inline is None or bound is None:
            return None
        return inline_expression(inline, bound, call)

    def function_named(self, name: str, caller: FunctionInfo | None) -> FunctionInfo | None:
        """The def a name calls: a function nested in the caller, or the module's own."""
        if caller is not None and not caller.is_lambda:
            if name in caller.all_params:
                return None
            bound = caller.local_bindings.get(name)
            if bound is not None:
                return FunctionInfo(bound[0], parent=caller) if len(bound) == 1 and isinstance(
                    bound[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        found = self.module_function(name)
        return found if found is not None and not found.is_lambda else None

    def callers_of(self, function: FunctionInfo) -> list[tuple[ast.Call, FunctionInfo | None]]:
        """The module's calls of one of its functions or methods by name (`helper(...)`, `self.helper(...)`,
        `Cls.helper(...)`), each with the function it is in (None: module level)."""
        found = []
        for call, _in_function in self.calls_mentioning((function.name,)):
            caller = self.enclosing_function(call)
            func = call.func
            target = self.function_named(func.id, caller) if isinstance(func, ast.Name) else \
                self.method_of(func.value, func.attr, caller) if isinstance(func, ast.Attribute) else None
            if target is not None and target.node is function.node:
                found.append((call, caller))
        return found

    def method_of(self, receiver: ast.expr, name: str, caller: FunctionInfo | None) -> FunctionInfo | None:
        """The method `receiver.name` runs: on the caller's instance (or class, in a classmethod; or
        `type(self)`), or on a class of the module named directly (`Box.make(...)`)."""
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "type" \
                and len(receiver.args) == 1 and not receiver.keywords and self.is_builtin("type", caller):
            receiver = receiver.args[0]  # `type(self).make(...)`: a method of the instance's class
        if not isinstance(receiver, ast.Name):
            return None
        cls = None
        if caller is not None and caller.cls is not None and caller.positional_params \
                and receiver.id == caller.positional_params[0].name and not caller.is_staticmethod:
            cls = caller.cls
        elif caller is None or receiver.id not in caller.all_params:
            cls = self.resolve_class(receiver)
        return self.find_method(cls, name) if cls is not None else None

    def qualify(self, node: ast.AST) -> str | None:
        """The dotted name `node` refers to through the module's imports: a library's public name, or,
        within the project, the module and name where it is defined (through re-exports and aliases). Once
        per node: the analysis asks about most nodes twice or more (equinox: 10,500 questions, 4,700 nodes)."""
        if node not in self._qualified:
            qualified = self.aliases.qualify(node)
            self._qualified[node] = qualified if qualified is None or self.project is None \
                else self.project.resolve(qualified)
        return self._qualified[node]

    def spellings(self, names: frozenset[str]) -> tuple[str, ...]:
        """The words a use of one of `names` (qualified) must spell in this module: the local name bound to
        it (`make` of `from dataclasses import dataclass as make`), or its last part when the module binds a
        module above it (`dataclass` of `dataclasses.dataclass`, `register_pytree_node` of
        `jtu.register_pytree_node`) or a star import brings it. A text with none of them uses none. Once
        per set."""
        if names not in self._spellings:
            words = {name.rsplit(".", 1)[-1] for name in names if name.rsplit(".", 1)[0] in
                     self.aliases.star_modules}
            below = _last_parts_below(names)
            for local, target in self.aliases.items():
                resolved = self.project.resolve(target) if self.project is not None else target
                for each in {target, resolved}:
                    if each in names:
                        words.add(local)
                    else:
                        words.update(below.get(each, ()))
            self._spellings[names] = tuple(words)
        return self._spellings[names]

    def generic_name(self, node: ast.expr) -> str | None:
        """The last part of what a subscripted annotation's head stands for through the module's imports
        (`Optional` for `O` of `from typing import Optional as O`), or as spelled when not imported."""
        qualified = self.aliases.qualify(node)
        return qualified.rsplit(".", 1)[-1] if qualified is not None else spelled_name(node)

    def declared_type(self, node: ast.expr, function: FunctionInfo | None) -> ast.expr | None:
        """What `node` is declared as in `function` (see FunctionInfo.declared_type), its imports and
        classes read."""
        return function.declared_type(node, self.generic_name, self.attribute_type) if function is not None else None

    def holders_of(self, class_name: str) -> tuple[tuple[str, str], ...]:
        """(class, attribute) for each attribute a class of the module declares a collection of the class
        `class_name` (`stacks: list[Stack]`): code given one of its objects reaches objects of the class
        through it (`for stack in tower.stacks`)."""
        return self._holders.get(class_name, ())

    def changes_elsewhere(self, class_name: str) -> list:
        """The in-place changes other project modules make to objects of the module's class `class_name`:
        through what they declare as one, or through the module's holders of it (see holders_of)."""
        if self.project is None:
            return []
        return self.project.changes_elsewhere(class_name, self.holders_of(class_name))

    @cached_property
    def _holders(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """holders_of for every class name, from one pass over the classes' declared attributes."""
        found: dict[str, list[tuple[str, str]]] = {}
        for cls in self.classes.values():
            for attr, item in self.held_items(cls):
                if isinstance(item, ast.Name) and item.id != cls.name:
                    found.setdefault(item.id, []).append((cls.name, attr))
        return {name: tuple(holders) for name, holders in found.items()}

    def held_items(self, cls: ClassInfo) -> list[tuple[str, ast.expr]]:
        """(attribute, item annotation) for each attribute the class declares a collection of something
        (`stacks: list[Stack]`, `by_name: dict[str, Stack]`, optional or quoted too)."""
        found = []
        for attr in dict.fromkeys([*cls.fields, *cls.assignments]):
            declared = cls.declared_attribute(attr)
            if declared is None:
                continue
            declared = not_optional(unquoted(declared), self.generic_name)
            item = collection_item(declared, False, self.generic_name) or collection_item(
                declared, True, self.generic_name)
            if item is not None:
                found.append((attr, unquoted(item)))
        return found

    def attribute_type(self, annotation: ast.expr, attr: str) -> ast.expr | None:
        """The annotation the class an annotation names (of this module or another of the project) gives
        its attribute `attr`, or one of its bases here gives it."""
        cls = self.class_named(annotation) if isinstance(annotation, (ast.Name, ast.Attribute)) else None
        return next((found for owner in (self.class_and_bases(cls) if cls is not None else ())
                     if (found := owner.declared_attribute(attr)) is not None), None)

    def definition(self, node: ast.AST) -> Definition | None:
        """What another module of the project defines under the name `node` refers to."""
        if self.project is None:
            return None
        return self.project.definition(self.qualify(node))

    def code(self, node: ast.AST) -> str:
        return self.source.code(node)

    def snippet(self, node: ast.AST) -> str:
        return self.source.snippet(node)

    def is_builtin(self, name: str, function: FunctionInfo | None = None) -> bool:
        """`name` means Python's builtin here: neither imported nor bound by the module, nor a local or
        parameter of `function` (None: at module level)."""
        if self.aliases.is_module_local(name) or self.aliases.qualify_name(name):
            return False
        return function is None or (name not in function.local_bindings and name not in function.all_params)

    def has_subclass(self, cls: ClassInfo) -> bool:
        """Some other class of the module derives from `cls`, at any depth."""
        return any(other is not cls and cls in self.class_and_bases(other) for other in self.all_classes)

    def derived_from(self, cls: ClassInfo) -> list[tuple[str, ClassInfo]]:
        """The module's top-level classes, by name, that name `cls` among their bases."""
        return self._derived_from.get(id(cls), [])

    @cached_property
    def _derived_from(self) -> dict[int, list[tuple[str, ClassInfo]]]:
        derived: dict[int, list[tuple[str, ClassInfo]]] = {}
        for name, other in self.classes.items():
            for base in other.bases:
                parent = self.resolve_class(base.value if isinstance(base, ast.Subscript) else base)
                if parent is not None:
                    derived.setdefault(id(parent), []).append((name, other))
        return derived

    def is_neutral_base(self, base: ast.expr) -> bool:
        """`object`, `abc.ABC`, `Generic[P]`, `Protocol`: a base that makes nothing of its subclasses."""
        base = base.value if isinstance(base, ast.Subscript) else base
        return (self.qualify(base) or dotted_name(base)) in NEUTRAL_BASES

    def class_and_bases(self, cls: ClassInfo, across_modules: bool = False) -> list[ClassInfo]:
        """`cls` and its base classes defined in this module, nearest first; for a class read from another
        module, its bases there too (a subclass of a subclass of this module's class). `across_modules`: a
        class of this module has its bases in other modules of the project followed too (what a constructor
        inherits; read from there only where asked: a cold netket run took 12% longer when every question
        about a class followed them, for no finding). Once per class: the analysis asks thousands of times a
        module (equinox: 1,745 walks for 57 classes). The list is shared: read it, do not change it."""
        key = (cls, across_modules)
        if key not in self._bases:
            self._bases[key] = self._class_and_bases(cls, across_modules)
        return self._bases[key]

    def _class_and_bases(self, cls: ClassInfo, across_modules: bool) -> list[ClassInfo]:
        order: list[ClassInfo] = []
        pending = [cls]
        while pending:
            current = pending.pop(0)
            if current in order:
                continue
            order.append(current)
            for base in current.bases:
                expr = base.value if isinstance(base, ast.Subscript) else base  # `Base[T]`
                resolved = self.class_named(expr) if across_modules or home_of(current.node) is not None \
                    else self.resolve_class(expr)
                if resolved is not None:
                    pending.append(resolved)
        return order

    def assigned_name(self, call: ast.Call) -> str | None:
        """The module-level name a statement `name = <call>` binds to this call's result."""
        for name, values in self.bindings.items():
            if any(value is call for value in values):
                return name
        return None

    def constructor_calls(self, cls: ClassInfo) -> list[tuple[ast.Call, FunctionInfo | None]]:
        """Calls that build a `cls` in its own body (`cls(...)` in a classmethod, `Name(...)` in a method, or
        in a def nested in one: see returned_builder) or at module level (`box = Box(...)`), with the method
        that makes them (None: module level)."""
        return self._constructor_calls[0].get(id(cls), [])

    def returned_builder(self, call: ast.Call) -> FunctionInfo | None:
        """The def nested in a method that holds a call of it (at any depth) when the method returns that def:
        the call runs each time the def is called (the `inner` a decorator factory returns), not once per call
        of the method. None: the call is no such def's."""
        return self._returned_builders.get(id(call))

    @cached_property
    def _returned_builders(self) -> dict[int, FunctionInfo]:
        builders: dict[int, FunctionInfo] = {}
        for site in self.calls:
            method = _method_holding(site.scope)
            builder = _returned_nested_def(method, site.scope) if method is not None else None
            if builder is not None:
                builders.update((id(call), builder) for call in _with_argument_calls(site.node))
        return builders

    def constructions_in_functions(self, cls: ClassInfo) -> list[tuple[ast.Call, FunctionInfo]]:
        """The other calls that build a `cls`: in the module's functions, nested functions and other classes'
        methods, with the function that makes them (where its arguments are read)."""
        return self._constructor_calls[1].get(id(cls), [])

    @cached_property
    def _constructor_calls(self) -> tuple[dict[int, list[tuple[ast.Call, FunctionInfo | None]]],
                                          dict[int, list[tuple[ast.Call, FunctionInfo]]]]:
        """constructor_calls and constructions_in_functions for every class, from one pass over the calls."""
        own: dict[int, list[tuple[ast.Call, FunctionInfo | None]]] = {}
        elsewhere: dict[int, list[tuple[ast.Call, FunctionInfo]]] = {}
        for site, call in ((each, call) for each in self.calls for call in _with_argument_calls(each.node)):
            if site.scope is None:
                built = self.resolve_class(call.func)
                if built is not None:
                    own.setdefault(id(built), []).append((call, None))
                continue
            method = _method_holding(site.scope)
            func = call.func
            built = self.resolve_class(func)
            if method is not None:
                cls = method.cls
                if (isinstance(func, ast.Name) and method.is_classmethod and func.id == cls.name_of_cls(method)) \
                        or built is cls:
                    own.setdefault(id(cls), []).append((call, method))
                    continue
            if built is None and isinstance(func, ast.Name) and self.aliases.imports(func.id) \
                    and not self._own_classes.isdisjoint(self.inline_names(func.id)):
                call = self.inlined(call, site.scope) or call  # another module's builder: its construction here
                built = self.resolve_class(call.func) if isinstance(call, ast.Call) else None
            if built is not None and isinstance(site.scope, FunctionInfo):
                elsewhere.setdefault(id(built), []).append((call, site.scope))
        return own, elsewhere

    @cached_property
    def _own_classes(self) -> frozenset[str]:
        """The absolute names of the module's classes (empty outside a project)."""
        return frozenset(f"{self.project.module}.{name}" for name in self.classes) if self.project else frozenset()

    def inline_names(self, local: str) -> frozenset[str]:
        """The absolute names read by the expression the project function a name of the module stands for
        returns (its summary's Inline: `def build(keys): return Keyed(keys)` reads `pkg.m.Keyed`); empty for
        anything else. Once per name."""
        if local not in self._inline_names:
            definition = self.definition(ast.Name(local)) if self.project is not None else None
            inline = definition.function.inline if definition is not None and definition.function else None
            self._inline_names[local] = frozenset(meant for _name, meant in inline.names) if inline else frozenset()
        return self._inline_names[local]

    def module_function(self, name: str) -> FunctionInfo | None:
        """The module-level def, or the lambda bound once to a module-level name, that `name` refers to."""
        if not self.aliases.is_module_local(name):
            return None
        if name in self.functions:
            return self.functions[name]
        values = self.bindings.get(name, [])
        return FunctionInfo(values[0]) if len(values) == 1 and isinstance(values[0], ast.Lambda) else None

    @cached_property
    def defs(self) -> list[FunctionInfo]:
        """The module-level functions and the methods of every class (nested defs are not indexed)."""
        return [*self.functions.values(), *(m for cls in self.all_classes for m in cls.methods.values())]

    def enclosing_function(self, node: ast.AST) -> FunctionInfo | None:
        """The innermost module-level function or method whose lines hold `node` (None: module level)."""
        line = getattr(node, "lineno", None)
        innermost = self._innermost_by_line
        return innermost[line] if line is not None and 0 <= line < len(innermost) else None

    def innermost_scope(self, node: ast.AST) -> FunctionInfo | None:
        """The innermost def or lambda whose body holds `node`, nested ones included (None: module level or a
        class body): where the names it reads are bound (a call in a nested def passes its own locals, not its
        parent's names: jax-md's `cell_list_fn` passes its local `update_fn`, and `cell_list` defines another).
        A call a statement makes has it from the index's walk (`calls`); any other node from the module's
        function or method holding it, down the defs nested in it."""
        if id(node) in self._call_scopes:
            scope = self._call_scopes[id(node)]
            return scope if isinstance(scope, FunctionInfo) else None
        function = self.enclosing_function(node)
        if function is None or not hasattr(node, "end_lineno"):
            return function
        start, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        for inner in function.nodes(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):  # the outer ones first
            body = inner.body if isinstance(inner, ast.Lambda) else inner.body[0]
            if (body.lineno, body.col_offset) <= start and end <= (inner.end_lineno, inner.end_col_offset):
                function = FunctionInfo(inner, parent=function)
        return function

    @cached_property
    def _call_scopes(self) -> dict[int, Scope | None]:
        """The scope of each call a statement makes (and of the calls given to it as arguments), by id."""
        return {id(call): site.scope for site in self.calls for call in _with_argument_calls(site.node)}

    @cached_property
    def _innermost_by_line(self) -> list[FunctionInfo | None]:
        """Per line, the def (or lambda) starting last among those whose lines hold it (the first of those
        starting on the same line): filled once, in the order the defs start."""
        last = max((function.node.end_lineno or function.node.lineno for function in self.defs), default=0)
        innermost: list[FunctionInfo | None] = [None] * (last + 1)
        for function in sorted(self.defs, key=lambda function: function.node.lineno):
            start = function.node.lineno
            for line in range(start, (function.node.end_lineno or start) + 1):
                current = innermost[line]
                if current is None or start > current.node.lineno:
                    innermost[line] = function
        return innermost

    def find_method(self, cls: ClassInfo, name: str, across_modules: bool = False) -> FunctionInfo | None:
        for owner in self.class_and_bases(cls, across_modules):
            if name in owner.methods:
                return owner.methods[name]
        return None

    def kept_parameter(self, cls: ClassInfo, attr: str) -> tuple[str, int | None] | None:
        """The constructor parameter whose argument an object's attribute `attr` keeps as it is, with its
        position after `self` (None: keyword-only): an `__init__` parameter assigned to `self.<attr>` there,
        and nowhere else; or, for a generated constructor (no `__init__`), the field itself, which no method
        assigns (its position is the value analysis's: `field_position`). None when a method or property
        has the attribute's name, or the class may store something else (sets_attribute_itself)."""
        if self.find_method(cls, attr) is not None or self.sets_attribute_itself(cls, attr):
            return None
        assignments = [a for owner in self.class_and_bases(cls) for a in owner.assignments.get(attr, ())]
        init = self.find_method(cls, "__init__")
        if init is None:  # a generated constructor: the field, unless it converts (`field(converter=tuple)`)
            declared = [owner.fields[attr] for owner in self.class_and_bases(cls) if attr in owner.fields]
            return (attr, None) if declared and not assignments and not converts(declared[0]) else None
        if len(assignments) != 1 or assignments[0].method is not init or not isinstance(assignments[0].value,
                                                                                        ast.Name):
            return None
        return constructor_parameter(init, assignments[0].value.id)

    def sets_attribute_itself(self, cls: ClassInfo, attr: str) -> bool:
        """Whether `self.<attr> = value` may store something else than `value`: the class (or a base of the
        module) defines `__setattr__`, or binds the name in its body, unannotated, to a call (`sizes =
        property(get, set)`, a descriptor; an annotated `index: Array = eqx.field(...)` declares a field)."""
        if self.find_method(cls, "__setattr__") is not None:
            return True
        return any(owner.fields[attr].annotation is None and isinstance(owner.fields[attr].value, ast.Call)
                   for owner in self.class_and_bases(cls) if attr in owner.fields)

    def kept_argument(self, call: ast.Call, attr: str) -> ast.expr | None:
        """The argument a construction gives the attribute `attr` of its object, when the class keeps it as
        it is (see kept_parameter; a generated constructor's field by keyword only)."""
        cls = self.class_named(call.func)
        kept = self.kept_parameter(cls, attr) if cls is not None else None
        return argument_given(call, *kept) if kept is not None else None

    def calls_to(self, qualified: str) -> list[ast.Call]:
        """The module's calls of a function by its qualified name (another module's, however imported)."""
        short = qualified.rsplit(".", 1)[-1]
        return [call for call, _ in self.calls_mentioning((short,)) if self.qualify(call.func) == qualified]

    def class_named(self, node: ast.AST) -> ClassInfo | None:
        """The class a name stands for: a module-level class of this module, or one another module of the
        project defines (read from there: ModuleView.foreign_class)."""
        found = self.resolve_class(node)
        if found is None and self.project is not None and isinstance(node, (ast.Name, ast.Attribute)):
            definition = self.definition(node)
            found = self.project.foreign_class(definition) if definition is not None else None
        return found

    def resolve_class(self, node: ast.AST) -> ClassInfo | None:
        """The module-level class a Name refers to (not shadowed by an import; copied from another module's
        code, the class of this module it stands for there)."""
        if not isinstance(node, ast.Name):
            return None
        meant = getattr(node, MEANT, None)
        if meant is not None:  # where it is defined: through the re-exports of a package (`from . import Base`)
            if self.project is None:
                return None
            module, _, name = self.project.followed(meant).rpartition(".")
            return self.classes.get(name) if module == self.project.module else None
        return self.classes.get(node.id) if self.aliases.is_module_local(node.id) else None


def _with_argument_calls(call: ast.Call) -> list[ast.Call]:
    """A call and the calls given to it as they are, at any depth (`Held(Fns(update))`): an object built
    as another's argument is built where that call is."""
    found, pending = [], [call]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(argument for argument in [*node.args, *(k.value for k in node.keywords)]
                       if isinstance(argument, ast.Call))
    return found


def _always_rebinds(statements: list[ast.stmt], name: str) -> bool:
    """Every path through `statements` assigns `name` at their level or in every branch of an `if`, or
    leaves by `raise`/`return`."""
    for statement in statements:
        if isinstance(statement, (ast.Raise, ast.Return)):
            return True
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
        if isinstance(statement, ast.If) and statement.orelse and _always_rebinds(statement.body, name) \
                and _always_rebinds(statement.orelse, name):
            return True
    return False


# A call's callee as a statement's text spells it (`Mesh` of `Mesh(`, `mesh . Mesh` of `mesh . Mesh (`),
# matched on the reversed text: a pattern that starts with "(" is searched for as a literal, six times faster
# than `(?<![\w.])([A-Za-z_]\w*(?:\s*\.\s*\w+)*)\s*\(` forwards, with the same matches (every call of jax,
# flax, equinox and optax compared).
# A def's name: a callee _callees finds that called_names does not count. The look-behind comes after `def`
# (`\bdef`, the same matches): a pattern starting with a literal is scanned for it, 18 times faster
# (over netket's modules 2 ms, against 38 ms, a fifth of the time to parse them).
_DEFINED_NAME = re.compile(r"def(?<!\wdef)\s+(\w+)\s*\(")
_CALLED_REVERSED = re.compile(r"\(\s*((?:\w+\s*\.\s*)*\w*[A-Za-z_])(?![\w.])")


def _callees(text: str) -> list[tuple[int, str]]:
    """Each callee `text` spells, with where it starts, in order."""
    end = len(text)
    return [(end - match.end(1), match.group(1)[::-1]) for match in _CALLED_REVERSED.finditer(text[::-1])][::-1]


def _calls_on_lines(statement: ast.stmt, lines: set[int], covering: bool = False) -> list[tuple[ast.Call, bool]]:
    """The calls of a statement that start on one of `lines` (`covering`: whose lines hold one), each with
    whether it is in a function, in source order: the walk enters only the nodes whose lines hold one."""
    found: list[tuple[ast.Call, bool]] = []
    ordered = sorted(lines)
    pending: list[tuple[ast.AST, bool]] = [(statement, False)]
    while pending:
        node, in_function = pending.pop()
        start = getattr(node, "lineno", None)
        if start is not None:
            end = getattr(node, "end_lineno", None) or start
            nearest = bisect_left(ordered, start)  # the first of the lines at or after its start
            if nearest == len(ordered) or ordered[nearest] > end:
                continue
            if isinstance(node, ast.Call) and (covering or start in lines):
                found.append((node, in_function))
        children = [child for child in child_nodes(node) if type(child) not in WITHOUT_CALLS]
        if children:
            children.reverse()
            inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            pending.extend(zip(children, repeat(inner)))
    return found


def _occurrences(text: str, words: tuple[str, ...]) -> list[int]:
    """Where each of `words` occurs in `text`, in order: each word searched for as a literal (three times
    faster than a pattern of the words; an occurrence inside another's is on the same line)."""
    starts = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            starts.append(at)
            at = text.find(word, at + 1)
    starts.sort()
    return starts


def _lines_of(statement: ast.stmt, text: str, starts: list[int]) -> set[int]:
    """The lines of the module where a top-level statement's text has the offsets `starts` (in order)."""
    line, counted, found = first_line(statement), 0, set()
    for start in starts:
        line += text.count("\n", counted, start)
        counted = start
        found.add(line)
    return found


@cache
def _last_parts_below(names: frozenset[str]) -> dict[str, frozenset[str]]:
    """For each module above one of `names` (`jax`, `jax.tree_util` for `jax.tree_util.tree_map`), the last
    parts of the names below it: the words a use through that module spells. Once per set of names (the
    library knowledge's constant sets)."""
    below: dict[str, set[str]] = {}
    for name in names:
        parts = name.split(".")
        for cut in range(1, len(parts)):
            below.setdefault(".".join(parts[:cut]), set()).add(parts[-1])
    return {module: frozenset(last) for module, last in below.items()}


def _calls_one(chain: str, names: tuple[str, ...]) -> bool:
    """A callee spelled `chain` is one of `names`, an attribute of one, or one reached through a module."""
    parts = chain.split(".")
    return parts[0].strip() in names or parts[-1].strip() in names


# Per node type, the fields that may hold nodes: every field but a name's load/store marker (`ctx`, a node of
# its own on every name, attribute and subscript); none for a constant.
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}
# The fields no walk looks below: names and flags (strings and numbers), the expression context, and the
# operators (each read through its node: `node.op`, `node.ops`).
_UNWALKED_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "name", "arg", "module", "level", "is_async",
                              "simple", "conversion", "kind", "type_comment", "tag"})


def _node_fields(kind: type) -> tuple[str, ...]:
    fields = _NODE_FIELDS[kind] = () if kind is ast.Constant else tuple(
        name for name in kind._fields if name not in _UNWALKED_FIELDS)
    return fields


def _method_holding(scope: Scope | None) -> FunctionInfo | None:
    """The method a scope is (or that holds the defs it is nested in); None outside a class's methods."""
    while isinstance(scope, FunctionInfo) and scope.cls is None:
        scope = scope.parent
    return scope if isinstance(scope, FunctionInfo) else None


def _returned_nested_def(method: FunctionInfo, scope: Scope | None) -> FunctionInfo | None:
    """The def or lambda directly in `method` that holds `scope` (itself or a def nested in it) when the
    method returns it (`return inner`, `return lambda x: cls(x)`); else None."""
    if scope is method:
        return None
    outer = scope
    while isinstance(outer, FunctionInfo) and outer.parent is not method:
        outer = outer.parent
    if not isinstance(outer, FunctionInfo):
        return None
    returned = any(statement.value is outer.node if outer.is_lambda
                   else isinstance(statement.value, ast.Name) and statement.value.id == outer.name
                   for statement in method.return_statements)
    return outer if returned else None


# The nodes no call is below: a walk looking for calls never enters one (they are most of an expression's nodes).
WITHOUT_CALLS = frozenset({ast.Name, ast.Constant})


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes directly below `node`, in source order (`ast.iter_child_nodes` without its generators, the
    `ctx` markers and the operators, which made the walks' main cost; see _UNWALKED_FIELDS)."""
    children: list[ast.AST] = []
    kind = type(node)
    fields = _NODE_FIELDS.get(kind)
    for name in fields if fields is not None else _node_fields(kind):
        value = getattr(node, name, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    children.append(item)
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


def nodes_of(node: ast.AST | list, kind: type | tuple[type, ...]) -> list:
    """Every node of a type inside `node` (itself included; a list of statements too), in source order."""
    found: list = []
    pending: list = list(reversed(node)) if isinstance(node, list) else [node]
    while pending:
        current = pending.pop()
        if isinstance(current, kind):
            found.append(current)
        children = child_nodes(current)
        if children:
            children.reverse()
            pending.extend(children)
    return found


def changed_names(node: ast.AST) -> frozenset[str]:
    """The names the code below `node` changes after binding them: `x += ...`, `x[i] = ...`, `del x[i]`,
    `x.append(...)`. A display bound to one no longer says what the name holds (`children = (a, b)`, then
    `children += (c,)`: three children)."""
    changed = set()
    for found in nodes_of(node, (ast.AugAssign, ast.Subscript, ast.Call)):
        if isinstance(found, ast.AugAssign) and isinstance(found.target, ast.Name):
            changed.add(found.target.id)
        elif isinstance(found, ast.Subscript) and isinstance(found.ctx, (ast.Store, ast.Del)):
            if isinstance(found.value, ast.Name):
                changed.add(found.value.id)
        elif isinstance(found, ast.Call) and isinstance(found.func, ast.Attribute) \
                and found.func.attr in MUTATING_METHODS and isinstance(found.func.value, ast.Name):
            changed.add(found.func.value.id)
    return frozenset(changed)


def reached(found: set[str], successors: dict[str, Iterable[str]]) -> set[str]:
    """`found`, grown in place by every name the `successors` of a name in it lead to (a worklist: each name
    is taken once, so the cost is the edges')."""
    pending = list(found)
    while pending:
        for name in successors.get(pending.pop(), ()):
            if name not in found:
                found.add(name)
                pending.append(name)
    return found


def first_line(statement: ast.stmt) -> int:
    """Where a statement starts: its first decorator, if it has one."""
    return min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])


def live_bindings(entries):
    """The entries (in source order) no later one overwrites: an assignment overwrites what was assigned
    before it in its own block or in a block inside it (`axis_names = list(...)` in an `if`, then
    `axis_names = tuple(axis_names)` after that `if`), at the top level of a body everything; entries with no
    block (attribute assignments) from the last unconditional one on."""
    if not entries or not isinstance(entries[0], Binding):
        start = max((i for i, entry in enumerate(entries) if entry.unconditional), default=0)
        return entries[start:]
    live: list = []
    for entry in entries:
        if entry.overwrites:
            depth = len(entry.block)
            live = [earlier for earlier in live if earlier.block[:depth] != entry.block] if depth else []
        live.append(entry)
    return live


def arguments_in_order(call: ast.Call) -> list[ast.expr | ast.keyword]:
    """A call's positional and keyword arguments in the order they are written (a call `written_as` copied
    from a helper's return holds the caller's arguments, whose positions say nothing of that order)."""
    if is_inlined(call):
        return [*call.args, *call.keywords]
    return sorted([*call.args, *call.keywords], key=lambda a: (a.lineno, a.col_offset))


def constructor_parameter(init: FunctionInfo, name: str) -> tuple[str, int | None] | None:
    """`__init__`'s parameter `name` with its position after `self` (None: keyword-only), if it has one."""
    positional = [p.name for p in init.positional_params[1:]]
    if name in positional:
        return name, positional.index(name)
    return (name, None) if name in {p.name for p in init.keyword_only_params} else None


def converts(declared: ClassField) -> bool:
    """A field declared with a converter (`eqx.field(converter=jnp.asarray)`, `attrs.field(converter=tuple)`):
    what the constructor is given is not what the object keeps."""
    return isinstance(declared.value, ast.Call) and any(k.arg == "converter" for k in declared.value.keywords)


def argument_given(call: ast.Call, name: str, position: int | None) -> ast.expr | None:
    """The argument a call passes as the parameter `name` (by keyword, or at `position`); None when it passes
    none, or when star arguments make the binding unsure."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    argument = keyword_arguments(call).get(name)
    if argument is None and position is not None and position < len(call.args):
        argument = call.args[position]
    return argument


def keyword_arguments(call: ast.Call) -> dict[str, ast.expr]:
    """The keyword arguments of a call, by name (`**kwargs` left out)."""
    return {k.arg: k.value for k in call.keywords if k.arg is not None}


def literal_string(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def is_literal_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def is_name(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def is_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def written_as(expr: ast.expr, function: FunctionInfo | None = None, index: ModuleIndex | None = None,
               _depth: int = 0) -> ast.expr:
    """The expression a value is written as where it is made: through a local name of `function` bound once
    (`held = (self.x,); return held, None`; at module level, with `index`, a module-level one), a
    conditional whose two branches are written alike, and, with the module's `index`, a call of a function
    or method, or a property read, whose body only returns an expression (see ModuleIndex.inlined), an
    element of a display by its key (`f(x)[0]`, `f(x)["mask"]`), and an attribute of an object built there
    that keeps its constructor's argument (`f(x).value`)."""
    for _ in range(8):  # a chain of names is short; a cycle (`a = b; b = a`) ends here
        if isinstance(expr, ast.Name) and function is not None:
            bound = function.local_bindings.get(expr.id, [])
            if len(bound) == 1 and isinstance(bound[0], ast.expr):
                expr = bound[0]
                continue
        if isinstance(expr, ast.Name) and function is None and index is not None \
                and index.aliases.is_module_local(expr.id):  # a module-level name bound once, read there
            assigned = index.bindings.get(expr.id, [])
            if len(assigned) == 1 and isinstance(assigned[0], ast.expr):
                expr = assigned[0]
                continue
        if isinstance(expr, ast.IfExp) and ast.dump(expr.body) == ast.dump(expr.orelse):
            expr = expr.body
            continue
        if index is not None and isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) \
                and expr.func.id in DISPLAY_BUILTINS and index.is_builtin(expr.func.id, function):
            display = as_display(expr)
            if display is not None:
                expr = display
                continue
        if index is not None and isinstance(expr, (ast.Call, ast.Attribute)):
            inlined = index.inlined(expr, function)
            if inlined is not None:
                expr = inlined
                continue
        if index is not None and isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Call) \
                and _depth < 8:  # an attribute of an object built here or by a helper, which keeps what the
            # construction gives it (`make_held(x).value` of `return Held(x > 0)`)
            built = written_as(expr.value, function, index, _depth + 1)
            kept = index.kept_argument(built, expr.attr) if isinstance(built, ast.Call) else None
            if kept is not None:
                expr = kept
                continue
        if isinstance(expr, ast.Subscript) and _depth < 8:  # elements of elements: as deep as a chain of
            # names (`a, b = a` is a cycle). An element of a display: `f(x)[0]` of a helper returning `a, b`,
            # what `a, b = f(x)` binds `a` to, `f(x)["mask"]` of one returning a dict display.
            key = element_key(expr.slice)
            element = None if key is None else display_element(
                written_as(expr.value, function, index, _depth + 1), key)
            if element is not None:
                expr = element
                continue
        break
    return expr


def filling(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """(the container, the value put in) of `container.append(value)` (or another of FILLING_METHODS) or
    `container[key] = value`; not a write into an array or a `jax.Ref` (`ref[...] = v`, `a[1:3] = v`): it
    changes the values of the one array there is, it puts in no new element."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in FILLING_METHODS and node.args:
            return func.value, node.args[-1]
    elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript) \
            and not _array_index(node.targets[0].slice):
        return node.targets[0].value, node.value
    return None


def _array_index(index: ast.expr) -> bool:
    """An index only arrays take: `...`, a slice, or a tuple holding one (`[:, 0]`)."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(part, ast.Slice) or (isinstance(part, ast.Constant) and part.value is Ellipsis)
               for part in parts)


def shape_arguments(index: ModuleIndex, call: ast.Call) -> tuple[list[ast.expr], str] | None:
    """The arguments of an array constructor (of jax.numpy, numpy or jax.random) that take a shape or a size,
    as written (a starred one unwrapped), with the error a tracer raises there (knowledge.jax.SHAPE_PARAMETERS);
    None for any other call."""
    qualified = index.qualify(call.func) or ""
    taken = SHAPE_PARAMETERS.get(qualified.rsplit(".", 1)[-1]) if qualified.startswith(SHAPE_MODULES) else None
    if taken is None:
        return None
    positions, keywords, symptom = taken
    arguments = [a.value if isinstance(a, ast.Starred) else a for position, a in enumerate(call.args)
                 if position in positions]
    return [*arguments, *(k.value for k in call.keywords if k.arg in keywords)], symptom


def fillings_in(function: FunctionInfo) -> Iterator[tuple[ast.stmt, ast.AST, ast.expr, ast.expr]]:
    """(statement, the filling, the container, the value put in) for each statement of a function's body that
    fills a container (see filling; nested defs are not entered)."""
    if function.is_lambda:
        return
    for statement, _blocks in walk_statements(function.node.body):
        node = statement.value if isinstance(statement, ast.Expr) else statement
        filled = filling(node)
        if filled is not None:
            yield statement, node, *filled


def element_key(index: ast.expr) -> int | str | None:
    """The key a subscript takes an element of a display by: a position (a tuple's or list's; a dict's int
    key) or a dict's identifier-like string key; None for any other (a slice, a name, a computed key)."""
    if isinstance(index, ast.Constant):
        if type(index.value) is int and index.value >= 0:
            return index.value
        if type(index.value) is str and index.value.isidentifier():
            return index.value
    return None


def attribute_key(attr: str) -> str:
    """The element-path key of an object's attribute (`.widths`; see values.Evidence.elements): apart from
    a dict's keys, which are identifiers."""
    return f".{attr}"


def display_element(display: ast.expr, key: int | str) -> ast.expr | None:
    """The expression a tuple, list or dict display holds at `key`, where the display says it for certain
    (not behind a starred element, nor before a `**` that may replace it)."""
    if isinstance(display, (ast.Tuple, ast.List)) and type(key) is int and key < len(display.elts) and not any(
            isinstance(e, ast.Starred) for e in display.elts[:key + 1]):
        return display.elts[key]
    if isinstance(display, ast.Dict) and (type(key) is int or key.isidentifier()):  # not an attribute's key
        found = None
        for written, value in zip(display.keys, display.values):
            if written is None:
                found = None  # `**other` may hold the key
            elif isinstance(written, ast.Constant) and written.value == key and type(written.value) is type(key):
                found = value
        return found
    return None


DISPLAY_BUILTINS = frozenset({"list", "tuple", "dict"})


def as_display(call: ast.Call) -> ast.expr | None:
    """`list((a, b))`, `tuple([a, b])` and `dict(k=v)` as the display they build (placed at the call)."""
    name = call.func.id  # type: ignore[attr-defined]
    if name == "dict" and not call.args and all(k.arg is not None for k in call.keywords):
        made: ast.expr = ast.Dict([ast.Constant(k.arg) for k in call.keywords], [k.value for k in call.keywords])
    elif name != "dict" and len(call.args) == 1 and not call.keywords and isinstance(call.args[0],
                                                                                     (ast.Tuple, ast.List)):
        elts = call.args[0].elts
        made = ast.List(elts, ast.Load()) if name == "list" else ast.Tuple(elts, ast.Load())
    else:
        return None
    for node in ast.walk(made):
        if not hasattr(node, "lineno"):
            setattr(node, _INLINED, True)
            ast.copy_location(node, call)
    setattr(made, _INLINED, True)
    return ast.copy_location(made, call)


PROPERTY_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})


def bound_arguments(args: list[ast.expr], keywords: list[ast.keyword],
                     positional: list[tuple[str, ast.expr | None]],
                     keyword_only: list[tuple[str, ast.expr | None]]) -> dict[str, ast.expr] | None:
    """Each parameter's argument at a call, or its default; None when the call would not bind every
    parameter exactly (too many arguments, an unknown keyword, a parameter left without a value)."""
    given = {k.arg: k.value for k in keywords if k.arg is not None}
    if len(args) > len(positional) or set(given) - {name for name, _ in [*positional, *keyword_only]}:
        return None
    bound = {name: args[position] if position < len(args) else given.get(name, default)
             for position, (name, default) in enumerate(positional)}
    bound.update((name, given.get(name, default)) for name, default in keyword_only)
    return None if any(argument is None for argument in bound.values()) else bound


def unquoted(annotation: ast.expr) -> ast.expr:
    """An annotation, parsed when it is written as a string (`"MLP"`, for a class defined later)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return annotation
    return annotation


GenericName = Callable[[ast.expr], "str | None"]  # the last part of what a name stands for: `List`, `Optional`
AttributeType = Callable[[ast.expr, str], "ast.expr | None"]  # (a class's annotation, attribute) -> its annotation
MAX_DECLARED_DEPTH = 4  # `for group in self.groups: for m in group: m.layers[0]` is three steps

# Generic collections by the last part of their name: of items (`list[C]`, `Sequence[C]`), of values (`dict[K, C]`).
ITEM_COLLECTIONS = frozenset({"list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "set", "Set",
                              "frozenset", "FrozenSet", "tuple", "Tuple"})
MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "DefaultDict"})


def spelled_name(node: ast.expr) -> str | None:
    """What a name is spelled as (`List` of `typing.List`): the generic it is, when nothing renames it."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def not_optional(annotation: ast.expr, generic: GenericName = spelled_name) -> ast.expr:
    """`X` of `X | None`, `None | X` and `Optional[X]`."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        if is_none(annotation.right):
            return annotation.left
        if is_none(annotation.left):
            return annotation.right
    if isinstance(annotation, ast.Subscript) and generic(annotation.value) == "Optional":
        return annotation.slice
    return annotation


def collection_item(annotation: ast.expr, values: bool, generic: GenericName = spelled_name) -> ast.expr | None:
    """The item annotation of a collection annotation (`Layer` of `list[Layer]`, `tuple[Layer, ...]`), or
    with `values` the value annotation of a mapping's (`Node` of `dict[str, Node]`)."""
    annotation = unquoted(annotation)
    if not isinstance(annotation, ast.Subscript):
        return None
    name = generic(annotation.value)
    arguments = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    if values:
        return arguments[1] if name in MAPPINGS and len(arguments) == 2 else None
    if name in ("tuple", "Tuple"):  # only `tuple[C, ...]`: a tuple's other forms hold several kinds
        ellipsis = len(arguments) == 2 and isinstance(arguments[1], ast.Constant) and arguments[1].value is Ellipsis
        return arguments[0] if ellipsis else None
    return arguments[0] if name in ITEM_COLLECTIONS and len(arguments) == 1 else None


def attribute_set(call: ast.Call) -> tuple[ast.expr, str, ast.expr] | None:
    """(object, attribute, value) of `setattr(obj, "x", value)` or `object.__setattr__(obj, "x", value)`."""
    if dotted_name(call.func) not in SETATTR_CALLS or len(call.args) < 3:
        return None
    name = literal_string(call.args[1])
    return (call.args[0], name, call.args[2]) if name is not None else None


def is_collection(annotation: ast.expr, generic: GenericName = spelled_name) -> bool:
    """`list[C]`, `dict[K, C]`, ...: its objects are not `C`s."""
    return any(collection_item(annotation, values, generic) is not None for values in (False, True))


def returned_expression(function: FunctionInfo, imports: bool = False) -> ast.expr | None:
    """The expression a def returns when its body does nothing else (a docstring aside; `imports`: the
    imports before it too, `from .model import Config` where importing at the top would be a cycle)."""
    if function.is_lambda:
        return None
    body = function.node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
        body = body[1:]
    while imports and len(body) > 1 and isinstance(body[0], (ast.Import, ast.ImportFrom)):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def returned_with_locals(function: FunctionInfo) -> ast.expr | None:
    """The expression a def returns when its body only binds locals, each once and read once after
    (`boundaries = [10, 20]; return build(boundaries)`), then returns: the return with the locals written in
    place (a copy), as `returned_expression` gives a body that only returns. None for any other body."""
    if function.is_lambda:
        return None
    body = function.node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    body = [statement for statement in body if not isinstance(statement, (ast.Import, ast.ImportFrom))]
    if len(body) < 2 or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return None
    assigned: list[tuple[str, ast.expr]] = []
    for statement in body[:-1]:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            return None
        assigned.append((statement.targets[0].id, statement.value))
    names = [name for name, _value in assigned]
    if len(set(names)) < len(names) or not function.all_params.keys().isdisjoint(names):
        return None
    reads = [(node.id, position) for position, statement in enumerate(body)
             for node in nodes_of(statement, ast.Name) if isinstance(node.ctx, ast.Load) and node.id in names]
    if sorted(name for name, _position in reads) != sorted(names) or any(
            position <= names.index(name) for name, position in reads) \
            or nodes_of(body, (ast.Lambda, ast.comprehension, ast.NamedExpr)):
        return None  # a local read twice, never or before it is bound, or a scope of its own that could read it
    bound: dict[str, ast.expr] = {}
    for name, value in assigned:  # each with the locals before it written in
        bound[name] = _Substituted(dict(bound), value).visit(copy.deepcopy(value))
    return _Substituted(bound, body[-1].value).visit(copy.deepcopy(body[-1].value))


def sole_return(function: FunctionInfo) -> ast.expr | None:
    """The value a def returns from its only `return` (after other statements, or inside a loop or a `with`),
    in a def that yields nothing: what every call of it that returns gives back."""
    if function.is_lambda:
        return None
    returns = function.return_statements
    if len(returns) != 1 or returns[0].value is None or function.nodes(ast.Yield, ast.YieldFrom):
        return None
    return returns[0].value


def inline_expression(inline: Inline, arguments: dict[str, ast.expr], at: ast.expr) -> ast.expr | None:
    """The expression another module's function returns, from its summary (Inline): its parameters replaced
    by `arguments`, placed at `at`, each name standing for what it does in that module; None when the
    summary's text does not parse (a damaged summary)."""
    try:
        value = ast.parse(inline.expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _Substituted(arguments, at, dict(inline.names)).visit(value)


class _Substituted(ast.NodeTransformer):
    """A returned expression with the callee's parameters replaced by the caller's arguments, every node
    it copies placed at the call (findings about them point at the call); from another module, each of its
    names keeps what it stands for there (`names`, see names.MEANT)."""

    def __init__(self, arguments: dict[str, ast.expr], call: ast.expr, names: dict[str, str] | None = None) -> None:
        self.arguments = arguments
        self.call = call
        self.names = names or {}

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.arguments:
            return self.arguments[node.id]
        if node.id in self.names:
            setattr(node, MEANT, self.names[node.id])
        return self._placed(node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        return self._placed(node) if isinstance(node, ast.expr) else node

    def _placed(self, node: ast.expr) -> ast.expr:
        setattr(node, _INLINED, True)
        return ast.copy_location(node, self.call)


_INLINED = "pytree_lint_inlined"


def is_inlined(node: ast.AST) -> bool:
    """A node `written_as` copied from a callee's return: it stands at the call, but is not its text (no
    fix may edit it)."""
    return getattr(node, _INLINED, False)


def elements(node: ast.AST) -> list[ast.expr] | None:
    """The elements of a tuple or list display without starred elements (its length is known)."""
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return node.elts
    return None


_Node = TypeVar("_Node", bound=ast.AST)


def _placed_as(node: _Node, like: ast.AST) -> _Node:
    """`node` at `like`'s position: `ast.copy_location` without its checks of each attribute, for a parsed
    node (every unpacking of a call's result makes two: 2,800 a run over equinox)."""
    try:
        node.lineno, node.col_offset = like.lineno, like.col_offset
        node.end_lineno, node.end_col_offset = like.end_lineno, like.end_col_offset
    except AttributeError:  # a node made here without a position
        return ast.copy_location(node, like)
    return node


def assignment_pairs(target: ast.expr, value: ast.expr | None) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    """Pair each name in an assignment target with the value it receives (None when unknown). Unpacking
    anything but a display (`mask, n = make(4)`) gives each name before a starred one the element it takes,
    `make(4)[0]`, `make(4)[1]`: a subscript made here, placed where the value is written."""
    if isinstance(target, (ast.Tuple, ast.List)):
        targets = [e.value if isinstance(e, ast.Starred) else e for e in target.elts]
        values: list[ast.expr | None] = [None] * len(targets)
        if isinstance(value, (ast.Tuple, ast.List)):
            if len(value.elts) == len(targets) and not any(isinstance(e, ast.Starred) for e in value.elts):
                values = list(value.elts)
        elif value is not None:
            starred = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), len(targets))
            values[:starred] = [_placed_as(ast.Subscript(value, _placed_as(ast.Constant(i), value), ast.Load()), value)
                                for i in range(starred)]
        for element, element_value in zip(targets, values):
            yield from assignment_pairs(element, element_value)
    else:
        yield target, value


def walk_statements(body: list[ast.stmt], blocks: tuple[int, ...] = ()) -> Iterator[tuple[ast.stmt, tuple[int, ...]]]:
    """(statement, the if/for/while/try/with/match blocks around it, as the ids of their statement lists) for
    the statements of a block; nested defs and classes are yielded, not entered."""
    for statement in body:
        yield statement, blocks
        if type(statement) in _COMPOUND:
            for block in statement_blocks(statement):
                yield from walk_statements(block, (*blocks, id(block)))


# The statements the index reads (imports, assignments, and the calls of expression statements and returns).
_INDEXED = frozenset({ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return})
# The fields of a compound statement holding a block of statements (see statement_blocks; a `try`'s handlers
# and a `match`'s cases each hold one).
_BLOCKS = ("body", "orelse", "finalbody")
# The statements that hold blocks of statements, but defs and classes: most hold none.
_COMPOUND = frozenset(kind for kind in ast.stmt.__subclasses__() if kind not in DEFINITIONS
                      and {*_BLOCKS, "handlers", "cases"} & set(kind._fields))


Guards = tuple[tuple[ast.expr, bool], ...]  # tests, each with whether it holds


def guarded_statements(function: FunctionInfo, given: dict[str, object] | None = None
                       ) -> Iterator[tuple[ast.stmt, Guards, Guards]]:
    """(statement, the if/while tests around it, the tests of the `if`s before it of which one branch leaves
    the function) for each statement of a body, nested blocks included (nested defs not entered), each test
    with whether the statement runs when it holds (its body) or when it does not (its `else`; for one with a
    branch that leaves, the other branch's: `if not isinstance(x, jax.Array): return` holds only with
    arrays after it). `given`: parameters a call passes a literal (`_perform_checks=False`): an `if` they
    decide runs only the branch taken, and a taken branch that returns ends its block."""
    def walk(block: list[ast.stmt], tests: Guards, exits: Guards) -> Iterator[tuple[ast.stmt, Guards, Guards]]:
        for statement in block:
            if isinstance(statement, DEFINITIONS):
                continue
            yield statement, tests, exits
            decided = decided_by(statement.test, given) if given and isinstance(statement, ast.If) else None
            if decided is not None:
                taken = statement.body if decided else statement.orelse
                yield from walk(taken, tests, exits)
                if taken and isinstance(taken[-1], ast.Return):
                    return
                continue
            if isinstance(statement, (ast.If, ast.While)):
                yield from walk(statement.body, (*tests, (statement.test, True)), exits)
                yield from walk(statement.orelse, (*tests, (statement.test, False)), exits)
                if isinstance(statement, ast.If) and ends_in_exit(statement.body) != ends_in_exit(statement.orelse):
                    exits = (*exits, (statement.test, not ends_in_exit(statement.body)))  # the other branch's
                continue
            for nested in statement_blocks(statement):
                yield from walk(nested, tests, exits)

    if not function.is_lambda:
        yield from walk(function.node.body, (), ())


# A given value known only to be no None: it decides `x is None`, not `if x:`.
NOT_NONE = object()


def decided_by(test: ast.expr, given: dict[str, object]) -> bool | None:
    """The truth of a test made of names given literal values (`flag`, `not flag`, `flag is None`, `a and
    b`; an attribute by its dotted name, `self.checks`), or None when something else decides it."""
    if isinstance(test, (ast.Name, ast.Attribute)):
        value = given.get(dotted_name(test) or "", NOT_NONE)
        return None if value is NOT_NONE else bool(value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = decided_by(test.operand, given)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        values = [decided_by(v, given) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in values else (True if all(v is True for v in values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    left = dotted_name(test.left) if isinstance(test, ast.Compare) else None
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and left in given
            and isinstance(test.comparators[0], ast.Constant) and isinstance(test.ops[0], (ast.Is, ast.IsNot))):
        same = given[left] is test.comparators[0].value
        return same if isinstance(test.ops[0], ast.Is) else not same
    return None


def return_conditions(function: FunctionInfo) -> dict[int, list[tuple[ast.expr, bool]]]:
    """For each return of the function's body (by id), the type tests (those with an `isinstance`) that hold
    (True) or fail (False) whenever it runs: those of the `if`s around it, and of the `if`s before it whose
    one branch leaves the function (`if isinstance(x, int): return int(x)`, then `return jnp.asarray(x)`),
    with `not`, a failing `or` and a holding `and` taken apart."""
    return {id(statement): [atom for test, holds in (*tests, *exits)
                            if any(isinstance_test(node) is not None for node in ast.walk(test))
                            for atom in test_atoms(test, holds)]
            for statement, tests, exits in guarded_statements(function) if isinstance(statement, ast.Return)}


def test_atoms(test: ast.expr, holds: bool) -> Iterator[tuple[ast.expr, bool]]:
    """A test that holds or fails, as the tests it says hold or fail: `not a` failing is `a` holding, `a or b`
    failing is both failing, `a and b` holding is both holding; any other test as itself."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yield from test_atoms(test.operand, not holds)
    elif isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or if not holds else ast.And):
        for value in test.values:
            yield from test_atoms(value, holds)
    else:
        yield test, holds


def isinstance_test(test: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(what is tested, the types) for `isinstance(x, types)`, else None."""
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and not test.keywords):
        return test.args[0], test.args[1]
    return None


def has_member_test(test: ast.expr) -> tuple[ast.expr, str] | None:
    """(what is tested, the member's name) for `hasattr(x, "name")`, else None."""
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "hasattr"
            and len(test.args) == 2 and not test.keywords and isinstance(test.args[1], ast.Constant)
            and isinstance(test.args[1].value, str)):
        return test.args[0], test.args[1].value
    return None


def none_test(test: ast.AST) -> tuple[ast.expr, bool] | None:
    """(what is tested, whether the test holds when it is None) for `x is None`, `x is not None`, `x == None`
    and `x != None` (None on either side), else None."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot, ast.Eq,
                                                                                           ast.NotEq)):
        left, right = test.left, test.comparators[0]
        if is_none(left) != is_none(right):
            return right if is_none(left) else left, isinstance(test.ops[0], (ast.Is, ast.Eq))
    return None


def isinstance_types(types: ast.expr) -> list[ast.expr]:
    """The types an isinstance test's second argument names: each of a tuple and of a `|` union."""
    if isinstance(types, ast.Tuple):
        return [each for element in types.elts for each in isinstance_types(element)]
    if isinstance(types, ast.BinOp) and isinstance(types.op, ast.BitOr):
        return [*isinstance_types(types.left), *isinstance_types(types.right)]
    return [types]


def admits_none(types: ast.expr) -> bool:
    """An isinstance type (or tuple) None may pass: `object`, `type(None)`, `NoneType`, or anything not a name."""
    return any(not isinstance(c, (ast.Name, ast.Attribute)) or (c.id if isinstance(c, ast.Name) else c.attr)
               in ("object", "NoneType") for c in isinstance_types(types))


def excludes_none(test: ast.expr, holds: bool, tested: Callable[[ast.expr], bool],
                  function: FunctionInfo | None = None) -> bool:
    """Whether a test that holds (or fails) says of something `tested` accepts that it is an instance of
    types None is not (`isinstance(x, jax.Array)` holding, `not isinstance(x, Tagged)` failing); in
    `function`, through a local bound once to such a test (`arraylike = isinstance(x, Array)`, then `if not
    arraylike: return`)."""
    for atom, held in test_atoms(test, holds):
        written = written_as(atom, function) if isinstance(atom, ast.Name) and function is not None else atom
        if written is not atom and excludes_none(written, held, tested):
            return True
        if held and (found := isinstance_test(atom)) is not None and tested(found[0]) and not admits_none(found[1]):
            return True
    return False


def ends_in_exit(block: list[ast.stmt]) -> bool:
    """A block whose last statement leaves the function (a return or a raise)."""
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise))


def statement_blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement blocks of a compound statement, `else`, `finally` and handlers included."""
    if isinstance(statement, ast.Match):
        for case in statement.cases:
            yield case.body
        return
    for name in _BLOCKS:
        block = getattr(statement, name, None)
        if isinstance(block, list) and block:
            yield block
    for handler in getattr(statement, "handlers", ()):
        yield handler.body


class _Indexer:
    """Walks statements only: the index needs no expression below an assignment or a statement's call,
    and not entering expressions is what makes this pass cheap."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.scopes: list[Scope] = []
        self.depth = 0  # if/for/while/try/with/match blocks around us in the current scope
        self.loops: list[ast.For | ast.AsyncFor] = []  # the `for` loops around us in the current scope

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

    def statements(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            kind = type(statement)
            if kind in _INDEXED:  # most are
                self._simple(statement)
            elif isinstance(statement, ast.ClassDef):
                self._class(statement)
            elif isinstance(statement, FUNCTIONS):
                self._function(statement)
            elif kind in _COMPOUND:
                self.depth += 1
                loop = isinstance(statement, (ast.For, ast.AsyncFor))
                if loop:
                    self.loops.append(statement)  # type: ignore[arg-type]
                for block in statement_blocks(statement):
                    self.statements(block)
                if loop:
                    self.loops.pop()
                self.depth -= 1

    def _scoped(self, scope: Scope, body: list[ast.stmt]) -> None:
        outer_depth, self.depth = self.depth, 0
        outer_loops, self.loops = self.loops, []
        self.scopes.append(scope)
        self.statements(body)
        self.scopes.pop()
        self.depth, self.loops = outer_depth, outer_loops

    def _class(self, node: ast.ClassDef) -> None:
        info = ClassInfo(node, parent=self.scope)
        if not self.scopes:
            self.index.classes[node.name] = info
            self.index.aliases.shadow(node.name)
        if node.decorator_list:
            self.index.decorated_classes.append(info)
        self.index.all_classes.append(info)
        self._scoped(info, node.body)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        parent = self.scope
        owner = parent if isinstance(parent, ClassInfo) else None
        info = FunctionInfo(node, cls=owner, parent=parent)
        if owner is not None:
            owner.methods[node.name] = info
        elif parent is None:
            if node.name in self.index.functions:
                self.index.redefined.add(node.name)
            self.index.functions[node.name] = info
            self.index.aliases.shadow(node.name)
        self._scoped(info, node.body)

    def _simple(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            self.index.aliases.add_import(node, module_level=not self.scopes)
        elif isinstance(node, ast.ImportFrom):
            self.index.aliases.add_import_from(node, module_level=not self.scopes)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._record_target(target, node.value, node)
            self._call(node.value)
        elif isinstance(node, ast.AnnAssign):
            self._record_target(node.target, node.value, node, annotation=node.annotation)
            if node.value is not None:
                self._call(node.value)
        elif isinstance(node, ast.AugAssign):
            self._record_target(node.target, node.value, node, augmented=True)
        elif node.value is not None:  # Expr, Return
            self._call(node.value)

    def _record_target(self, target: ast.expr, value: ast.expr | None, statement: ast.stmt,
                       annotation: ast.expr | None = None, augmented: bool = False) -> None:
        scope = self.scope
        for name_node, assigned in assignment_pairs(target, value):
            if scope is None:
                if isinstance(name_node, ast.Name) and not augmented:
                    name = name_node.id
                    self.index.bindings.setdefault(name, []).append(assigned)
                    aliased = self.index.aliases.qualify(assigned) if assigned is not None else None
                    if aliased is not None:
                        self.index.aliases.bind_alias(name, aliased)
                    else:
                        self.index.aliases.shadow(name)
            elif isinstance(scope, ClassInfo):
                if isinstance(name_node, ast.Name) and not augmented:
                    scope.fields[name_node.id] = ClassField(name_node.id, annotation, assigned, statement)
            elif isinstance(name_node, ast.Attribute):
                self._record_attribute(name_node.value, name_node.attr, assigned, statement, augmented)

    def _record_attribute(self, owner: ast.expr, attr: str, value: ast.expr | None, statement: ast.AST,
                          augmented: bool) -> None:
        method = self._enclosing_method()
        if method is None or method.self_name is None or method.cls is None:
            return
        if isinstance(owner, ast.Name) and owner.id == method.self_name:
            unconditional = self.depth == 0 and self.scope is method and not augmented
            method.cls.assignments.setdefault(attr, []).append(
                AttributeAssignment(attr, value, statement, method, augmented, unconditional))

    def _call(self, node: ast.expr) -> None:
        """The call a statement makes (`register(...)`, `x = register(...)`, `object.__setattr__(...)`), or
        each call its value holds in a display or a choice (`return energy, Fns(update)`, `a if c else b`),
        and the call that makes the object it calls or calls a method of (`Padder(sizes)(x)`,
        `Runner(sizes).run(x)`)."""
        if isinstance(node, ast.Call):
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else node.func
            if isinstance(receiver, ast.Call):
                self._call(receiver)
        if not isinstance(node, ast.Call):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                for element in node.elts:
                    self._call(element.value if isinstance(element, ast.Starred) else element)
            elif isinstance(node, ast.Dict):
                for value in node.values:
                    self._call(value)
            elif isinstance(node, ast.IfExp):
                self._call(node.body)
                self._call(node.orelse)
            elif isinstance(node, ast.BoolOp):
                for value in node.values:
                    self._call(value)
            return
        dotted = dotted_name(node.func)
        if dotted is None:
            return
        self.index.calls.append(CallSite(node, self.scope, tuple(self.loops)))
        if (set_attribute := attribute_set(node)) is not None:
            self._record_attribute(*set_attribute, node, augmented=False)
