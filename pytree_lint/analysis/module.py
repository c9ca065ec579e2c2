"""ModuleAnalysis: one module's `ast` and the facts rules ask about it, each computed once, on demand."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from functools import cached_property

from ..knowledge import Convention
from ..knowledge.nnx import LIBRARY as NNX_LIBRARY
from ..knowledge.triggers import JIT_WORDS, NNX_TRIGGERS, REGISTERING_NAMES, REGISTRATION_TRIGGERS, TREE_CALL_TRIGGERS
from .fixes import FixSafety
from .project.modules import Definition, ModuleView
from .pytrees.aux import (
    AuxSite,
    AuxSiteFinder,
    CallPlace,
    NameUses,
    call_places,
    called_only_where_traced,
    handed_and_returned,
    only_called_in,
    passed_on_at,
)
from .pytrees.children import ChildAttribute, ChildSite, ChildSiteFinder
from .pytrees.classes import ClassSemantics
from .pytrees.containers import HeldContainer, held_containers
from .pytrees.fields import Frameworks, StaticDeclaration
from .pytrees.jitted import JittedFinder, JittedFunction, StaticArray, calls_of, static_arrays
from .pytrees.keys import LookupKeys
from .pytrees.mutations import Mutations
from .pytrees.nnx import NnxClasses
from .pytrees.registrations import Registration, RegistrationFinder, defines_registered_methods
from .pytrees.structure import Structure, Swap
from .pytrees.subtrees import SubtreeTypes
from .pytrees.transformed import TransformedClasses
from .pytrees.treecalls import MapForwarding, NoneInFirstTree, TreeCall, TreeCalls
from .syntax.model import ClassInfo, FunctionInfo, ModuleIndex, is_inlined, is_name
from .syntax.source import Source, Span, home_of
from .values.inference import Elsewhere, Evidence, ValueInference
from .values.kinds import Relation

# How messages cite a place (located() below writes them): "at line 12" in the same module (in a notebook,
# "cell 3, line 4" for another cell), "(pkg/masks.py:7)" in another module of the project.
CITED_LINE = re.compile(r"\b(?:cell (\d+), )?line (\d+)\b")
CITED_ELSEWHERE = re.compile(r"\(([^()\s:]+\.py):(\d+)\)")


_SHOWN_STEPS = 8  # the most steps of a value's way a message spells out


def _has_jitted_methods(definition: Definition) -> bool:
    """A project class whose summary knows jitted methods of it."""
    return definition.cls is not None and any(key.startswith(f"{definition.name}.")
                                              for key in definition.summary.jitted)


def _offers(statement: ast.stmt) -> bool:
    """An import, or the `__all__` list naming what the module offers: no use of a name."""
    targets = (statement.targets if isinstance(statement, ast.Assign)
               else [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else [])
    return isinstance(statement, (ast.Import, ast.ImportFrom)) or any(
        isinstance(target, ast.Name) and target.id == "__all__" for target in targets)


def citations(message: str) -> list[tuple[str | None, int | None, int]]:
    """The places a message cites, each (another module's path or None, a notebook cell or None, line)."""
    found: list[tuple[str | None, int | None, int]] = [
        (None, int(m.group(1)) if m.group(1) else None, int(m.group(2))) for m in CITED_LINE.finditer(message)]
    found.extend((m.group(1), None, int(m.group(2))) for m in CITED_ELSEWHERE.finditer(message))
    return found


class ModuleAnalysis:
    """One parsed module and the lazily computed facts about it."""

    def __init__(self, tree: ast.Module, source: Source, static_field_functions: tuple[str, ...] = (),
                 fixes: bool = False, project: ModuleView | None = None) -> None:
        """`static_field_functions`: the project's own static-field helpers (qualified names).
        `fixes`: whether rules should say how to mend their findings (only `--fix`, `--diff`, JSON ask).
        `project`: the project as this module sees it, to follow imported names into (None: alone)."""
        self.source = source
        self.fixes_requested = fixes
        self.index = ModuleIndex.build(tree, source, project)
        self.frameworks = Frameworks(self.index, static_field_functions)
        self.values = ValueInference(self.index, self.frameworks)
        self.values.made_per_call = self.made_per_call
        self.classes = ClassSemantics(self.index, self.values)
        self._registrations_elsewhere: dict[int, list[Registration]] = {}
        self._call_places: dict[int, dict[int, CallPlace]] = {}  # per function: where its calls go (one walk)
        self._per_call: dict[tuple[int, int], bool] = {}  # per (construction call, function): made_per_call
        self._uses: dict[int, NameUses] = {}  # per def: handed_and_returned
        self._traced_callers: dict[int, bool] = {}  # per def: called only where the jitted functions trace it

    def close(self) -> None:
        """Let the analysis go now. Its facts refer back to it (and its classes' methods to their classes):
        cycles only Python's cyclic collector would free, after walking every object they hold (linting
        netket, 29,000 per file; none once closed). The analysis is of no use after."""
        self.index.close()
        self.__dict__.clear()

    def made_per_call(self, call: ast.Call, maker: FunctionInfo, _builders: frozenset[int] = frozenset()) -> bool:
        """Whether the object a call in the function `maker` builds is made anew by each call of it and
        passed on (to a call, stored, returned in a display or through a name): what it holds is then new
        each time. Not in a classmethod or staticmethod (a factory, run where a program sets up) unless in a
        def it returns (a decorator factory's `inner`, called per object), nor when the function is traced
        (its results are outputs). A function that only returns the call (a builder) makes it as often as its
        callers: per call when one of the module's calls of it is (`return energy, build(update)`), judged
        there."""
        if _builders:  # inside a chain of builders: its answer depends on the chain
            return self._made_per_call(call, maker, _builders)
        key = (id(call), id(maker.node))
        if key not in self._per_call:  # asked for each field of the object's class
            self._per_call[key] = self._made_per_call(call, maker, _builders)
        return self._per_call[key]

    def _made_per_call(self, call: ast.Call, maker: FunctionInfo, _builders: frozenset[int]) -> bool:
        if maker.is_classmethod or maker.is_staticmethod:  # a factory, run where a program sets up; but a def it
            return self.index.returned_builder(call) is not None  # returns runs each time it is called
        if self.values.memoized(maker):
            return False  # a memoised factory gives equal calls one object
        place = self.place_of(call, maker)
        if place is None:
            return False
        builder = self.returned_by(call, maker)
        if builder is not None and id(builder) in _builders:  # a builder calling itself: nothing more to learn
            return False
        if builder is maker.node:
            callers = self.index.callers_of(maker)
            if not callers and self._called_from_outside(maker):
                return self._passed_on_per_call(call, place)
            return any(caller is not None and self.made_per_call(built, caller, _builders | {id(maker.node)})
                       for built, caller in callers)
        nested_calls = self._calls_of_nested(builder, maker) if builder is not None else None
        if nested_calls is not None:  # a nested builder its parent calls
            return any(self.made_per_call(built, maker, _builders | {id(builder)}) for built in nested_calls)
        return self._passed_on_per_call(call, place)

    @staticmethod
    def _calls_of_nested(builder: ast.AST, maker: FunctionInfo) -> list[ast.Call] | None:
        """The calls `maker` makes of a def nested in it whose name it uses for nothing else; None for any
        other def."""
        if not only_called_in(builder, maker):
            return None
        name = builder.name  # type: ignore[attr-defined]
        return [built for built in maker.nodes(ast.Call) if isinstance(built, ast.Call) and is_name(built.func, name)]

    def deciding_builder(self, call: ast.Call, maker: FunctionInfo) -> FunctionInfo | None:
        """The top-level def whose calls decide how often `call` (in `maker`) makes its object: `maker` when it
        returns the object as it is, or, when every call of it in this module is returned as it is by one other
        def (a nested builder's parent too), that one's, up the chain (`@estimators.register def _(obs): return
        build(data)`). None when no def returns it, or the chain ends in a method or a nested def."""
        builder = self.returned_by(call, maker)
        if builder is None:
            return None
        if builder is not maker.node:  # a nested builder: its parent decides when it returns each of its calls
            nested_calls = self._calls_of_nested(builder, maker)
            if nested_calls is None or any(self.returned_by(built, maker) is not maker.node for built in nested_calls):
                return None
        current, seen = maker, set()
        while id(current.node) not in seen:
            seen.add(id(current.node))
            callers = self.index.callers_of(current)
            outer = {id(caller.node): caller for built, caller in callers
                     if caller is not None and self.returned_by(built, caller) is caller.node}
            if not callers or len(outer) != 1 or any(caller is None or id(caller.node) not in outer
                                                     for _built, caller in callers):
                break
            current = next(iter(outer.values()))
        return current if current.parent is None and current.cls is None else None

    def _called_from_outside(self, maker: FunctionInfo) -> bool:
        """Whether a builder no call of this module runs is called from outside the project (a library's
        factory, a dispatcher's registered implementation: by users, as often as they like): a method or a
        nested def, or a top-level def no other module imports. Unknown while the module is summarised alone:
        its summary names the builder, and the class's module judges it (ModuleView.built_per_call)."""
        if maker.parent is not None or maker.cls is not None:
            return True
        view = self.index.project
        return view is not None and not view.imported_elsewhere(maker.name)

    def returned_by(self, call: ast.Call, maker: FunctionInfo) -> ast.AST | None:
        """The def (`maker`'s own, or one nested in it) that returns the object `call` makes as it is (from
        any of its returns, a conditional's branch too): a builder, whose callers decide how often it is
        made. None when no def returns it so."""
        place = self.place_of(call, maker)
        if place is None or not isinstance(place.parent, ast.Return) or not (
                place.made is call or isinstance(place.made, ast.IfExp)):
            return None
        return place.function if isinstance(place.function, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    def made_per_call_if_kept(self, call: ast.Call, maker: FunctionInfo, keeper: ast.Call) -> bool:
        """made_per_call of the object `call` makes, were the construction `keeper` it is given to one that
        only keeps it (a class of another module: Construction.kept_by): it goes where the keeper's goes."""
        if self.returned_by(keeper, maker) is not None or maker.is_classmethod or maker.is_staticmethod:
            return self.made_per_call(keeper, maker)  # returned whole: as often as the keeper
        place = self.place_of(keeper, maker)
        return place is not None and self._passed_on_per_call(call, place._replace(made=keeper))

    def _passed_on_per_call(self, call: ast.Call, place: CallPlace) -> bool:
        per_call = passed_on_at(call, place, self._jitted_defs, self._handed_and_returned)
        name = getattr(place.function, "name", None)
        if per_call and place.function is not None and not passed_on_at(
                call, place, self._jitted_defs | {id(place.function)}, self._handed_and_returned):
            # only returned: per call unless a transformation traces the function (it is handed to calls and
            # never called by name: `lax.cond(p, x, update, ...)`) or what calls it
            per_call = not (name is not None and self.index.calls_passing(name) and not self.index.calls_named(name)) \
                and not called_only_where_traced(self.index, place.function, self._jitted_defs, self._traced_callers)
        return per_call

    def place_of(self, call: ast.Call, maker: FunctionInfo) -> CallPlace | None:
        """Where the object a call in the function `maker` makes goes (see places_of_calls)."""
        if id(maker.node) not in self._call_places:
            self._call_places[id(maker.node)] = call_places(maker.node, self.values.keeps_arguments)
        return self._call_places[id(maker.node)].get(id(call))

    def _handed_and_returned(self, function: ast.AST) -> NameUses:
        if id(function) not in self._uses:
            self._uses[id(function)] = handed_and_returned(function, self.values.keeps_arguments)
        return self._uses[id(function)]

    @cached_property
    def _jitted_defs(self) -> set[int]:
        return {id(j.function.node) for j in self.jitted_functions.values() if j.function is not None}

    @cached_property
    def registrations(self) -> list[Registration]:
        registrations = RegistrationFinder(self.index, self.frameworks).find()
        nnx_classes = {id(c.cls): c for c in self.nnx.classes} if any(
            r.library is NNX_LIBRARY for r in registrations) else {}
        for registration in registrations:
            if registration.library is NNX_LIBRARY and id(registration.cls) in nnx_classes:
                # A Flax NNX class: its static attributes are its aux_data (the GraphDef).
                registration.static_fields = [
                    StaticDeclaration(a.attribute, a.statement, "an NNX static attribute")
                    for a in nnx_classes[id(registration.cls)].static_attributes()]
        return registrations

    def registrations_of(self, cls: ClassInfo) -> list[Registration]:
        """The module's registrations; for a class another module defines (read from there), with how its
        own decorators or bases register it."""
        if home_of(cls.node) is None:
            return self.registrations
        if id(cls) not in self._registrations_elsewhere:
            self._registrations_elsewhere[id(cls)] = RegistrationFinder(self.index, self.frameworks).of_class(cls)
        return [*self.registrations, *self._registrations_elsewhere[id(cls)]]

    @cached_property
    def nnx(self) -> NnxClasses:
        """The Flax NNX classes of the module, their attributes classified as data or static."""
        return NnxClasses(self.index, self.values)

    @cached_property
    def aux_sites(self) -> list[AuxSite]:
        """The values of each registration's aux_data and static fields. A host-side state holder (netket's
        `mutable=True` pytrees: drivers, loggers) that reaches no transformation is left out: its static
        fields change between steps by design, and nothing compares or caches its treedef."""
        sites = AuxSiteFinder(self.index, self.values, self.swapped_returns,
                              lambda: self.jitted_functions).sites(self.registrations)
        return [site for site in sites if not self._host_state_only(site.registration)]

    def _host_state_only(self, registration: Registration) -> bool:
        cls = registration.cls
        return (cls is not None and self.frameworks.host_state(cls)
                and self.transformed_classes.reaches(cls) is None)

    @cached_property
    def structure(self) -> Structure:
        return Structure(self.index, self.values)

    @cached_property
    def subtree_types(self) -> SubtreeTypes:
        return SubtreeTypes(self.index, self.frameworks, self.registrations)

    @cached_property
    def swapped_returns(self) -> dict[int, Swap]:
        """Flatten returns written `(aux_data, children)`, by the id of the return (or lambda) node."""
        return {id(swap.node): swap for registration in self.registrations
                for swap in self.structure.swapped_returns(registration)}

    @cached_property
    def tree_calls(self) -> TreeCalls:
        return TreeCalls(self.index)

    @cached_property
    def tree_call_sites(self) -> list[TreeCall]:
        return self.tree_calls.find()

    @cached_property
    def _nones_in_maps(self) -> dict[int, NoneInFirstTree]:
        return {id(none.call.node): none for none in map(self.tree_calls.none_in_first_tree, self.tree_call_sites)
                if none is not None}

    @cached_property
    def map_forwarding(self) -> MapForwarding:
        """The functions that map their parameters as trees, and the calls of them (TreeCalls.forwarded): a
        function whose own map is reported (its None test speaks) is judged there, not at its callers (asked
        only of the maps that map a function's parameters)."""
        mapping = [call for call in self.tree_call_sites if self.tree_calls.maps_parameters(call)]
        return self.tree_calls.forwarded([call for call in mapping if id(call.node) not in self._nones_in_maps])

    @cached_property
    def map_sinks(self) -> dict[str, TreeCall]:
        """The sinks of map_forwarding alone, as a summary keeps them, sought outside the module's classes (a
        method is never one): the module's lint, which reports the calls of them, finds them everywhere
        (a summary looking in the classes took 5% of a cold run over equinox)."""
        if "map_forwarding" in self.__dict__:
            return self.map_forwarding.sinks
        tree_calls = self.tree_calls
        mapping = [call for call in tree_calls.find_maps() if tree_calls.maps_parameters(call)]
        return tree_calls.forwarded([call for call in mapping if tree_calls.none_in_first_tree(call) is None],
                                    outside_classes=True).sinks

    @cached_property
    def nones_in_first_trees(self) -> dict[int, NoneInFirstTree]:
        """Multi-tree maps (and calls of functions that make one of their parameters) whose first tree holds a
        None that another tree pairs with a value, or whose function expects one there (PTL204; PTL202
        leaves these calls to it), by the id of the call node."""
        forwarded = map(self.tree_calls.none_in_first_tree, self.map_forwarding.calls)
        return {**self._nones_in_maps, **{id(none.call.node): none for none in forwarded if none is not None}}

    @cached_property
    def lookup_keys(self) -> LookupKeys:
        """Attributes whose value the module uses as a mapping key (an identity that is the design)."""
        return LookupKeys(self.index)

    @cached_property
    def mutations(self) -> Mutations:
        return Mutations(self.index)

    @cached_property
    def held_containers(self) -> list[HeldContainer]:
        """The lists, dicts and sets held in aux_data, with their mutation or hash (PTL102, PTL901)."""
        return held_containers(self)

    @cached_property
    def _jitted_finder(self) -> JittedFinder:
        return JittedFinder(self.index, self.values)

    @cached_property
    def jitted_functions(self) -> dict[str, JittedFunction]:
        return self._jitted_finder.find()

    @cached_property
    def jitted_methods(self) -> dict[str, JittedFunction]:
        """The module's classes' jitted methods with static arguments (and the jitted functions they keep on
        their objects), by `Class.method`, as calls see them."""
        return self._jitted_finder.methods()

    @cached_property
    def jitted_calls(self) -> list[tuple[ast.Call, JittedFunction]]:
        """Each call of a jitted function of this module or imported from another project module, with the
        function; the calls a function makes of a function it jits itself; the calls of the module's
        classes' jitted methods on their objects, and of the jitted functions their methods keep on them."""
        module = self.jitted_functions  # first: the module's `partial(jax.jit, ...)` wrappers are known then
        imported = {name: jitted for name, jitted in self._jitted_finder.imported().items() if name not in module}
        return [*calls_of(self.index, {**module, **imported}), *self._jitted_finder.in_functions(),
                *self._jitted_finder.bound_methods(self.jitted_methods)]

    @cached_property
    def static_arrays(self) -> list[StaticArray]:
        """The static parameters of the module's jitted defs that are arrays (PTL405; PTL403 leaves the
        calls that pass them an array to it)."""
        return static_arrays(self.jitted_functions, self.jitted_calls, self.index, self.values)

    def project_words(self, wanted: Collection[str]) -> set[str]:
        """The rule triggers among `wanted` (those of the rules the text calls for none of) that this module's
        imports from the project stand for, though its text spells none: a class, decorator or field helper
        another module makes a pytree library's, a jitted function. A word no rule wants is not looked for
        (whether another module may register each of the module's classes, what each imported function is)."""
        words: set[str] = set()
        project = self.index.project
        registering, nnx = REGISTRATION_TRIGGERS[0] in wanted, NNX_TRIGGERS[0] in wanted
        jitted, mapped = not JIT_WORDS.isdisjoint(wanted), TREE_CALL_TRIGGERS[0] in wanted
        if project is None or not (registering or nnx or jitted or mapped):
            return words
        if registering and any(project.may_register(name) or (defines_registered_methods(cls) and any(
                project.heirs_registered_by_methods(name))) for name, cls in self.index.classes.items()):
            words.add(REGISTRATION_TRIGGERS[0])  # a class of this module another module may register, or a
            # mixin whose heirs another module registers by the methods they inherit from it
        # Only a name the module uses can matter (a base, a call, a field helper, an annotation): a name a
        # package's `__init__` imports only to offer it stands for no rule's words there (equinox's, a hundred
        # names, each resolved for it alone).
        used = "".join(text for statement, text in self.index.statement_texts if not _offers(statement))
        for local, _target in self.index.aliases.items():
            if local not in used:
                continue
            # A pytree library's own name where no import line spells the library (its own source, equinox's
            # `from .._module import Module`; a project module re-exporting it).
            qualified = self.index.qualify(ast.Name(local))
            if registering and qualified in REGISTERING_NAMES:
                words.add(REGISTRATION_TRIGGERS[0])
            if nnx and qualified in NNX_LIBRARY.bases:
                words.add(NNX_TRIGGERS[0])
            definition = project.definition(qualified)
            if definition is None:
                continue
            # A function's facts are made when first asked (another module's, here): only for a wanted word.
            function = definition.function if registering or jitted or mapped else None
            library = project.class_library(definition) if definition.cls is not None else None
            registers = library is not None or (registering and definition.cls is not None
                                                and project.subclass_registration(definition) is not None)
            if registering and (registers or (function is not None and (function.registers or function.field))):
                words.add(REGISTRATION_TRIGGERS[0])
            if nnx and library is not None and library.convention is Convention.NNX:
                words.add(NNX_TRIGGERS[0])
            if jitted:
                jit = project.jit(definition)
                if jit is not None and (jit.static_positions or jit.static_names or jit.wrapper):
                    words.update(JIT_WORDS)
                inline = function.inline if function is not None else None
                built = [project.definition(meant) for _name, meant in inline.names] if inline is not None else []
                if any(made is not None and _has_jitted_methods(made) for made in [definition, *built]):
                    words.update(JIT_WORDS)  # a class with jitted methods (or a function returning one of its
                    # objects, `def build(): return Stepper()`): their calls here
            if mapped and function is not None and project.tree_map(definition) is not None:
                words.add(TREE_CALL_TRIGGERS[0])  # a call of it makes a multi-tree map
        return words

    @cached_property
    def transformed_classes(self) -> TransformedClasses:
        """Which classes reach a JAX transformation, here or in another module of the project."""
        return TransformedClasses(self)

    @cached_property
    def children(self) -> ChildSiteFinder:
        return ChildSiteFinder(self.index, self.values, self.swapped_returns)

    @cached_property
    def child_sites(self) -> list[ChildSite]:
        return self.children.sites(self.registrations)

    @cached_property
    def child_attributes(self) -> list[ChildAttribute]:
        return self.children.attributes(self.registrations, self.structure)

    # fixes ------------------------------------------------------------------------------------------------
    @cached_property
    def fix_safety(self) -> FixSafety:
        """Who calls what and who mutates what in the module: one walk, made when a fix first asks."""
        return FixSafety(self.index)

    # positions and quotes ---------------------------------------------------------------------------------
    def span(self, node: ast.AST) -> Span | None:
        """((line, column), (end line, end column)) of a node; lines 1-based, columns 0-based characters."""
        return self.source.span(node)

    def position(self, node: ast.AST) -> tuple[int, int] | None:
        span = self.span(node)
        return span[0] if span is not None else None

    def snippet(self, node: ast.AST) -> str:
        return self.source.snippet(node)

    def located(self, node: ast.AST | Elsewhere) -> str:
        """"`code` at line N" for a node (the line is left out if the node is not in the module);
        "`code` (pkg/masks.py:12)" for an expression of another module."""
        if isinstance(node, Elsewhere):
            return f"`{node.text}` ({node.path}:{node.line})"
        home = home_of(node)
        if home is not None and home is not self.source:  # read from another module (a class defined there)
            return f"`{self.snippet(node)}` ({home.path}:{getattr(node, 'lineno', 0)})"
        position = self.position(node)
        where = f" at line {position[0]}" if position else ""
        if is_inlined(node):  # a helper's returned expression, placed at its call: not the call's text
            return f"`{' '.join(ast.unparse(node).split())}` through the call{where}"
        return f"`{self.snippet(node)}`{where}"

    def origin(self, evidence: Evidence) -> str:
        """Where the value comes from: "`self.mask` is assigned `xp.arange(n) < k` at line 8"."""
        if not evidence.trail:
            return self.located(evidence.node)
        # A helper's return continues the step before: "`self.mask` is assigned `make_mask(n)` at line 8,
        # which returns `jnp.arange(n) < k` (pkg/masks.py:12)".
        steps = [f"{'which' if number and hop.relation is Relation.RETURNS else f'`{hop.via}`'} {hop.phrase} "
                 f"{self.located(hop.node)}" for number, hop in enumerate(evidence.trail)]
        total = len(steps) + evidence.elided
        if total > _SHOWN_STEPS:  # a long chain of helpers: its ends say where the value goes and comes from
            steps = [*steps[:_SHOWN_STEPS - 2], f"then {total - _SHOWN_STEPS + 1} more steps", *steps[-1:]]
        return ", ".join(steps)
