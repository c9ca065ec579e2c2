"""What other modules need to know about a module, without reading it again.

A `ModuleSummary` holds a module's names (its imports and aliases, made absolute), what it defines, which
functions are static-field helpers, registering decorators or jitted, and which classes a library registers;
and, made only when another module asks, what each top-level function returns (a value kind with the
expression and line it comes from) and its `Uses` of other modules' classes and functions (the constructor
calls it makes with the kinds of their arguments, among others). It is built from the module alone (names
into other modules stay names, followed when asked: analysis/project/modules.py), so it depends on nothing but the
module's text, and is cached by content hash: a changed module invalidates only its own summary.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import ClassVar

from ...cachedir import EntryDatabase, code_fingerprint, default_directory
from ...digest import content_digest
from ..record import NamedTuple, field, record
from ..values.kinds import Kind

SUMMARY_VERSION = 64
# Set (to anything) in the environment, summaries are neither read nor written (`pytree-lint --no-cache`).
NO_SUMMARY_CACHE = "PYTREE_LINT_NO_SUMMARY_CACHE"
# Only the first evidence of each kind is kept per returned value: enough to name the origin.
KEPT_KINDS = (Kind.ARRAY, Kind.MUTABLE, Kind.VOLATILE, Kind.SAFE)
# And of each kind, per element of the display a value is (a returned tuple or dict, see values.Evidence.
# elements), the first this many: a dict of settings returned whole stays a few values, not one per key.
KEPT_ELEMENTS = 16
# References (names of other project modules a value comes from) are kept up to this many per value.
KEPT_REFERENCES = 4


# The records are NamedTuples: immutable, cheap to define (the plugin imports this module in every flake8
# process that follows a name), and written to JSON as arrays.
class Value(NamedTuple):
    """What an expression of the module evaluates to: its kind, how messages call it, and where it is.
    A reference (kind `reference`) names what it stands for in `refers`: `pkg.masks.make()` for what the
    function `pkg.masks.make` returns, `pkg.masks.MASK` for what the module-level name holds."""

    kind: str
    what: str
    text: str
    line: int
    leaf: str | None = None
    refers: str | None = None
    contained: bool = False  # an element of what the expression makes (`2` in `{"depth": 2}`), not all of it
    # Made once where the program sets its objects up and kept (a memoised function's result, a value given
    # at module level): the same object each time (see values.Hop.kept).
    made_once: bool = False
    elements: tuple[int | str, ...] = ()  # the element of a display it is (see values.Evidence.elements)


class JitFacts(NamedTuple):
    """A jitted function's static arguments (JAX maps positions and names through `params`); `wrapper`:
    a `partial(jax.jit, ...)` that jits the function it is applied to; `static_arrays`: the static
    parameters annotated as arrays (PTL405 reports them in this module, so callers elsewhere do not)."""

    static_positions: tuple[int, ...] = ()
    static_names: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    wrapper: bool = False
    static_arrays: tuple[str, ...] = ()


class FieldFacts(NamedTuple):
    """A field helper of the project: the library helper it calls and the metadata flags it passes (also
    those returned by a function of another project module it calls for its metadata, named absolute, or
    kept by an attribute of the object that function returns: `pkg.m.make_held().value`). A `functools.partial`
    of what a function of another module returns names that (`pkg.m.make_field()`, `pkg.m.make_held().value`)
    as its helper, and its literal keywords as its metadata: the module using it reads the library helper
    there (Frameworks.project_field)."""

    helper: str
    metadata: dict[str, bool]
    metadata_from: str | None = None


class JitFactory(NamedTuple):
    """A function that returns a jit decorator built from its arguments (`def jit_static(*names): return
    partial(jax.jit, static_argnames=names)`): where the static positions and names come from, as the
    parameter that holds them, `*` for its star parameter (every positional argument), `**` for the
    keywords it passes on (`jax.jit(**options)`)."""

    argnums: str | None = None
    argnames: str | None = None


class DecoratorCall(NamedTuple):
    """A decorator written as a call of a project function (`@jit_static("n")`), with its literal
    arguments (None where an argument is no literal)."""

    name: str  # absolute
    args: tuple = ()
    keywords: dict = {}  # noqa: RUF012 - a NamedTuple default, never mutated


class Inline(NamedTuple):
    """A function whose body only returns an expression of its parameters and of the module's imported or
    defined names (`def pair(p): return p.x, p.y`, `def layer(n): return nnx.Linear(n, n)`): the expression's
    text, the parameters (positional, then keyword-only) and what each of those names stands for (absolute),
    for calls in other modules to be judged as that expression (ModuleIndex.inlined)."""

    expression: str
    positional: tuple[str, ...]
    keyword_only: tuple[str, ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # (name, the absolute name it stands for)


class Forward(NamedTuple):
    """A function that returns a call of a project function passing its own parameters on (`def run(x, n):
    return step(x, n)`): the callee (absolute) and, per parameter passed, (keyword or None, position or None,
    parameter). The callee's static parameters make the caller's static (ModuleView.jit)."""

    callee: str
    arguments: tuple[tuple[str | None, int | None, str], ...]


class TreeMapFacts(NamedTuple):
    """A function that maps its own parameters, untouched, as every tree of a multi-tree map (`def
    combine(a, b): return jax.tree.map(f, a, b)`): the parameters in the map's order (the first tree's
    first), the map's kind, and the map as messages cite it (in the module the function's summary is of,
    or, read through a `Forward`, of the module that makes the map)."""

    trees: tuple[str, ...]
    kind: str
    line: int
    text: str


class Argument(NamedTuple):
    position: int | None
    keyword: str | None
    value: Value
    # The function changes the value in place after handing it over (`made = Box(keys); keys.append(k)`):
    # the change as written and its line (empty: no such change).
    changed: str = ""
    changed_line: int = 0


class Built(NamedTuple):
    """An object a function returns, as the call of a class that makes it (the class absolute, what each
    argument is, read where the call is written): what the object's attributes hold where another module
    calls the function (`config = default_config()`; `config.widths`)."""

    callee: str
    line: int
    arguments: tuple[Argument, ...]


class FunctionFacts(NamedTuple):
    line: int
    field: FieldFacts | None = None
    registers: str | None = None  # a decorator that registers: a library's name or a jax.tree_util mechanism
    params: tuple[str, ...] = ()  # the positional parameters
    decorators: tuple[str, ...] = ()  # the names of its decorators, absolute (a wrapper may jit it)
    jit_factory: JitFactory | None = None
    decorator_calls: tuple[DecoratorCall, ...] = ()
    array_params: tuple[str, ...] = ()  # the parameters annotated as arrays (not admitting None)
    inline: Inline | None = None
    forward: Forward | None = None
    tree_map: TreeMapFacts | None = None
    rebuilds: bool = False  # a registering decorator whose unflatten calls the class (fields.rebuilt_by)
    dataclass: bool = False  # a decorator applying `dataclasses.dataclass` (fields.makes_dataclass)
    memoizes: bool = False  # a decorator that memoises the function it is given (fields.memoizes)
    builds: tuple[Built, ...] = ()  # the objects it returns, when every return builds one
    called_here: bool = False  # a call of its own module's code may run it (by name): see ModuleView.built_per_call


class SubclassRegistration(NamedTuple):
    """The registering call a class's `__init_subclass__` or `__new__` makes of each subclass (a
    metaclass's `__new__` or `__init__`, of each class it makes)
    (`register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)`): the mechanism, where, and the
    arguments a subclass's module can read, each (parameter, expression with the subclass named `cls`):
    literal field names and its methods."""

    mechanism: str
    line: int
    arguments: tuple[tuple[str, str], ...]


class ClassFacts(NamedTuple):
    line: int
    bases: tuple[str, ...] = ()  # absolute names (a base of the same module: `module.Name`)
    library: str | None = None  # the library that registers it, as far as its own module shows
    host_state: bool = False  # declared a host-side state holder (PytreeLibrary.host_state_keyword)
    # Its own `__init_subclass__`'s or `__new__`'s registration of each subclass; of a metaclass, its
    # `__new__`'s or `__init__`'s of each class it makes.
    registers_subclasses: SubclassRegistration | None = None
    metaclass: str | None = None  # absolute, as its `metaclass=` keyword names it
    # (attribute, class) for each attribute it declares a collection of another project module's class
    # (`silos: list[Silo]`), the class absolute: code given one reaches objects of that class through it.
    holds: tuple[tuple[str, str], ...] = ()
    # The lines its statement spans, from its first decorator: a module reading the class parses only those.
    lines: tuple[int, int] = (0, 0)
    # Its own module registers it through JAX (`@register_pytree_node_class`, `register_pytree_node(C, ...)`):
    # a node wherever its objects go, as a library's classes are (a subclass is not: JAX registers one type).
    registered: bool = False
    # The names its body binds (fields, class attributes, methods): a subclass that binds neither a base's
    # field nor `__init__` keeps the field as the base declares it, filled by the base's constructor parameter.
    declared: tuple[str, ...] = ()
    # The registering function (knowledge.jax.BY_METHODS) when its own module registers it by its methods
    # (`@register_pytree_node_class`, or the call of it after the class): JAX flattens and unflattens it by
    # the methods it inherits, a mixin's of another module too.
    registered_by_methods: str | None = None


# Whether a subclass keeps a field its base declares, asked with the names the subclass's body binds and
# whether its own module shows a library registering it (Project.subclasses).
Keeps = Callable[[Collection[str], bool], bool]


ITEMS = "[]."  # in AttributeChange.attribute: the attribute of each item of the collection named before it


class AttributeChange(NamedTuple):
    """An in-place change of an attribute of a project class's object through a parameter annotated with
    the class (`def widen(model: MLP, n): model.sizes.append(n)`): the class by the name this module knows
    it (absolute), the attribute, where the change is, and the function (absolute) and the position of the
    parameter it goes through (its callers say whether the object is still being built)."""

    cls: str
    attribute: str  # `sizes`; `stacks[].sizes` for an item's (`for stack in tower.stacks: stack.sizes...`)
    line: int
    text: str
    function: str
    position: int
    augmented: bool = False  # `obj.step += 1`: the attribute takes a new value (not a container changed)
    # What a filling (`obj.layers.append(nnx.Linear(...))`) puts in, as the NNX analysis classifies it: the
    # NnxStatus's name and how messages name it ("an `nnx.Linear`"); empty for any other change.
    filled_status: str = ""
    filled_what: str = ""
    # What a filling puts in, as the value engine reads it (its arrays and values made anew: FILLED_KINDS).
    filled: tuple[Value, ...] = ()
    # A filling that puts in one of the function's parameters as it is: its name and position (None:
    # keyword-only); what the class's module passes there says what goes in.
    filled_parameter: str = ""
    filled_position: int | None = None


class RegisteredElsewhere(NamedTuple):
    """A registering call this module makes of a class another project module defines
    (`register_dataclass(Params, meta_fields=["mask"])`, `register_pytree_node(Basis, Basis.flatten,
    Basis.unflatten)`): the class (absolute), the mechanism, where, and the arguments its own module can
    read, each (parameter, expression as written there): literal field names, and the class's own methods
    (named by the class's own name)."""

    cls: str
    mechanism: str
    line: int
    arguments: tuple[tuple[str, str], ...]


class FileText(NamedTuple):
    """What the project's text index keeps of one file, read from its text alone (Project._text): which
    modules may use a class of another, without parsing them."""
    mtime: int  # nanoseconds: with the size, the version of the file the row was read from
    size: int
    calls: tuple[str, ...]  # capitalised names it calls, by any name it gives them
    imports: tuple[str, ...]  # modules it imports (relative ones as written)
    mentions: tuple[str, ...]  # capitalised names it writes or imports, bare (kept when it imports `*`)
    registers: bool  # spells one of jax.tree_util's registering functions
    annotated: tuple[str, ...]  # capitalised names in an annotation (`Gauges` of `dict[str, Gauges]`), or a dict value
    from_imports: dict[str, tuple[str, ...]]  # module -> the names `from module import ...` takes
    derived: tuple[str, ...] = ()  # the names its class statements derive from (`Base` of `class S(m.Base)`)


class HashedObject(NamedTuple):
    """An object of a project class another module defines, passed as a static argument of a jitted call
    (jit hashes it, and with it the fields its `__hash__` reads): the class (absolute), where, the argument as
    written, the jitted function and how messages name the argument ("argument 1")."""

    cls: str
    line: int
    text: str
    function: str
    label: str


class ArrayPassed(NamedTuple):
    """A call of another project module's function passing, at `position` (-1: by `keyword`), a parameter of
    the calling function annotated as an array (`def masked(x, mask: jax.Array): apply_mask(x, mask)`): the
    callee (absolute), where, the caller and the annotation as written (PTL405 in the callee's module)."""

    callee: str
    position: int
    keyword: str
    line: int
    caller: str
    annotation: str


class Construction(NamedTuple):
    """A call of a class (or function) of another module: what each argument is."""

    callee: str
    line: int
    arguments: tuple[Argument, ...]
    # Made where a program sets its objects up (module level, a classmethod or staticmethod: a factory),
    # not per call of an ordinary function or method (see values.Hop.kept).
    factory: bool = False
    # Made per call of a function and passed on (to a call, stored, or returned by an untraced function:
    # pytrees/aux.py's passed_on): the call as written; empty otherwise.
    per_call: str = ""
    # The function (absolute) that only returns it, when no call of it in its own module makes it per call:
    # a builder, whose calls in other modules decide how often it is made (ModuleView.built_per_call).
    builder: str = ""
    # Given as it is to a construction of another class of the project (`Reading(Units("m"))`): that class
    # (absolute), and `per_call` and `builder` of that construction, which decide when the class only keeps
    # what it is given (known where the class is, not here: the object then goes where the keeper goes).
    kept_by: str = ""
    kept_per_call: str = ""
    kept_builder: str = ""


class Uses(NamedTuple):
    """What a module does with other project modules' classes and functions: the objects it builds, changes
    and passes to transformations or as static arguments, the arrays it passes on. Each part is made when
    another module first asks for it (None until then): most modules are asked for one or two (netket: 98
    modules asked, 32 for more than one part)."""

    constructions: tuple[Construction, ...] | None = None
    # Classes imported from the project that reach a JAX transformation here, by the names this module
    # imports them as (analysis/pytrees/transformed.py).
    transformed: tuple[str, ...] | None = None
    changes: tuple[AttributeChange, ...] | None = None  # in-place changes of project classes' attributes
    hashed: tuple[HashedObject, ...] | None = None  # other modules' objects passed as static arguments here
    arrays_passed: tuple[ArrayPassed, ...] | None = None  # array-annotated parameters passed to other modules'
    # functions


@record
class ModuleSummary:
    module: str
    is_package: bool
    path: str
    digest: str
    names: dict[str, str] = field(default_factory=dict)  # local name -> absolute name it was imported as
    stars: tuple[str, ...] = ()
    defined: frozenset[str] = frozenset()
    # A function's facts are made when first asked (None until): another module rarely asks of a private one
    # (equinox: 1 of its 196 private functions, 101 of its 113 public ones), and making them was a tenth of a
    # cold run's work; a worker of a parallel run makes at once those of the public ones another module imports
    # by name (Summarizer.summary).
    functions: dict[str, FunctionFacts | None] = field(default_factory=dict)
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    jitted: dict[str, JitFacts] = field(default_factory=dict)
    # What each module-level name holds (only names whose value says something).
    bindings: dict[str, tuple[Value, ...]] = field(default_factory=dict)
    registered: tuple[RegisteredElsewhere, ...] = ()  # registrations of other modules' classes
    # What its functions return (those returning something known) and each part of its Uses: made only when
    # another module asks (most summaries are read for their names and definitions alone: flax's lint reads
    # the returns of 3 of its 727 functions, the uses of 17 of its 109 modules), from the module's file again
    # then; None until.
    made_returns: dict[str, tuple[Value, ...]] | None = None
    made_uses: Uses = Uses()
    # The store the summary was read from or put in: its returns and uses are put there too, once made.
    kept_in: SummaryStore | None = None

    # How a summary's returns and uses are made from its module's file (engine.load_analysis sets them:
    # Summarizer.returns_of and .uses_of).
    make_returns: ClassVar[Callable[[ModuleSummary], dict[str, tuple[Value, ...]]] | None] = None
    make_uses: ClassVar[Callable[[ModuleSummary, str], tuple] | None] = None
    make_functions: ClassVar[Callable[[ModuleSummary, str], dict[str, FunctionFacts]] | None] = None

    def function(self, name: str) -> FunctionFacts | None:
        """The facts of the module's function `name` (None: the module defines no such function)."""
        if name not in self.functions:
            return None
        facts = self.functions[name]
        if facts is None:
            self.functions.update(_ready(ModuleSummary.make_functions)(self, name))
            facts = self.functions[name]
            self._keep()
        return facts

    def returned_by(self, function: str) -> tuple[Value, ...]:
        """What the module's function `function` returns."""
        if self.made_returns is None:
            self.made_returns = _ready(ModuleSummary.make_returns)(self)
            self._keep()
        return self.made_returns.get(function, ())

    def uses(self, part: str) -> tuple:
        """One part of the module's Uses (the field named `part`)."""
        made = getattr(self.made_uses, part)
        if made is None:
            made = _ready(ModuleSummary.make_uses)(self, part)
            self.made_uses = self.made_uses._replace(**{part: made})
            self._keep()
        return made

    def _keep(self) -> None:
        if self.kept_in is not None:
            self.kept_in.put_later(self)

    @property
    def display_path(self) -> str:
        """The module's file as messages cite it, from the folder it is imported from (`pkg/masks.py`): the
        same wherever the linter runs."""
        name = self.module.replace(".", "/")
        return f"{name}/__init__.py" if self.is_package else f"{name}.py"

    def to_json(self) -> dict:
        """The summary as JSON data (the records become arrays, in field order)."""
        return {"module": self.module, "is_package": self.is_package, "path": self.path, "digest": self.digest,
                "names": self.names, "stars": self.stars, "defined": sorted(self.defined),
                "functions": self.functions, "classes": self.classes, "jitted": self.jitted,
                "bindings": self.bindings, "registered": self.registered, "returns": self.made_returns,
                "uses": self.made_uses}

    @classmethod
    def from_json(cls, data: dict) -> ModuleSummary:
        functions = {name: None if facts is None else _function_facts(*facts)
                     for name, facts in data["functions"].items()}
        classes = {name: ClassFacts(line, tuple(bases), library, host_state, SubclassRegistration(
                                        subclasses[0], subclasses[1], tuple(tuple(a) for a in subclasses[2]))
                                    if subclasses else None, metaclass, tuple(tuple(held) for held in holds),
                                    (first, last), registered, tuple(declared), registered_by_methods)
                   for name, (line, bases, library, host_state, subclasses, metaclass, holds, (first, last),
                              registered, declared, registered_by_methods) in data["classes"].items()}
        jitted = {name: JitFacts(tuple(positions), tuple(names), tuple(params), wrapper, tuple(arrays))
                  for name, (positions, names, params, wrapper, arrays) in data["jitted"].items()}
        bindings = {name: tuple(_value(value) for value in values) for name, values in data["bindings"].items()}
        return cls(data["module"], data["is_package"], data["path"], data["digest"], dict(data["names"]),
                   tuple(data["stars"]), frozenset(data["defined"]), functions, classes, jitted, bindings,
                   tuple(RegisteredElsewhere(cls, mechanism, line, tuple(tuple(a) for a in arguments))
                         for cls, mechanism, line, arguments in data["registered"]),
                   None if data["returns"] is None else {name: tuple(_value(value) for value in values)
                                                         for name, values in data["returns"].items()},
                   _uses(data["uses"]))


def _function_facts(line, field_facts, registers, params, decorators, factory, decorator_calls, arrays, inline,
                    forward, tree_map, rebuilds, dataclass, memoizes, builds, called_here) -> FunctionFacts:
    """A function's facts read back from their JSON array."""
    return FunctionFacts(line, FieldFacts(*field_facts) if field_facts else None, registers, tuple(params),
                         tuple(decorators), JitFactory(*factory) if factory else None,
                         tuple(DecoratorCall(callee, tuple(args), dict(keywords))
                               for callee, args, keywords in decorator_calls), tuple(arrays),
                         Inline(inline[0], tuple(inline[1]), tuple(inline[2]),
                                tuple((name, meant) for name, meant in inline[3])) if inline else None,
                         Forward(forward[0], tuple(tuple(a) for a in forward[1])) if forward else None,
                         TreeMapFacts(tuple(tree_map[0]), *tree_map[1:]) if tree_map else None,
                         rebuilds, dataclass, memoizes,
                         tuple(Built(callee, built_line, _arguments(arguments))
                               for callee, built_line, arguments in builds), called_here)


def _arguments(rows: list) -> tuple[Argument, ...]:
    return tuple(Argument(position, keyword, _value(value), *changed) for position, keyword, value, *changed in rows)


def _value(row: list) -> Value:
    """A value read back from its JSON array (its element path a tuple again)."""
    return Value._make([*row[:-1], tuple(row[-1])])


def _ready(maker: Callable | None) -> Callable:
    if maker is None:
        raise RuntimeError("no summarizer: call engine.load_analysis() first")
    return maker


def _uses(data: list) -> Uses:
    constructions, transformed, changes, hashed, arrays_passed = data
    return Uses(_made(constructions, lambda row: Construction(row[0], row[1], _arguments(row[2]), *row[3:])),
                _made(transformed, str), _made(changes, lambda row: AttributeChange(*row)),
                _made(hashed, lambda row: HashedObject(*row)), _made(arrays_passed, lambda row: ArrayPassed(*row)))


def _made(part: list | None, make: Callable) -> tuple | None:
    """A part of Uses read back, each of its rows made again (None: the part is not made yet)."""
    return None if part is None else tuple(map(make, part))


class SummaryStore:
    """Summaries on disk, keyed by the module's content hash, its name and the linter's build, in the cache's
    database (see EntryDatabase: parallel flake8 workers and `--jobs` share it). Any failure to read or write
    is ignored: the store only ever saves time."""

    def __init__(self, directory: Path | None = None) -> None:
        self.database = EntryDatabase.at((directory if directory is not None else default_directory())
                                         / "summaries.sqlite3", ("summaries", "indexes"))
        self._salt = f"{SUMMARY_VERSION}|{code_fingerprint()}".encode()

    @property
    def enabled(self) -> bool:
        """Whether the store reads and writes: asked at each use, since a process's projects outlive the run
        (`--no-cache` sets NO_SUMMARY_CACHE for its run only)."""
        return NO_SUMMARY_CACHE not in os.environ

    def _key(self, digest: str, module: str, is_package: bool) -> str:
        return content_digest(self._salt + f"|{module}|{is_package}|{digest}".encode())

    def get(self, digest: str, module: str, is_package: bool) -> ModuleSummary | None:
        if not self.enabled:
            return None
        data = self.database.get("summaries", self._key(digest, module, is_package))
        # A damaged entry reads as none (EntryDatabase checks it): the module is summarised again, the entry rewritten.
        return ModuleSummary.from_json(data) if data is not None else None

    def put(self, summary: ModuleSummary) -> bool:
        """Write a summary (whether it was: the store is on, and the write did not fail)."""
        return self.put_all([summary])

    def put_all(self, summaries: list[ModuleSummary]) -> bool:
        """Write summaries in one transaction (whether they were)."""
        return self.enabled and self.database.put("summaries", [
            (self._key(summary.digest, summary.module, summary.is_package), summary.to_json())
            for summary in summaries])

    def put_later(self, summary: ModuleSummary) -> None:
        """Put a summary once the lint that made or grew it is over (see write_pending): a lint often makes
        a summary and several parts of it (netket's whole run: 583 writes before, 464 after). A worker of a
        parallel run puts a new summary at once (Project._summarise): its sibling may need it meanwhile."""
        _PENDING.setdefault(id(summary), (self, summary))

    # what each file of a project calls and imports (Project._names_and_imports) -----------------------------
    def _index_key(self, root: Path) -> str:
        return content_digest(self._salt + str(root).encode())

    def load_index(self, root: Path) -> dict[str, FileText]:
        if not self.enabled:
            return {}
        index = self.database.get("indexes", self._index_key(root))
        return {path: FileText(*row) for path, row in index.items()} if isinstance(index, dict) else {}

    def save_index(self, root: Path, index: dict[str, FileText]) -> None:
        if self.enabled:
            self.database.put("indexes", [(self._index_key(root), index)])


# The summaries made or grown (their returns, uses or functions made) during the current lint, by id, each with
# its store.
_PENDING: dict[int, tuple[SummaryStore, ModuleSummary]] = {}


def write_pending() -> None:
    """Write the summaries the lint just over has made or grown (engine.lint_source calls it after each
    lint)."""
    by_store: dict[int, tuple[SummaryStore, list[ModuleSummary]]] = {}
    while _PENDING:
        _, (store, summary) = _PENDING.popitem()
        by_store.setdefault(id(store), (store, []))[1].append(summary)
    for store, summaries in by_store.values():
        store.put_all(summaries)
