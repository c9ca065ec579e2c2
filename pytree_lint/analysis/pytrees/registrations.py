"""Every place the module registers a pytree node, and the functions and fields that registration uses.

Understood through any import alias, as a call or a decorator (and `functools.partial(...)` decorators):
`register_pytree_node`, `register_pytree_node_class`, `register_pytree_with_keys`,
`register_pytree_with_keys_class`, `register_dataclass` (field lists or `static` field metadata, and
`jax.tree.static()` fields) and `register_static`; and the classes the libraries of knowledge/ register.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from functools import partial

from ...knowledge import BASES, FIELD_HELPERS, LIBRARIES, Convention, PytreeLibrary
from ...knowledge.base import RUNS_INIT
from ...knowledge.jax import BY_METHODS, MECHANISMS, Mechanism
from ...knowledge.python import DATACLASS_DECORATORS as PYTHON_DATACLASS_DECORATORS
from ...knowledge.python import PARTIAL
from ..project.summary import RegisteredElsewhere, SubclassRegistration
from ..record import field, record
from ..syntax.model import (
    CallSite,
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    Scope,
    is_name,
    literal_string,
    nodes_of,
    written_as,
)
from ..syntax.names import MEANT, dotted_name
from ..syntax.source import home_of
from .fields import Frameworks, StaticDeclaration, declared_fields, rebuilt_by, registered_by


@record
class Registration:
    node: ast.AST  # the registering call, the decorator expression, or the library's decorator or base
    cls: ClassInfo | None
    mechanism: Mechanism | None = None  # registered through jax.tree_util
    library: PytreeLibrary | None = None  # registered by a library's decorator or base class
    flatten: FunctionInfo | None = None
    flatten_with_keys: FunctionInfo | None = None
    unflatten: FunctionInfo | None = None
    static_fields: list[StaticDeclaration] = field(default_factory=list)
    runs: frozenset[str] | None = None  # what its unflatten runs, where the registering call's place says

    @property
    def target(self) -> str | None:
        """The registered class's name, which the runtime verifier looks for in the examples."""
        return self.cls.name if self.cls is not None else None

    @property
    def through_jax(self) -> bool:
        """Registered with jax.tree_util on purpose, not as a side effect of a library's dataclass idiom
        (flax.struct, netket, chex, ...), whose classes are often never traced."""
        return self.mechanism is not None

    @property
    def fields_are_children(self) -> bool:
        """A dataclass-style registration whose non-static fields are leaves jit traces."""
        if self.mechanism is not None:
            return self.mechanism is Mechanism.REGISTER_DATACLASS
        return self.library is not None and self.library.fields_are_children

    @property
    def unflatten_runs(self) -> frozenset[str]:
        """What a generated unflatten runs of the class: `__init__` and `__post_init__` (register_dataclass,
        flax.struct, jax_dataclasses, a project decorator whose unflatten calls the class), `__post_init__`
        alone (chex), or nothing."""
        if self.runs is not None:
            return self.runs
        if self.mechanism is not None:
            return RUNS_INIT if self.mechanism is Mechanism.REGISTER_DATACLASS else frozenset()
        return self.library.unflatten_runs if self.library is not None else frozenset()

    @property
    def class_named(self) -> str:
        """How messages name the class: "`Name`", or "the registered class" where no class is known (a
        flatten registered for several classes in a loop)."""
        return f"`{self.cls.name}`" if self.cls is not None else "the registered class"


def _bind_arguments(mechanism: Mechanism, args: list[ast.expr], keywords: list[ast.keyword]) -> dict[str, ast.expr]:
    names = mechanism.parameters
    bound: dict[str, ast.expr] = {}
    positional = [a for a in args if not isinstance(a, ast.Starred)]
    for name, value in zip(names, positional):
        bound[name] = value
    bound.update({k.arg: k.value for k in keywords if k.arg is not None})
    return bound


def _readable_arguments(bound: dict[str, ast.expr], meaning: Callable[[ast.expr], str | None], registered: str,
                        class_name: str, imported: Callable[[str], bool] = lambda name: False
                        ) -> tuple[tuple[str, str], ...]:
    """The arguments of a registering call another module can read, each (parameter, expression): literal
    lists of field names, the registered class's own methods (on what `meaning` reads as `registered`), and
    a call of a function the module imports (`imported`) given the registered class (`make_flatten(cls)`,
    read where the summary is read), written with the class named `class_name`."""
    arguments = []
    for parameter, value in bound.items():
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts and all(
                literal_string(e) is not None for e in value.elts):
            arguments.append((parameter, ast.unparse(value)))
        elif isinstance(value, ast.Attribute) and meaning(value.value) == registered:
            arguments.append((parameter, f"{class_name}.{value.attr}"))
        elif _imported_call_of(value.value if isinstance(value, ast.Attribute) else value, registered, imported):
            written = copy.deepcopy(value)
            for name in nodes_of(written, ast.Name):
                name.id = class_name if name.id == registered else name.id
            arguments.append((parameter, ast.unparse(written)))
    return tuple(arguments)


def _imported_call_of(value: ast.expr, registered: str, imported: Callable[[str], bool]) -> bool:
    """`make_flatten(cls)`: a call of an imported function given only the registered class."""
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and imported(value.func.id)
            and bool(value.args) and all(is_name(a, registered) for a in value.args) and not value.keywords)


def _summarised_call(mechanism: str, arguments: tuple[tuple[str, str], ...], names: dict[str, str] | None = None
                     ) -> tuple[Mechanism, dict[str, ast.expr]] | None:
    """A registering call as a summary keeps it, read back (None: a damaged summary, left out); `names`:
    what the names it reads stand for in the module it was written in (another module's summary's)."""
    try:
        read = {parameter: ast.parse(text, mode="eval").body for parameter, text in arguments}
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    if names is not None:
        for node in (node for value in read.values() for node in nodes_of(value, ast.Name)):
            if node.id in names:
                setattr(node, MEANT, names[node.id])
    return Mechanism(mechanism), read


_MECHANISM_NAMES = frozenset(m.value for m in Mechanism)
_CLASS_PARAMETERS = frozenset({"nodetype", "cls"})  # a registering call's parameter for the registered class
SUBCLASS = "cls"  # how a base's subclass registration names the subclass it registers
# The methods whose `cls` is each subclass: `__init_subclass__` when it is defined, `__new__` when an object is
# made (of the class itself too).
SUBCLASS_HOOKS = ("__init_subclass__", "__new__")
# A metaclass's methods that have each class it makes: `__init__`'s first parameter, what `__new__` makes.
METACLASS_HOOKS = ("__init__", "__new__")
METACLASS_BASES = frozenset({"type", "abc.ABCMeta"})


MAX_METACLASS_DEPTH = 8  # metaclasses deriving from metaclasses, followed so far


def _made_class(hook: FunctionInfo) -> str | None:
    """The name a metaclass's `__init__` or `__new__` has the class it makes under: `__init__`'s first
    parameter; in `__new__`, the name bound to `super().__new__(...)` (or `type.__new__(...)`)."""
    if hook.name == "__init__":
        return hook.positional_params[0].name if hook.positional_params else None
    for name, values in hook.local_bindings.items():
        if values and all(isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                          and value.func.attr == "__new__" for value in values):
            return name
    return None


def defines_registered_methods(cls: ClassInfo) -> bool:
    """The class defines a method a registration by methods reads (`tree_flatten`, `tree_unflatten`, ...): a
    class deriving from it, registered so, flattens or unflattens with it (a mixin's)."""
    return any(name in cls.methods for names in BY_METHODS.values() for name in names)


def _inherits_from_here(registration: Registration) -> bool:
    """A registration of another module's class that flattens or unflattens with a function of this module
    (one it inherits): this module judges it (what it overrides is judged in its own module)."""
    return any(function is not None and home_of(function.node) is None
               for function in (registration.flatten, registration.unflatten))


class RegistrationFinder:
    def __init__(self, index: ModuleIndex, frameworks: Frameworks) -> None:
        self.index = index
        self.frameworks = frameworks

    def mechanism(self, node: ast.AST) -> Mechanism | None:
        return MECHANISMS.get(self.index.qualify(node) or "")

    def find(self) -> list[Registration]:
        found: list[Registration] = []
        for site in self.index.calls:
            mechanism = self.mechanism(site.node.func)
            if mechanism is not None:
                bound = _bind_arguments(mechanism, site.node.args, site.node.keywords)
                target = bound.get("nodetype", bound.get("cls"))
                looped = self._looped(target, site) if isinstance(target, ast.Name) else None
                if looped is not None:  # `for cls in (Box, Tree): register(cls, ...)`: each class
                    found.extend(self._build(mechanism, site.node, cls, bound, site.scope, subclass=cls,
                                             named=target.id)  # type: ignore[union-attr]
                                 for element in looped if (cls := self._class(element, site.scope)) is not None)
                    continue
                cls = self._class(target, site.scope) if target is not None else None
                if cls is not None and self._subclasses_registered(cls, site.scope):
                    continue  # its `__init_subclass__` registers each subclass (below), not the class itself
                found.append(self._build(mechanism, site.node, cls, bound, site.scope))
        for cls in self.index.decorated_classes:
            found.extend(self._from_decorators(cls))
        registered = {id(r.cls) for r in found if r.cls is not None}
        for cls in self.index.all_classes:
            if id(cls) not in registered:
                found.extend(self._from_library(cls) or self._from_base_hook(cls))
        if self.index.project is not None:
            for cls in self.index.classes.values():
                found.extend(self._registered_elsewhere(cls))
                found.extend(self._subclasses_elsewhere(cls))
                found.extend(self._heirs_registered_elsewhere(cls))
        return found

    def _looped(self, target: ast.Name, site: CallSite) -> list[ast.expr] | None:
        """What a loop around the call binds its target to, in turn: the elements of `for cls in (Box,
        Tree)`, or of a tuple, list or set a name holds (`for cls in TREES`); None when no loop binds it,
        or what it iterates is not such a display."""
        loop = next((loop for loop in reversed(site.loops) if is_name(loop.target, target.id)), None)
        if loop is None:
            return None
        iterated: ast.expr | None = loop.iter
        if isinstance(iterated, ast.Name):  # the one value a local, else a module-level name, is given
            local = site.scope.local_bindings if isinstance(site.scope, FunctionInfo) else {}
            values = local.get(iterated.id, self.index.bindings.get(iterated.id, []))
            iterated = values[0] if len(values) == 1 and isinstance(values[0], ast.expr) else None
        return list(iterated.elts) if isinstance(iterated, (ast.Tuple, ast.List, ast.Set)) else None

    def _subclasses_elsewhere(self, cls: ClassInfo) -> list[Registration]:
        """The subclasses other modules derive from a class of this module that a hook registers (its own
        `__init_subclass__` or `__new__`, a base's, a metaclass's), each registered with the flatten and
        unflatten it inherits from here (one it overrides is judged in its own module)."""
        own_hook = self.subclass_registration(cls)
        hook, names = (own_hook, None) if own_hook is not None else next(
            ((hook, names) for _, hook, names in self._base_hooks(cls, set())), (None, None))
        if hook is None or self._library_decides(cls):
            return []  # no hook, or a library's class or base (its subclasses follow the library's convention)
        read = _summarised_call(hook.mechanism, hook.arguments, names)
        own = self._build(read[0], cls.node, cls, read[1], None, subclass=cls) if read is not None else None
        if read is None or own is None or (own.flatten is None and own.unflatten is None):
            return []  # nothing here a subclass could inherit (the hook names no method of theirs)
        found = []
        for subclass in self.index.project.subclasses_elsewhere(cls.name):  # type: ignore[union-attr]
            registration = self._build(read[0], subclass.node, subclass, read[1], None, subclass=subclass)
            if _inherits_from_here(registration):
                found.append(registration)
        return found

    def _heirs_registered_elsewhere(self, cls: ClassInfo) -> list[Registration]:
        """The classes other modules derive from a class of this module that defines `tree_flatten` or
        `tree_unflatten` (a mixin) and register by those methods (`@register_pytree_node_class` or the call of
        it, in the subclass's module or a third one): each registered with the methods it inherits from here,
        judged here (one it overrides, in its own module)."""
        if not defines_registered_methods(cls):
            return []
        found = []
        for subclass, mechanism in self.index.project.heirs_registered_by_methods(cls.name):  # type: ignore[union-attr]
            registration = self._build(mechanism, subclass.node, subclass, {}, None)
            if _inherits_from_here(registration):
                found.append(registration)
        return found

    def _registered_elsewhere(self, cls: ClassInfo) -> list[Registration]:
        """The registrations other modules of the project make of a class of this module, as far as this
        module can read them: its fields named static or children, its own methods named as flatten and
        unflatten (a function of the other module is judged there: see Project.foreign_class)."""
        found = []
        for fact, _summary in self.index.project.registrations_elsewhere(cls.name):  # type: ignore[union-attr]
            read = _summarised_call(fact.mechanism, fact.arguments)
            if read is not None:
                found.append(self._build(read[0], cls.node, cls, read[1], None))
        return found

    def subclass_registration(self, cls: ClassInfo) -> SubclassRegistration | None:
        """The registering call the class's own `__init_subclass__` or `__new__` makes of `cls` (each
        subclass), or, of a metaclass, its `__new__` or `__init__` makes of each class it makes, with the
        arguments a subclass's module can read: literal lists of field names and `cls.<method>`."""
        if self.is_metaclass(cls):
            hooks = {id(hook): made for name in METACLASS_HOOKS
                     if (hook := cls.methods.get(name)) is not None and (made := _made_class(hook)) is not None}
        else:
            hooks = {id(hook): hook.positional_params[0].name for name in SUBCLASS_HOOKS
                     if (hook := cls.methods.get(name)) is not None and hook.positional_params}
        for site in self.index.calls if hooks else ():  # asked of every class: most have no hook
            own = hooks.get(id(site.scope))
            mechanism = self.mechanism(site.node.func) if own is not None else None
            bound = _bind_arguments(mechanism, site.node.args, site.node.keywords) if mechanism else {}
            scope = site.scope if isinstance(site.scope, FunctionInfo) else None
            bound = {parameter: value if parameter in _CLASS_PARAMETERS else written_as(value, scope, self.index)
                     for parameter, value in bound.items()}  # `flatten = cls.flatten_fn`, not the class itself
            if mechanism is None or own is None or not is_name(bound.get("nodetype", bound.get("cls")), own):
                continue
            arguments = _readable_arguments(bound, dotted_name, own, SUBCLASS, self.index.aliases.imports)
            return SubclassRegistration(mechanism.value, site.node.lineno, arguments)
        return None

    def _from_base_hook(self, cls: ClassInfo) -> list[Registration]:
        """A subclass of a class (of this module or another of the project) whose `__init_subclass__` or
        `__new__` registers each subclass: registered so, with its own methods or the ones it inherits."""
        for base, hook, names in self._base_hooks(cls, set()):
            read = _summarised_call(hook.mechanism, hook.arguments, names)
            if read is not None:
                return [self._build(read[0], base, cls, read[1], None, subclass=cls)]
        return []

    def _subclasses_registered(self, cls: ClassInfo, scope: Scope | None) -> bool:
        """A registration in the class's `__init_subclass__`, with subclasses in this module: those are the
        registered classes (the class itself stands for the subclasses of other modules)."""
        return (isinstance(scope, FunctionInfo) and scope.cls is cls and scope.name == "__init_subclass__"
                and self.index.has_subclass(cls))

    def is_metaclass(self, cls: ClassInfo, depth: int = 0) -> bool:
        """A class deriving from `type` (or `abc.ABCMeta`), directly or through metaclasses of the module."""
        for base in cls.bases:
            if (isinstance(base, ast.Name) and base.id == "type" and self.index.is_builtin("type")) \
                    or self.index.qualify(base) in METACLASS_BASES:
                return True
            parent = self.index.resolve_class(base)
            if parent is not None and parent is not cls and depth < MAX_METACLASS_DEPTH \
                    and self.is_metaclass(parent, depth + 1):
                return True
        return False

    def _base_hooks(self, cls: ClassInfo, seen: set[int]):
        """(the base or metaclass expression of `cls` it comes through, the registration, what the names
        it reads stand for: None for this module's) for each base, nearest first, whose `__init_subclass__`
        or `__new__` registers its subclasses, and for its metaclass (or a base's) whose `__new__` or
        `__init__` registers each class it makes."""
        seen.add(id(cls))
        project = self.index.project
        metaclass = cls.keywords.get("metaclass")
        for base in [*([metaclass] if metaclass is not None else []), *cls.bases]:
            parent = self.index.resolve_class(base)
            if parent is not None and id(parent) not in seen:
                hook = self.subclass_registration(parent)
                if hook is not None:
                    yield base, hook, None
                yield from ((base, inherited, names) for _, inherited, names in self._base_hooks(parent, seen))
            elif parent is None and project is not None and (definition := self.index.definition(base)) is not None:
                hook = project.subclass_registration(definition)
                if hook is not None:
                    yield base, hook, definition.summary.names

    def imported_classes(self, project_name: Callable[[str], str | None]) -> list[RegisteredElsewhere]:
        """The registering calls of classes the module imports from its project (`project_name`: the
        absolute name of a name of the project's own, else None), with what the class's module can read
        of their arguments: literal lists of field names, and the class's own methods."""
        found = []
        for site in self.index.calls:
            mechanism = self.mechanism(site.node.func)
            bound = _bind_arguments(mechanism, site.node.args, site.node.keywords) if mechanism else {}
            target = bound.get("nodetype", bound.get("cls"))
            if mechanism is None or target is None:
                continue
            looped = self._looped(target, site) if isinstance(target, ast.Name) else None
            for element in [target] if looped is None else looped:  # each class a loop registers
                qualified = self.index.qualify(element)
                cls = project_name(qualified) if qualified is not None else None
                if qualified is None or cls is None or self.index.resolve_class(element):
                    continue
                meaning = self.index.qualify if looped is None else partial(
                    self._looped_as, target.id, qualified)  # type: ignore[attr-defined]
                arguments = _readable_arguments(bound, meaning, qualified, cls.rsplit(".", 1)[-1])
                if arguments or mechanism.parameters == ("cls",):  # `register_pytree_node_class(Imported)`:
                    # the class's own methods say the rest
                    found.append(RegisteredElsewhere(cls, mechanism.value, site.node.lineno, tuple(arguments)))
        return found

    def _library_decides(self, cls: ClassInfo) -> bool:
        """A class knowledge/ says a library registers, or one of a library's own bases (linting the
        library's source: numpyro's `Distribution` in numpyro.distributions.distribution)."""
        if self.frameworks.library_class(cls) is not None:
            return True
        project = self.index.project
        name = f"{project.module}.{cls.name}" if project is not None else cls.name
        return name in BASES or any(name.startswith(library.registered_prefixes)
                                    for library in LIBRARIES if library.registered_prefixes)

    def _looped_as(self, variable: str, qualified: str, node: ast.expr) -> str | None:
        """What a registering call's argument stands for in a loop: its variable, the class of this turn."""
        return qualified if is_name(node, variable) else self.index.qualify(node)

    def of_class(self, cls: ClassInfo) -> list[Registration]:
        """How a class registers itself, by its decorators or a library's base or fields (a class another
        module defines, whose module's registering calls this module does not see)."""
        return self._from_decorators(cls) or self._from_library(cls)

    def _from_decorators(self, cls: ClassInfo) -> list[Registration]:
        return [registration for decorator in cls.decorators
                if (registration := self._from_decorator(decorator, cls)) is not None]

    def _from_library(self, cls: ClassInfo) -> list[Registration]:
        """flax, equinox, jax_dataclasses, ... classes; or fields declared with a library's or the
        project's own static-field helper, whatever registers the class."""
        registered = self.frameworks.library_class(cls)
        if registered is not None:
            library = registered.library
            registration = Registration(registered.declared_by, cls, library=library,
                                        static_fields=self.frameworks.static_fields(cls, library.convention))
            if library.convention is Convention.NUMPYRO:  # the class's own flatten, if it overrides the library's
                registration.flatten = cls.methods.get("tree_flatten")
                registration.unflatten = cls.methods.get("tree_unflatten")
            return [registration]
        fields = self.frameworks.static_fields(cls, None)
        return [Registration(fields[0].declaration, cls, static_fields=fields)] if fields and not (
            self._plain(cls) and self._library_helpers_only(cls)) else []

    def _library_helpers_only(self, cls: ClassInfo) -> bool:
        """Its static fields are declared with a library's helpers as such (`flax.struct.field(...)`), none
        with one the project writes or the user configures (which say the project registers the class)."""
        return all(self.index.qualify(field.value.func) in FIELD_HELPERS for field in declared_fields(self.index, cls)
                   if isinstance(field.value, ast.Call) and self.frameworks.is_field_call(field.value))

    def _plain(self, cls: ClassInfo) -> bool:
        """A class only Python's dataclass decorator makes (or attrs', pydantic's), of no base but neutral
        ones: nothing registers it, whatever library field helpers it uses (finhjb's `PolicyEvaluation`, a
        `@dataclass` with a `flax.struct.field(pytree_node=False)`: one leaf, with no aux_data)."""
        return bool(cls.decorators) and not cls.keywords and all(
            self.index.qualify(d.func if isinstance(d, ast.Call) else d) in PYTHON_DATACLASS_DECORATORS
            for d in cls.decorators) and all(map(self.index.is_neutral_base, cls.bases))

    def _from_decorator(self, expr: ast.expr, cls: ClassInfo) -> Registration | None:
        mechanism = self.mechanism(expr)
        if mechanism is not None:
            return self._build(mechanism, expr, cls, {}, cls.parent)
        # @functools.partial(jax.tree_util.register_dataclass, data_fields=..., meta_fields=...)
        if isinstance(expr, ast.Call) and expr.args and self.index.qualify(expr.func) == PARTIAL:
            mechanism = self.mechanism(expr.args[0])
            if mechanism is not None:
                bound = _bind_arguments(mechanism, [ast.Name("_"), *expr.args[1:]], expr.keywords)
                return self._build(mechanism, expr, cls, bound, cls.parent)
        # A project decorator, of this module or another, that registers what it is given.
        target = expr.func if isinstance(expr, ast.Call) else expr
        local = self.index.module_function(target.id) if isinstance(target, ast.Name) else None
        definition = self.index.definition(target) if local is None else None
        facts = definition.function if definition is not None else None
        registers = registered_by(self.index, local) if local is not None else facts.registers if facts else None
        if registers in _MECHANISM_NAMES:
            registration = self._build(Mechanism(registers), expr, cls, {}, cls.parent)
            if rebuilt_by(self.index, local) if local is not None else facts is not None and facts.rebuilds:
                registration.runs = RUNS_INIT  # its unflatten calls the class
            return registration
        return None

    def _build(self, mechanism: Mechanism, node: ast.AST, cls: ClassInfo | None, bound: dict[str, ast.expr],
               scope: Scope | None, subclass: ClassInfo | None = None, named: str = SUBCLASS) -> Registration:
        """The registration a mechanism makes of `cls` with these arguments (`subclass`: the class they name
        `named`, registered by a base's `__init_subclass__` or `__new__`, or a loop over classes)."""
        registration = Registration(node, cls, mechanism=mechanism)
        if mechanism in (Mechanism.REGISTER_PYTREE_NODE, Mechanism.REGISTER_PYTREE_WITH_KEYS):
            registration.flatten = self._delegate(self._function(bound.get("flatten_func"), scope, subclass,
                                                                 named), cls)
            registration.flatten_with_keys = self._delegate(self._function(
                bound.get("flatten_with_keys_func", bound.get("flatten_with_keys")), scope, subclass, named), cls)
            registration.unflatten = self._function(bound.get("unflatten_func"), scope, subclass, named)
        elif cls is not None and mechanism is Mechanism.REGISTER_PYTREE_NODE_CLASS:
            registration.flatten = self.index.find_method(cls, "tree_flatten")
            registration.unflatten = self.index.find_method(cls, "tree_unflatten")
        elif cls is not None and mechanism is Mechanism.REGISTER_PYTREE_WITH_KEYS_CLASS:
            registration.flatten = self.index.find_method(cls, "tree_flatten")
            registration.flatten_with_keys = self.index.find_method(cls, "tree_flatten_with_keys")
            registration.unflatten = self.index.find_method(cls, "tree_unflatten")
        elif cls is not None and mechanism is Mechanism.REGISTER_DATACLASS:
            registration.static_fields = self._meta_fields(cls, bound.get("meta_fields"))
        return registration

    def _delegate(self, function: FunctionInfo | None, cls: ClassInfo | None) -> FunctionInfo | None:
        """`lambda m: m.tree_flatten()` stands for the method it calls."""
        if function is None or cls is None or not function.is_lambda or not function.params:
            return function
        body, param = function.node.body, function.params[0].name
        if (isinstance(body, ast.Call) and not body.args and not body.keywords
                and isinstance(body.func, ast.Attribute)
                and isinstance(body.func.value, ast.Name) and body.func.value.id == param):
            return self.index.find_method(cls, body.func.attr) or function
        return function

    def _function(self, expr: ast.expr | None, scope: Scope | None,
                  subclass: ClassInfo | None = None, named: str = SUBCLASS) -> FunctionInfo | None:
        """The def or lambda a registration argument names: `f`, `lambda`, `Cls.method` (`cls.method` of
        the `subclass` a base registers, named `named`)."""
        if expr is None:
            return None
        expr = written_as(expr, scope if isinstance(scope, FunctionInfo) else None, self.index)  # `held = ...`
        if subclass is not None and isinstance(expr, ast.Attribute) and is_name(expr.value, named):
            return self.index.find_method(subclass, expr.attr)
        if isinstance(expr, ast.Lambda):
            return FunctionInfo(expr, parent=scope)
        if isinstance(expr, ast.Name):
            return self.index.module_function(expr.id)
        if isinstance(expr, ast.Attribute):
            owner = self._class(expr.value, scope)
            if owner is not None:
                return self.index.find_method(owner, expr.attr)
        return None

    def _class(self, expr: ast.expr, scope: Scope | None) -> ClassInfo | None:
        """The class a name stands for: a class of the module (or of another module of the project), or
        `cls` in the class's `__init_subclass__` or `__new__`
        (which registers every subclass with the class's own flatten and unflatten)."""
        cls = self.index.class_named(expr)
        if (cls is None and isinstance(scope, FunctionInfo) and scope.cls is not None
                and scope.name in SUBCLASS_HOOKS and scope.positional_params
                and isinstance(expr, ast.Name) and expr.id == scope.positional_params[0].name
                and not self.is_metaclass(scope.cls)):  # a metaclass's are the classes it makes (above)
            return scope.cls
        return cls

    def _meta_fields(self, cls: ClassInfo, meta_fields: ast.expr | None) -> list[StaticDeclaration]:
        meta_fields = written_as(meta_fields, None, self.index) if meta_fields is not None else None
        if isinstance(meta_fields, (ast.List, ast.Tuple)):
            fields = []
            for value in meta_fields.elts:
                name = literal_string(value)
                if name is not None:
                    declared = self._declaration(cls, name)
                    fields.append(StaticDeclaration(name, declared if declared is not None else value,
                                                    "`meta_fields`"))
            return fields
        if meta_fields is not None:
            return []  # built at run time: nothing to say
        return [static for owner in self.index.class_and_bases(cls)
                for static in self.frameworks.static_fields(owner, Convention.STATIC)]

    def _declaration(self, cls: ClassInfo, name: str) -> ast.AST | None:
        for owner in self.index.class_and_bases(cls):
            if name in owner.fields:
                return owner.fields[name].statement
        return None
