"""Builds a module's `ModuleSummary` from its source, with the same analysis the rules use."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path

from ...diskio import python_text
from ...knowledge import FIELD_HELPERS
from ...knowledge.jax import BY_METHODS, JIT, Mechanism
from ...knowledge.python import PARTIAL
from ..module import ModuleAnalysis
from ..pytrees.fields import makes_dataclass, memoizes, rebuilt_by, registered_by, spells_one_of
from ..pytrees.jitted import annotated_static_arrays, array_annotation, array_parameter, jit_factory, literal
from ..pytrees.mutations import changed_in_place
from ..pytrees.registrations import RegistrationFinder
from ..pytrees.treecalls import TreeCall
from ..syntax.model import (
    FunctionInfo,
    filling,
    first_line,
    reached,
    returned_expression,
    returned_with_locals,
    unquoted,
    written_as,
)
from ..syntax.source import Source, parse
from ..values.inference import FILLED_KINDS, Context, Evidence, element_of
from ..values.kinds import Kind
from .modules import NEVER_FOLLOWED, UNREADABLE, Project, absolute, summarised_source
from .summary import (
    ITEMS,
    KEPT_ELEMENTS,
    KEPT_KINDS,
    KEPT_REFERENCES,
    Argument,
    ArrayPassed,
    AttributeChange,
    Built,
    ClassFacts,
    Construction,
    DecoratorCall,
    FieldFacts,
    Forward,
    FunctionFacts,
    HashedObject,
    Inline,
    JitFacts,
    ModuleSummary,
    TreeMapFacts,
    Value,
)

# A word of a module's text: a name it spells (in code, or in a string annotation).
WORD = re.compile(r"\w+")
# Statements whose value a name holds, cited by that name.
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

# The analyses of the last modules summarised, by (path, digest), are kept for their returns and uses (the
# modules that ask are mostly linted soon after the module: the CLI lints a module before those importing it),
# the least recently used dropped beyond this many characters of their texts (an analysis takes about 25 bytes
# per character: at most about 100 MB). Eight analyses, the limit before, made a cold netket run parse a fifth of
# its text again, for the uses of modules summarised earlier.
RECENT_CHARACTERS = 4_000_000
_RECENT: dict[tuple[str, str], Summarizer] = {}
_recent_characters = 0


def _analysed(data: bytes, parsed: tuple[ast.Module, str] | None = None, keep: bool = False) -> ModuleAnalysis:
    """A module's source analysed alone (raises one of UNREADABLE); `parsed` and `keep` as Summarizer.run's."""
    text = python_text(data)
    tree = parsed[0] if parsed is not None and parsed[1] == text else parse(text, keep)
    analysis = ModuleAnalysis(tree, Source(text))
    analysis.index.lend()  # to the module's own lint, when the tree is its (see ModuleIndex.build)
    return analysis


def _keep_recent(key: tuple[str, str], summarizer: Summarizer) -> None:
    """Keep a summarizer among the recent ones; the one it replaces and the least recently used beyond the
    limit are closed (nothing else holds them: an analysis alone reads no other module, so none is in use)."""
    global _recent_characters
    replaced = _RECENT.pop(key, None)
    if replaced is not None:
        _recent_characters -= len(replaced.analysis.source.text)
        if replaced is not summarizer:
            replaced.analysis.close()
    _RECENT[key] = summarizer
    _recent_characters += len(summarizer.analysis.source.text)
    while _recent_characters > RECENT_CHARACTERS and len(_RECENT) > 1:
        oldest = _RECENT.pop(next(iter(_RECENT)))
        _recent_characters -= len(oldest.analysis.source.text)
        oldest.analysis.close()


class Summarizer:
    def __init__(self, analysis, module: str, is_package: bool) -> None:
        self.analysis = analysis
        self.index = analysis.index
        self.module = module
        self.is_package = is_package
        analysis.values.project_name = self.project_name
        analysis.values.module_name = module

    @classmethod
    def run(cls, data: bytes, path: str, module: str, is_package: bool, digest: str,
            parsed: tuple[ast.Module, str] | None = None, keep: bool = False) -> ModuleSummary | None:
        """The summary of a module's source (None when it is no Python this interpreter can parse); `parsed`,
        the tree and text a lint of the same source already has (it is not parsed again); `keep`: the tree
        is kept for the module's own lint to come (see source.parse)."""
        try:
            summarizer = cls(_analysed(data, parsed, keep), module, is_package)
            summary = summarizer.summary(path, digest)
        except UNREADABLE:
            return None
        _keep_recent((path, digest), summarizer)
        return summary

    @classmethod
    def returns_of(cls, summary: ModuleSummary) -> dict[str, tuple[Value, ...]]:
        """What the functions of the module a summary was made of return (see of_summary)."""
        summarizer = cls.of_summary(summary)
        return summarizer.returns() if summarizer is not None else {}

    @classmethod
    def uses_of(cls, summary: ModuleSummary, part: str) -> tuple:
        """One part (a field of Uses) of what the module a summary was made of does with other modules'
        classes and functions (see of_summary)."""
        summarizer = cls.of_summary(summary)
        return summarizer.uses(part) if summarizer is not None else ()

    @classmethod
    def functions_of(cls, summary: ModuleSummary, name: str) -> dict[str, FunctionFacts]:
        """The facts of the function `name` of the module a summary was made of (see ModuleSummary.functions):
        alone when the analysis that made the summary is kept, else with those of every function whose facts
        are not made yet (the file is read again for them)."""
        kept = (summary.path, summary.digest) in _RECENT
        summarizer = cls.of_summary(summary)
        if summarizer is None:
            return {}
        functions = summarizer.index.functions
        missing = [name] if kept else [other for other, facts in summary.functions.items() if facts is None]
        made = {each: summarizer._function(functions[each]) for each in missing if each in functions}
        made.update((each, summarizer._bound_field_helper(each)) for each in missing
                    if each in summarizer._bound_field_helpers and each not in made)
        return made

    @classmethod
    def of_summary(cls, summary: ModuleSummary) -> Summarizer | None:
        """The analysis that made a summary when it is among those kept (see RECENT_CHARACTERS), else the
        module's file read again and kept among them (None when the file is gone or no longer the one
        summarised: a new summary is made)."""
        key = (summary.path, summary.digest)
        summarizer = _RECENT.get(key)
        if summarizer is not None:
            _keep_recent(key, summarizer)  # the most recently used now
        else:
            data = summarised_source(summary.path, summary.digest)
            if data is None:
                return None
            try:
                summarizer = cls(_analysed(data), summary.module, summary.is_package)
            except UNREADABLE:
                return None
            _keep_recent(key, summarizer)
        return summarizer

    @classmethod
    def calls_in(cls, summary: ModuleSummary, name: str) -> tuple[Construction, ...]:
        """The calls the module a summary was made of makes of project functions named `name` (see calls_of),
        from the analysis kept with it (see of_summary: netket's modules were parsed again for them, 19 in a
        cold run)."""
        summarizer = cls.of_summary(summary)
        if summarizer is None:
            return ()
        try:
            return tuple(summarizer.calls_of(name))
        except UNREADABLE:
            return ()

    def absolute(self, qualified: str) -> str:
        return absolute(qualified, self.module, self.is_package) or qualified

    def is_projects(self, qualified: str) -> bool:
        """A name of the project's own: a relative import, or one of the module's own top package (never
        jax's or numpy's, whose names are library names even in their own source)."""
        package = self.module.split(".", 1)[0]
        return package not in NEVER_FOLLOWED and (qualified.startswith(".")
                                                  or qualified.split(".", 1)[0] == package)

    def project_name(self, qualified: str) -> str | None:
        """The absolute name of a name of the project's own, else None: what the summary may refer to."""
        return absolute(qualified, self.module, self.is_package) if self.is_projects(qualified) else None

    def summary(self, path: str, digest: str) -> ModuleSummary:
        """The module's summary. Its functions' facts are made when another module first asks (ModuleSummary.
        function), from the analysis kept with it; a worker of a parallel run makes at once those of the public
        functions another module imports by name, for its sibling reads the summary from the store and would
        parse the module again for them (equinox, 2 jobs: 0.200 s at once, 0.216 when asked; netket 0.761 s
        with every public function's, 0.734 with those imported by name). Alone, a process makes those asked
        only (flake8 per save with an empty cache: 258 to 245 ms on flax's `scope.py`; equinox's modules are
        asked for 72 of their 109 public functions' facts, netket's for 274 of 591)."""
        index = self.index
        project = Project.for_file(path) if Project.takes is not None else None
        imported = project.imported_by_name(Path(path)) if project is not None else ()
        names = {local: self.absolute(target) for local, target in index.aliases.items()}
        defined = frozenset({*index.classes, *index.functions, *index.bindings})
        jitted = {name: JitFacts(tuple(sorted(j.static_positions)), tuple(sorted(j.static_names)),
                                 j.parameters, j.wrapper,
                                 tuple(p.name for p, _ in annotated_static_arrays(j, self.analysis.values)))
                  for name, j in {**self.analysis.jitted_functions, **self.analysis.jitted_methods}.items()}
        return ModuleSummary(
            self.module, self.is_package, path, digest, names,
            tuple(self.absolute(star) for star in index.aliases.star_modules), defined,
            {**{name: self._function(function) if name in imported and not name.startswith("_") else None
                for name, function in index.functions.items()},
             **{name: None for name in self._bound_field_helpers}},
            {name: self._class(cls) for name, cls in index.classes.items()}, jitted, self._bindings(),
            tuple(RegistrationFinder(index, self.analysis.frameworks).imported_classes(self.project_name)))

    def returns(self) -> dict[str, tuple[Value, ...]]:
        return {name: values for name, function in self.index.functions.items()
                if (values := self._returns(function))}

    def uses(self, part: str) -> tuple:
        """One part of the module's Uses (the field named `part`)."""
        made_by = {"constructions": self._constructions, "transformed": self._transformed, "changes": self._changes,
                   "hashed": self._hashed, "arrays_passed": self._arrays_passed}
        return tuple(made_by[part]())

    # functions -------------------------------------------------------------------------------------------------
    def _value(self, evidence: Evidence, expr: ast.expr) -> Value:
        """A value as other modules cite it: the expression (the element of it the value is, when it is a
        display's), unless it is a bare name (then where the name's value was made: a def or class by its
        name, not its whole text). Made once: kept where the program sets its objects up, or an object
        compared by identity a module-level name holds."""
        element = shown = element_of(expr, evidence.elements)  # the element is cited (its path says so)
        if isinstance(element, ast.Name):
            shown = evidence.trail[0].node if evidence.trail else evidence.node
        position = self.analysis.position(shown) or self.analysis.position(expr) or (0, 0)
        made = evidence.trail[-1].node if evidence.trail else element
        text = shown.name if isinstance(shown, DEFINITIONS) else self.analysis.snippet(shown)
        return Value(evidence.kind.value, evidence.what, text, position[0],
                     evidence.leaf.value if evidence.leaf is not None else None, contained=made is not evidence.node,
                     made_once=evidence.made_once or (evidence.shared and evidence.kind is Kind.VOLATILE),
                     elements=evidence.elements)

    def _kinds(self, evidence: list[Evidence], expr: ast.expr) -> list[Value]:
        """The first evidence of each kind other modules care about, for the value and for each element of
        the tuple or list it is (`return mask, n`: a caller unpacking it takes its own), and the first few
        references."""
        found = []
        for kind in KEPT_KINDS:
            firsts: dict[tuple[int | str, ...], Evidence] = {}
            for e in evidence:
                if e.kind is kind and (e.elements in firsts or len(firsts) < KEPT_ELEMENTS):
                    firsts.setdefault(e.elements, e)
            found.extend(self._value(first, expr) for first in firsts.values())
        references = dict.fromkeys((e.refers, e.elements) for e in evidence if e.refers is not None)
        found.extend(Value(Kind.REFERENCE.value, f"`{reference}`", "", 0, None, reference, elements=elements)
                     for reference, elements in list(references)[:KEPT_REFERENCES])
        return found

    def _returns(self, function: FunctionInfo) -> tuple[Value, ...]:
        """What a function returns, and what the attributes of the objects it builds hold (elements `.attr`)."""
        values = self.analysis.values
        returned = [(values.as_returned(function, statement), statement.value)
                    for statement in function.return_statements if statement.value is not None]
        return (*(value for kept, written in returned
                  for value in self._kinds(values.infer(kept, Context(function)), written)),
                *(value for argument, evidence in values.attributes_kept(function)
                  for value in self._kinds(evidence, argument)))

    @cached_property
    def _bound_field_helpers(self) -> dict[str, FieldFacts]:
        """The module-level names bound once to a lambda that returns a library field call (`static_field =
        lambda v=MISSING: dataclasses.field(default=v, metadata=dict(static=True))`) or to a `functools.partial`
        of one (`functools.partial(flax.struct.field, pytree_node=False)`), as the module reads its own
        (Frameworks.module_helper_field), or of what a function of another module returns (`_partial_of_imported`):
        field helpers for the modules that import them, as a def would be (their other facts are a def's only)."""
        frameworks = self.analysis.frameworks
        found = {}
        for name, values in self.index.bindings.items():
            if len(values) != 1 or not isinstance(values[0], (ast.Lambda, ast.Call)):
                continue
            returned = frameworks.module_helper_field(name)
            facts = self._field(returned) if returned is not None else self._partial_of_imported(values[0])
            if facts is not None:
                found[name] = facts
        return found

    def _partial_of_imported(self, value: ast.expr) -> FieldFacts | None:
        """`functools.partial(make_field(), pytree_node=False)` of a function of another project module: the
        library helper is what that function returns (or what an attribute of the object it returns keeps,
        `make_held().value`), found where the helper is used (Frameworks.project_field), with the partial's
        literal flags."""
        if not (isinstance(value, ast.Call) and value.args and self.index.qualify(value.func) == PARTIAL):
            return None
        made, attribute = written_as(value.args[0], None, self.index), ""
        if isinstance(made, ast.Attribute) and isinstance(made.value, ast.Call):
            attribute, made = f".{made.attr}", made.value
        qualified = self.index.qualify(made.func) if isinstance(made, ast.Call) and not (
            made.args or made.keywords) else None
        source = self.project_name(qualified) if qualified is not None else None
        if source is None:
            return None
        flags = {k.arg: k.value.value for k in value.keywords
                 if k.arg is not None and isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)}
        return FieldFacts(f"{source}(){attribute}", flags)

    def _bound_field_helper(self, name: str) -> FunctionFacts:
        line = self.analysis.position(self.index.bindings[name][0])
        return FunctionFacts(line[0] if line else 0, self._bound_field_helpers[name])

    def _function(self, function: FunctionInfo) -> FunctionFacts:
        field = next((facts for statement in function.return_statements if isinstance(statement.value, ast.Call)
                      and (facts := self._field(statement.value)) is not None),
                     None) if spells_one_of(self.index, function, FIELD_HELPERS) else None
        line = self.analysis.position(function.node)
        decorators = tuple(self.absolute(name) for name in map(self.index.qualify, function.node.decorator_list)
                           if name)
        return FunctionFacts(line[0] if line else 0, field, registered_by(self.index, function),
                             tuple(p.name for p in function.params), decorators, jit_factory(self.index, function),
                             self._decorator_calls(function),
                             tuple(p.name for p in function.params if array_annotation(self.analysis.values, p)),
                             self._inline(function), self._forward(function), self._tree_map(function),
                             rebuilt_by(self.index, function), makes_dataclass(self.index, function),
                             memoizes(self.index, function), self._builds(function),
                             function.name in self.index.called_names)

    def _builds(self, function: FunctionInfo) -> tuple[Built, ...]:
        """The objects a function returns when every return builds one of a class it imports (see
        ValueInference.returned_constructions), with what each argument of the call is: which of them its
        attributes keep is known only where the class is read (the module's own classes' attributes are in
        its returns: ValueInference.attributes_kept)."""
        built = []
        for call, where in self.analysis.values.returned_constructions(function) or ():
            qualified = self.index.qualify(call.func)  # an imported class (`constructions_returned` knows it is)
            if qualified is None or self.index.resolve_class(call.func) is not None:
                return ()
            callee = self.absolute(qualified)
            position = self.analysis.position(call)
            built.append(Built(callee, position[0] if position else 0, self._arguments_of(call, where)))
        return tuple(built)

    def _tree_map(self, function: FunctionInfo) -> TreeMapFacts | None:
        """How a module function maps its own parameters as every tree of a multi-tree map (TreeCalls.forwarded):
        the parameters and the map it makes, in its body or through another function of the module."""
        sink = self.analysis.map_sinks.get(function.name)
        if sink is None or sink.scope is None or sink.scope.node is not function.node:
            return None
        mapped = sink.map_made
        if not isinstance(mapped, TreeCall):  # never here: a summary reads no other module
            return None
        position = self.analysis.position(mapped.node)
        return TreeMapFacts(tuple(tree.id for tree in sink.trees), sink.kind,  # type: ignore[attr-defined]
                            position[0] if position else 0, self.analysis.snippet(mapped.node))

    def _inline(self, function: FunctionInfo) -> Inline | None:
        """The returned expression of a function whose body does nothing else (but bind locals it reads
        once: see returned_with_locals), when it reads only its own
        parameters, builtins and names the module imports or defines (each kept with what it stands for, so
        the expression means the same written at a call in another module)."""
        value = returned_expression(function, imports=True) or returned_with_locals(function)
        arguments = function.node.args
        if value is None or arguments.vararg is not None or arguments.kwarg is not None:
            return None
        positional = tuple(p.name for p in function.positional_params)
        keyword_only = tuple(p.name for p in function.keyword_only_params)
        parameters = {*positional, *keyword_only}
        names: dict[str, str] = {}
        for node in ast.walk(value):
            if isinstance(node, (ast.Lambda, ast.comprehension, ast.NamedExpr)):
                return None
            if isinstance(node, ast.Name) and node.id not in parameters:
                meant = self._module_name(node.id)
                if meant is not None:
                    names[node.id] = meant
                elif not self.index.is_builtin(node.id):  # a builtin means the same at the call
                    return None
        return Inline(ast.unparse(value), positional, keyword_only, tuple(sorted(names.items())))

    def _module_name(self, name: str) -> str | None:
        """What a module-level name stands for, absolute: an import, or a class or function of the module."""
        index = self.index
        if name in index.classes or name in index.functions:
            return f"{self.module}.{name}"
        if index.aliases.is_module_local(name):
            return None  # a module variable: its value is not carried along
        qualified = index.aliases.qualify_name(name)
        return self.absolute(qualified) if qualified is not None else None

    def _forward(self, function: FunctionInfo) -> Forward | None:
        """What a function passes on of its parameters to the project function whose call it returns."""
        call = returned_expression(function)
        if not isinstance(call, ast.Call) or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return None
        if isinstance(call.func, ast.Name) and self.index.module_function(call.func.id) is not None:
            callee: str | None = f"{self.module}.{call.func.id}"
        else:
            qualified = self.index.qualify(call.func)
            callee = self.project_name(qualified) if qualified is not None else None
        parameters = {p.name for p in function.params}
        passed = []
        for position, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                break
            if isinstance(argument, ast.Name) and argument.id in parameters:
                passed.append((None, position, argument.id))
        passed.extend((k.arg, None, k.value.id) for k in call.keywords
                      if k.arg is not None and isinstance(k.value, ast.Name) and k.value.id in parameters)
        return Forward(callee, tuple(passed)) if callee is not None and passed else None

    def _decorator_calls(self, function: FunctionInfo) -> tuple[DecoratorCall, ...]:
        """Decorators written as calls (`@jit_static("n")`), with their literal arguments: one may be the
        project's jit decorator factory (ModuleView.jit asks its module)."""
        found = []
        for decorator in function.node.decorator_list:
            callee = self.index.qualify(decorator.func) if isinstance(decorator, ast.Call) else None
            if callee is not None and callee not in JIT and callee != PARTIAL:
                found.append(DecoratorCall(self.absolute(callee), tuple(map(literal, decorator.args)),
                                           {k.arg: literal(k.value) for k in decorator.keywords if k.arg}))
        return tuple(found)

    def _field(self, call: ast.Call) -> FieldFacts | None:
        """A helper returning a library field call (`return eqx.field(static=True, **kwargs)`)."""
        metadata = self.analysis.frameworks.field_metadata(call)
        qualified = self.index.qualify(call.func)
        if metadata is None or qualified is None:
            return None
        given = next((k.value for k in call.keywords if k.arg == "metadata"), None)
        given = written_as(given, self.index.enclosing_function(call), self.index) if given is not None else None
        attribute = ""
        if isinstance(given, ast.Attribute) and isinstance(given.value, ast.Call):  # `make_held().value`
            attribute, given = given.attr, given.value
        made_by = self.index.qualify(given.func) if isinstance(given, ast.Call) and not (
            given.args or given.keywords) else None
        source = self.project_name(made_by) if made_by is not None else None
        return FieldFacts(self.absolute(qualified), metadata, f"{source}().{attribute}" if source and attribute
                          else source)

    def _bindings(self) -> dict[str, tuple[Value, ...]]:
        """What the module's top-level names hold, for the modules that import them (only the names whose
        value says something: most are functions, classes and imports)."""
        found = {}
        for name, values in self.index.bindings.items():
            if any(value is not None for value in values):
                use = ast.Name(name, ast.Load())  # a use of the name after the module ran: every binding
                held = self._kinds(self.analysis.values.infer(use), use)
                if held:
                    found[name] = tuple(held)
        return found

    # classes -------------------------------------------------------------------------------------------------
    def _class(self, cls) -> ClassFacts:
        bases = [name for base in cls.bases if (name := self._class_name(base)) is not None]
        metaclass = cls.keywords.get("metaclass")
        registered = self.analysis.frameworks.library_class(cls)
        line = self.analysis.position(cls.node)
        return ClassFacts(line[0] if line else 0, tuple(bases),
                          registered.library.name if registered is not None else None,
                          self.analysis.frameworks.host_state(cls),
                          RegistrationFinder(self.index, self.analysis.frameworks).subclass_registration(cls),
                          self._class_name(metaclass) if metaclass is not None else None,
                          tuple((attr, held) for attr, item in self.index.held_items(cls)
                                if (held := self._annotated_class(item)) is not None),
                          (first_line(cls.node), cls.node.end_lineno or cls.node.lineno),
                          id(cls) in self._registered_here, tuple(sorted(cls.bound_names)),
                          self._registered_here.get(id(cls)))

    @cached_property
    def _registered_here(self) -> dict[int, str | None]:
        """The module's classes it registers through JAX itself (by id), each with the registering function
        when one registers it by its methods (see ClassFacts.registered_by_methods): read only from a text
        that spells one of JAX's registering functions."""
        if not any(mechanism.value in self.analysis.source.text for mechanism in Mechanism):
            return {}
        found: dict[int, str | None] = {}
        for registration in self.analysis.registrations:
            if registration.cls is not None and not found.get(id(registration.cls)):
                found[id(registration.cls)] = registration.mechanism.value \
                    if registration.mechanism in BY_METHODS else None
        return found

    def _class_name(self, expr: ast.expr) -> str | None:
        """The absolute name of the class a base or metaclass expression names (`Base`, `mod.Base[T]`)."""
        expr = expr.value if isinstance(expr, ast.Subscript) else expr
        local = self.index.resolve_class(expr)
        qualified = f"{self.module}.{local.name}" if local is not None else self.index.qualify(expr)
        return self.absolute(qualified) if qualified else None

    # calls into other modules --------------------------------------------------------------------------------
    def _constructions(self) -> list[Construction]:
        """Calls of classes imported from the project (`Mesh(coords=np.zeros(3))`), with what each argument is
        where the call is written, and whether the object is made per call of a function and passed on (a
        builder that only returns it is judged where it is called); and calls of the module's own classes
        derived from another project module's class: what they give the fields they inherit is the base's
        module's to judge (see Project.subclasses)."""
        imported = tuple(local for local, target in self.index.aliases.items()
                         if local[:1].isupper() and self.is_projects(target))
        return self._calls((*imported, *self._derived_from_elsewhere),
                           lambda callee: callee.rsplit(".", 1)[-1][:1].isupper(), built=True)

    @cached_property
    def _derived_from_elsewhere(self) -> tuple[str, ...]:
        """The module's top-level classes with a base another module of the project defines."""
        own = f"{self.module}."
        return tuple(name for name, cls in self.index.classes.items()
                     if any((base := self._class_name(each)) is not None and self.is_projects(base)
                            and not base.startswith(own) for each in cls.bases))

    def calls_of(self, name: str) -> list[Construction]:
        """The calls of a project function named `name` (by its name or through its module) that pass
        something known: what another module's helper that builds an object with its parameters is given
        (ModuleView's parameter references; asked only then, not summarised)."""
        imported = tuple(local for local, target in self.index.aliases.items() if self.is_projects(target))
        return self._calls(imported, lambda callee: callee.rsplit(".", 1)[-1] == name, built=False)

    def _calls(self, imported: tuple[str, ...], wanted: Callable[[str], bool], built: bool) -> list[Construction]:
        if not imported:
            return []
        found = []
        own = self._derived_from_elsewhere if built else ()
        for call, in_function in self.index.calls_of(imported):
            callee = f"{self.module}.{call.func.id}" if isinstance(call.func, ast.Name) and call.func.id in own \
                and self.index.resolve_class(call.func) is not None else self.index.qualify(call.func)
            if callee is None or not self.is_projects(callee) or not wanted(callee):
                continue
            maker = self.index.enclosing_function(call) if in_function else None
            per_call, builder = self._how_often(call, maker)
            keeper = self._keeper(call, maker) if built and maker is not None else None
            kept_by, (kept_per_call, kept_builder) = ("", ("", "")) if keeper is None else (
                keeper[0], self._how_often(keeper[1], maker, kept=call))
            arguments = self._arguments_of(call, self.index.innermost_scope(call) if in_function else None)
            if arguments or per_call or builder or kept_by:
                position = self.analysis.position(call)
                factory = maker is None or maker.is_classmethod or maker.is_staticmethod
                found.append(Construction(self.absolute(callee), position[0] if position else 0, arguments,
                                          factory, per_call, builder, kept_by, kept_per_call, kept_builder))
        return found

    def _how_often(self, call: ast.Call, maker: FunctionInfo | None,
                   kept: ast.Call | None = None) -> tuple[str, str]:
        """Construction.per_call and Construction.builder of a call in `maker` (None: module level); with
        `kept`, of the object that construction `kept` makes, given to `call` (a keeper: kept_per_call and
        kept_builder)."""
        per_call = maker is not None and (self.analysis.made_per_call(call, maker) if kept is None
                                           else self.analysis.made_per_call_if_kept(kept, maker, call))
        deciding = self.analysis.deciding_builder(call, maker) if maker is not None and not per_call else None
        builder = f"{self.module}.{deciding.name}" if deciding is not None else ""
        return self.analysis.snippet(call) if per_call else "", builder

    def _keeper(self, call: ast.Call, maker: FunctionInfo) -> tuple[str, ast.Call] | None:
        """The construction of another project class that takes the object as an argument, as it is, with
        that class's absolute name (Construction.kept_by)."""
        place = self.analysis.place_of(call, maker)
        keeper = place.parent if place is not None else None
        if not isinstance(keeper, ast.Call) or place.made is not call or call not in (  # type: ignore[union-attr]
                *keeper.args, *(k.value for k in keeper.keywords)):
            return None
        callee = self.index.qualify(keeper.func)
        return (self.absolute(callee), keeper) if callee is not None and self.is_projects(callee) else None

    def _arguments_of(self, call: ast.Call, function: FunctionInfo | None) -> tuple[Argument, ...]:
        """What each argument of a call is (positional ones up to a starred one), read where it is written,
        and how the function changes it in place after the call, if it does."""
        arguments = []
        for position, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                break
            changed = self._changed_after(argument, call, function)
            arguments.extend(Argument(position, None, value, *changed)
                             for value in self._argument(argument, function))
        for keyword in call.keywords:
            if keyword.arg is not None:
                changed = self._changed_after(keyword.value, call, function)
                arguments.extend(Argument(None, keyword.arg, value, *changed)
                                 for value in self._argument(keyword.value, function))
        return tuple(arguments)

    def _changed_after(self, argument: ast.expr, call: ast.Call, function: FunctionInfo | None) -> tuple[str, int]:
        """The in-place change the function makes of a local it passes, after the call (see
        Mutations.changed_after), as written and its line; empty when it makes none."""
        if function is None or not isinstance(argument, ast.Name) or argument.id in function.all_params:
            return "", 0
        change = self.analysis.mutations.changed_after(argument.id, function, call)
        return (self.analysis.snippet(change.node), change.order[0]) if change is not None else ("", 0)

    def _changes(self) -> tuple[AttributeChange, ...]:
        """In-place changes of project classes' attributes through what is declared as one of them (a
        parameter, an item of a collection of them, by index, loop or comprehension, an attribute of `self`)
        in the module's functions (the class's own module reports them for its aux_data)."""
        found: list[AttributeChange] = []
        leading = self._names_leading_elsewhere()
        if not leading:
            return ()
        declared_by_class: dict[int, set[str]] = {}  # per class: the words its attributes' annotations spell
        for function in self.index.defs:
            cls = function.cls if function.self_name is not None else None
            if cls is not None and id(cls) not in declared_by_class:
                declared_by_class[id(cls)] = self._words(cls.declared_annotations)
            if leading.isdisjoint(self._words(p.annotation for p in function.all_params.values())) and (
                    cls is None or leading.isdisjoint(declared_by_class[id(cls)])):
                continue  # what it declares names no class of another module
            positions = {param.name: number for number, param in enumerate(function.positional_params)}
            for node in function.nodes(ast.Call, ast.AugAssign, ast.Assign, ast.Delete):
                for receiver in changed_in_place(node):
                    if not isinstance(receiver, ast.Attribute):
                        continue
                    owner = receiver.value  # `model`, or `models["main"]` of `models: dict[str, MLP]`
                    declared = self.index.declared_type(owner, function)
                    cls = self._annotated_class(declared) if declared is not None else None
                    attribute = receiver.attr
                    if cls is None:  # an item of a collection another module's class declares: `tower.stacks`
                        collection = function.items_of(owner)
                        root = self.index.declared_type(collection.value, function) \
                            if isinstance(collection, ast.Attribute) else None
                        cls = self._annotated_class(root) if root is not None else None
                        attribute = f"{collection.attr}{ITEMS}{receiver.attr}" if cls is not None else attribute
                    if cls is None:
                        continue
                    name = owner.id if isinstance(owner, ast.Name) else None
                    position = self.analysis.position(node)
                    filled = filling(node)
                    put = self.analysis.nnx.classify(filled[1], Context(function)) if filled else None
                    values = self._kinds([e for e in self.analysis.values.infer(filled[1], Context(function))
                                          if e.kind in FILLED_KINDS], filled[1]) if filled else []
                    parameter = filled[1].id if filled and isinstance(filled[1], ast.Name) \
                        and filled[1].id in function.all_params and filled[1].id not in function.local_bindings else ""
                    found.append(AttributeChange(cls, attribute, position[0] if position else 0,
                                                 self.analysis.snippet(node), f"{self.module}.{function.name}",
                                                 positions.get(name or "", -1),
                                                 isinstance(node, ast.AugAssign) and node.target is receiver,
                                                 put.status.name if put else "", put.what if put else "",
                                                 tuple(values), parameter, positions.get(parameter)))
        return tuple(found)

    def _words(self, annotations: Iterable[ast.expr | None]) -> set[str]:
        return {word for annotation in annotations if annotation is not None
                for word in WORD.findall(self.index.code(annotation))}

    def _names_leading_elsewhere(self) -> set[str]:
        """The names a declaration of another project module's class must spell here (the changes through
        one are looked for only where a function's parameters, or its class's attributes, declare one): what
        the module imports from the project, and its own classes and module-level names whose declarations
        spell one of those (a class declaring `stacks: list[Stack]`, a subclass of one, an alias `Models =
        dict[str, MLP]`), to a fixpoint."""
        leading = {local for local, target in self.index.aliases.items() if self.is_projects(target)}
        if not leading:
            return leading
        code = self.index.code
        texts = {name: "\n".join(map(code, [*cls.bases, *cls.declared_annotations]))
                 for name, cls in self.index.classes.items()}
        for name, values in self.index.bindings.items():
            texts.setdefault(name, "\n".join(code(value) for value in values if value is not None))
        spelled_in: dict[str, list[str]] = {}  # a word -> the names whose text spells it
        for name, text in texts.items():
            for word in set(WORD.findall(text)):
                spelled_in.setdefault(word, []).append(name)
        return reached(leading, spelled_in)

    def _hashed(self) -> tuple[HashedObject, ...]:
        """Objects of other project modules' classes this module passes as static arguments of jitted calls
        (their class's module judges what hashing them hashes)."""
        found = []
        for call, function in self.analysis.jitted_calls:
            for argument in function.arguments(call):
                if not argument.static:
                    continue
                for evidence in self.analysis.values.passed(argument.value, call):
                    made = evidence.refers
                    if evidence.kind is Kind.REFERENCE and made is not None and made.endswith("()") \
                            and made[:-2].rsplit(".", 1)[-1][:1].isupper():
                        position = self.analysis.position(call)
                        found.append(HashedObject(made[:-2], position[0] if position else 0,
                                                  self.analysis.snippet(argument.value), function.name,
                                                  argument.label))
        return tuple(found)

    def _arrays_passed(self) -> tuple[ArrayPassed, ...]:
        """The parameters annotated as arrays that the module's functions pass on to other project modules'
        functions (the callee's module judges whether it declares them static: PTL405)."""
        found = []
        for function in self.index.defs:
            if function.is_lambda or not any(array_annotation(self.analysis.values, p) is not None
                                             for p in function.params):
                continue
            for call in function.nodes(ast.Call):
                qualified = self.index.qualify(call.func)
                callee = self.project_name(qualified) if qualified is not None else None
                if callee is None or callee.rsplit(".", 1)[0] == self.module:
                    continue
                passed = []
                for position, value in enumerate(call.args):
                    if isinstance(value, ast.Starred):
                        break  # the positions after it are unknown
                    passed.append((position, "", value))
                passed += [(-1, k.arg, k.value) for k in call.keywords if k.arg is not None]
                for position, keyword, value in passed:
                    given = array_parameter(self.index, self.analysis.values, value, call,
                                            self.analysis.jitted_functions)
                    if given is not None and self.index.enclosing_function(call) is function:
                        position_at = self.analysis.position(call)
                        found.append(ArrayPassed(callee, position, keyword, position_at[0] if position_at else 0,
                                                 given[0], self.analysis.snippet(given[1])))
        return tuple(found)

    def _annotated_class(self, annotation: ast.expr) -> str | None:
        """The class of another project module an annotation names (`MLP`, `"MLP"`, `models.MLP`), absolute
        (a class of this module: its own lint sees the change)."""
        qualified = self.index.qualify(unquoted(annotation))
        if qualified is None or not qualified.rsplit(".", 1)[-1][:1].isupper():
            return None
        return self.project_name(qualified)

    def _transformed(self) -> tuple[str, ...]:
        """The project classes this module imports that reach a transformation here."""
        if self.module.split(".", 1)[0] in NEVER_FOLLOWED:
            return ()  # before asking which classes reach a transformation: a walk of the whole module
        names = {self.absolute(name) for name in self.analysis.transformed_classes.imported_names()
                 if self.is_projects(name)}
        return tuple(sorted(names))

    def _argument(self, argument: ast.expr, function: FunctionInfo | None = None) -> list[Value]:
        """What an argument a call of another module's class or function passes is, read where it is written:
        in `function`, its locals, and for a parameter (its own or an enclosing function's), what this
        module's calls pass it through chains of helpers, else a reference to what other modules' calls of
        it pass (`pkg.build.make_box(meta)`)."""
        values = self.analysis.values
        evidence = [e for e in values.infer(argument, Context.of(function)) if e.kind is not Kind.INSTANCE]
        if not evidence and function is not None and isinstance(argument, ast.Name):
            evidence = [e for e in values.passed_to(function, argument.id) if e.kind is not Kind.INSTANCE]
        return self._kinds(evidence, argument)

