"""Static fields of the dataclass-style pytree libraries: which classes they register, which fields go
to aux_data.

Each library marks a field static in its own way (its `Convention`, see knowledge/), and a field helper
of one library means nothing to another. A helper call is read as the metadata it would build
(`eqx.field(static=True)` is `{"static": True}`), and the class's convention decides. A project's own
helpers, named in the `static-field-functions` setting, make a field static in any class.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...knowledge import (
    BASES,
    DATACLASS_DECORATORS,
    DECORATORS,
    FIELD_HELPERS,
    FIXED_HELPERS,
    FLAG_HELPERS,
    LIBRARY_BY_NAME,
    PLAIN_FIELDS,
    STATIC_ANNOTATIONS,
    Convention,
    PytreeLibrary,
    helper_library,
    netket,
    nnx,
)
from ...knowledge.jax import MECHANISMS, Mechanism
from ...knowledge.jax_dataclasses import STATIC_KEY as JDC_KEY
from ...knowledge.numpyro import AUX_FIELDS
from ...knowledge.python import ANNOTATED, CLASS_VARIABLES, MEMOIZERS, NAMED_TUPLE, PARTIAL
from ..record import record
from ..syntax.model import (
    FUNCTIONS,
    ClassField,
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    inline_expression,
    is_name,
    keyword_arguments,
    literal_string,
    nodes_of,
    written_as,
)

if TYPE_CHECKING:
    from ..project.summary import FieldFacts

PYTREE_NODE, STATIC = Convention.PYTREE_NODE.value, Convention.STATIC.value


def _literal_bool(node: ast.AST | None) -> bool | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, bool) else None


def leaves_nnx(cls: ClassInfo) -> bool:
    """The class statement's keywords take an NNX class out of what flax 0.11+ makes of it: `pytree=False`
    (`class Cache(nnx.Module, pytree=False)`: not a pytree), or a keyword only flax 0.10's NNX took (its
    Modules were graphs of another kind: knowledge/nnx.py)."""
    return any((k.arg == nnx.PYTREE_KEYWORD and _literal_bool(k.value) is False) or k.arg in nnx.LEGACY_CLASS_KEYWORDS
               for k in cls.node.keywords)


def literal_metadata(metadata: ast.expr) -> dict[str, bool]:
    """The literal boolean entries of a `{...}` or `dict(...)` metadata display."""
    found: dict[str, bool] = {}
    if isinstance(metadata, ast.Dict):
        for key, value in zip(metadata.keys, metadata.values):
            flag = _literal_bool(value)
            if literal_string(key) is not None and flag is not None:
                found[key.value] = flag
    elif isinstance(metadata, ast.Call) and is_name(metadata.func, "dict"):
        for keyword in metadata.keywords:
            flag = _literal_bool(keyword.value)
            if keyword.arg is not None and flag is not None:
                found[keyword.arg] = flag
    return found


def is_class_var(index: ModuleIndex, annotation: ast.expr) -> bool:
    """`ClassVar[...]` and `Final` annotations declare class attributes, not dataclass fields."""
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return (index.qualify(target) or "") in CLASS_VARIABLES


def declared_fields(index: ModuleIndex, cls: ClassInfo) -> list[ClassField]:
    """The fields a dataclass-style class declares itself: annotated, and not `ClassVar` or `Final`."""
    return [field for field in cls.fields.values()
            if field.annotation is not None and not is_class_var(index, field.annotation)]


def sets_init_false(value: ast.expr | None) -> bool:
    """A field declared with `init=False` (`field(init=False)`): it is no constructor argument."""
    return isinstance(value, ast.Call) and any(
        k.arg == "init" and _literal_bool(k.value) is False for k in value.keywords)


def _same_function(qualified: str, configured: str) -> bool:
    """The same function name, in modules one of which is within the other (`mylib` and `mylib._fields`)."""
    if qualified.startswith(".") or "." not in qualified:
        return False
    (module, _, name), (other, _, other_name) = qualified.rpartition("."), configured.rpartition(".")
    return name == other_name and bool(module) and bool(other) and (
        module == other or module.startswith(other + ".") or other.startswith(module + "."))


# What a decorator that registers a class calls: a library's decorator or a jax.tree_util mechanism.
_REGISTERING = frozenset(DECORATORS) | frozenset(MECHANISMS)


def registered_by(index: ModuleIndex, function: FunctionInfo) -> str | None:
    """What a decorator written in the project registers the class it is given with: a library's name
    (`return flax.struct.dataclass(cls)`) or a jax.tree_util mechanism's (`register_dataclass(cls)`)."""
    if not spells_one_of(index, function, _REGISTERING):
        return None
    for call in function.nodes(ast.Call):
        if not call.args:
            continue
        qualified = index.qualify(call.func) or ""
        if qualified in DECORATORS:
            return DECORATORS[qualified].name
        if qualified in MECHANISMS:
            return MECHANISMS[qualified].value
    return None


# The registering functions whose unflatten a project decorator may write to call the class.
_REBUILDING = frozenset(name for name, mechanism in MECHANISMS.items()
                        if mechanism in (Mechanism.REGISTER_PYTREE_NODE, Mechanism.REGISTER_PYTREE_WITH_KEYS))


def rebuilt_by(index: ModuleIndex, function: FunctionInfo) -> bool:
    """A decorator written in the project that registers the class it is given with an unflatten calling
    the class (`register_pytree_node(cls, flatten, lambda aux, children: cls(**dict(zip(names, children))))`):
    the class's `__init__` and `__post_init__` run on every unflatten, with every field a child. Not when it
    reads its fields' metadata or names something static: some fields are then aux_data, which only its run
    says."""
    if not function.params or not spells_one_of(index, function, _REBUILDING):
        return False
    code = index.code(function.node)
    if "metadata" in code or "static" in code:
        return False
    given = function.params[0].name
    for call in function.nodes(ast.Call):
        if index.qualify(call.func) not in _REBUILDING or not call.args or not is_name(call.args[0], given):
            continue
        unflatten = call.args[2] if len(call.args) > 2 else keyword_arguments(call).get("unflatten_func")
        if isinstance(unflatten, ast.Name):  # a def nested in the decorator
            bound = function.local_bindings.get(unflatten.id, [])
            unflatten = bound[0] if len(bound) == 1 and isinstance(bound[0], FUNCTIONS) else None
        if isinstance(unflatten, (ast.Lambda, *FUNCTIONS)):
            return any(is_name(built.func, given) for built in nodes_of(unflatten, ast.Call))
    return False


def makes_dataclass(index: ModuleIndex, function: FunctionInfo) -> bool:
    """A decorator written in the project that applies `dataclasses.dataclass` to the class it is given
    (`cls = dataclasses.dataclass(cls)`): the class gets a generated `__init__` over its fields."""
    return spells_one_of(index, function, DATACLASS_DECORATORS) and any(
        index.qualify(call.func) in DATACLASS_DECORATORS and call.args for call in function.nodes(ast.Call))


# Bases that give a class a constructor over its fields.
DATACLASS_BASES = frozenset({NAMED_TUPLE, "flax.struct.PyTreeNode"})
# What a project decorator may apply that gives the class a generated `__init__`: `register_dataclass`, or a
# library's dataclass decorator.
DATACLASS_MAKERS = frozenset({Mechanism.REGISTER_DATACLASS.value,
                              *(library.name for library in LIBRARY_BY_NAME.values() if library.decorators)})


def is_dataclass(index: ModuleIndex, cls: ClassInfo) -> bool:
    """A class (or a base, of any module of the project) decorated to get a constructor over its fields (a
    `...dataclass` decorator, a project decorator applying one or `register_dataclass`), or derived from a
    base that gives it one (a NamedTuple, flax's `PyTreeNode`)."""
    return any(_decorated_dataclass(index, owner) or _derives_dataclass(index, owner)
               for owner in index.class_and_bases(cls, across_modules=True))


def declares_fields(index: ModuleIndex, owner: ClassInfo) -> bool:
    """Whether a class's own annotations are dataclass fields: it is decorated to be a dataclass, or derives
    from a base that makes each subclass one (flax's `PyTreeNode`). A plain base's are not, though a
    dataclass derives from it (JAX-ENT's `Model_Parameters`: `key: frozenset` is no constructor argument)."""
    return _decorated_dataclass(index, owner) or any(
        _derives_dataclass(index, base) for base in index.class_and_bases(owner, across_modules=True))


def _decorated_dataclass(index: ModuleIndex, owner: ClassInfo) -> bool:
    for expr in owner.decorators:
        target = expr.func if isinstance(expr, ast.Call) else expr
        if (index.qualify(target) or "").endswith("dataclass") or _makes_dataclass(index, target):
            return True
    return False


def _derives_dataclass(index: ModuleIndex, owner: ClassInfo) -> bool:
    return any(index.qualify(base) in DATACLASS_BASES for base in owner.bases)


def _makes_dataclass(index: ModuleIndex, decorator: ast.expr) -> bool:
    """A project decorator that applies a library's dataclass decorator, `register_dataclass` or
    `dataclasses.dataclass` (the project's own `@frozen` calling `flax.struct.dataclass(cls)`), of this
    module or another."""
    local = index.module_function(decorator.id) if isinstance(decorator, ast.Name) else None
    if local is not None:
        return makes_dataclass(index, local) or registered_by(index, local) in DATACLASS_MAKERS
    definition = index.definition(decorator) if index.project is not None else None
    facts = definition.function if definition is not None else None
    return facts is not None and (facts.dataclass or facts.registers in DATACLASS_MAKERS)


def memoizes(index: ModuleIndex, function: FunctionInfo) -> bool:
    """A decorator written in the project that memoises the function it is given: its body applies
    `functools.lru_cache` or `functools.cache` (equinox's `compile_cache` wraps an `lru_cache` per function)."""
    return spells_one_of(index, function, MEMOIZERS) and any(
        index.qualify(call.func) in MEMOIZERS for call in function.nodes(ast.Call))


def spells_one_of(index: ModuleIndex, function: FunctionInfo, names: frozenset[str]) -> bool:
    """The function's text spells a word a use of one of `names` must (see ModuleIndex.spellings): the
    cheap test before its calls are walked (the module's text first, once)."""
    words = index.spellings(names)
    if not words or not index.statements_mentioning(words):
        return False
    code = index.code(function.node)
    return any(word in code for word in words)


def parse_string_annotation(annotation: ast.expr) -> ast.expr | None:
    """The expression a string annotation holds (`"jax.Array"`), parsed; None when it is not one."""
    text = literal_string(annotation)
    if text is None:
        return None
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


@record
class StaticDeclaration:
    """A field declared static: its name, the statement (or string) to report at, and how."""

    name: str
    declaration: ast.AST
    how: str


@record
class LibraryClass:
    """A class a library registers, and the decorator or base that says so."""

    library: PytreeLibrary
    declared_by: ast.expr


class Frameworks:
    def __init__(self, index: ModuleIndex, static_field_functions: tuple[str, ...] = ()) -> None:
        self.index = index
        self.static_field_functions = static_field_functions
        self._partial_fields: dict[str, ast.Call | None] = {}  # by name: one node per helper (readers key by node)

    # what a field helper call says ------------------------------------------------------------------
    def is_configured_helper(self, qualified: str | None) -> bool:
        """A configured static-field helper, by qualified name: the same name; a relative import, made
        absolute only as far as the file's packages go, matched by its module suffix; or the same function
        of the same top package reached by another path (`mylib.static_field` re-exports
        `mylib._fields.static_field`, and installed packages are not read to tell: one's module must
        contain the other's, `mylib.utils.field` is not `mylib.dataclasses.field`)."""
        if not qualified:
            return False
        tail = "." + qualified.lstrip(".")
        return any(qualified == configured or configured.endswith(tail) or _same_function(qualified, configured)
                   for configured in self.static_field_functions)

    def is_field_call(self, call: ast.Call) -> bool:
        qualified = self.index.qualify(call.func)
        return (qualified in FIELD_HELPERS or self.is_configured_helper(qualified)
                or self.project_field(call) is not None or self._module_helper_field(call) is not None)

    def _module_helper_field(self, call: ast.Call) -> ast.Call | None:
        """The library field call the helper of this module a call calls returns (see module_helper_field)."""
        return self.module_helper_field(call.func.id) if isinstance(call.func, ast.Name) else None

    def module_helper_field(self, name: str) -> ast.Call | None:
        """The library field call a helper of this module returns (`static_field = lambda v=MISSING:
        dataclasses.field(default=v, metadata=dict(static=True))`, or a def whose one return is one, as
        written there through its locals and nested defs), or stands for (a `functools.partial` of one): the
        metadata it writes is the helper's (another module's helper is read from its summary: project_field)."""
        helper = self.index.module_function(name)
        if helper is None:
            return self._partial_field(name)
        returns = [statement.value for statement in helper.return_statements if statement.value is not None]
        returned = helper.node.body if helper.is_lambda else returns[0] if len(returns) == 1 else None
        returned = written_as(returned, helper, self.index) if returned is not None else None
        if isinstance(returned, ast.Call) and self.index.qualify(returned.func) in FIELD_HELPERS:
            return returned
        return None

    def _partial_field(self, name: str) -> ast.Call | None:
        """The library field call a module-level name bound once to a `functools.partial` of one stands for
        (serl's `nonpytree_field = functools.partial(flax.struct.field, pytree_node=False)`): the call with the
        partial's arguments."""
        if name in self._partial_fields:
            return self._partial_fields[name]
        values = self.index.bindings.get(name, []) if self.index.aliases.is_module_local(name) else []
        bound = values[0] if len(values) == 1 else None
        call = None
        if isinstance(bound, ast.Call) and bound.args and self.index.qualify(bound.func) == PARTIAL:
            helper = self._library_field(bound.args[0])
            if helper is not None:
                call = ast.copy_location(ast.Call(helper, bound.args[1:], bound.keywords), bound)
                ast.fix_missing_locations(call)
        self._partial_fields[name] = call
        return call

    def _library_field(self, value: ast.expr) -> ast.expr | None:
        """The library field function a module-level value stands for: as written (through this module's
        names and helpers: written_as), as a helper of another module returns it, or as an attribute of the
        object that helper returns keeps it (`make_held().value`)."""
        value = written_as(value, None, self.index)
        call, attribute = (value.value, value.attr) if isinstance(value, ast.Attribute) and isinstance(
            value.value, ast.Call) else (value, "")
        if isinstance(call, ast.Call) and self.index.project is not None:
            definition = self.index.definition(call.func)
            made = self._returned_elsewhere(definition, call, attribute) if definition is not None else None
            value = made if made is not None else value
        return value if self.index.qualify(value) in FIELD_HELPERS else None

    def _returned_elsewhere(self, definition, call: ast.Call, attribute: str) -> ast.expr | None:
        """What a function of another module returns to `call` (its summary's Inline, read here), or what the
        attribute `attribute` of the object it returns keeps; None when its summary does not say."""
        inline = definition.function.inline if definition.function is not None else None
        if inline is None or inline.positional or inline.keyword_only:
            return None
        made = inline_expression(inline, {}, call)
        if attribute:
            made = self.index.kept_argument(made, attribute) if isinstance(made, ast.Call) else None
        return made

    def _metadata_returned(self, function: str | None, call: ast.Call) -> dict[str, bool]:
        """The literal metadata a project function returns (`def static(): return {"static": True}`), or an
        attribute of the object it returns keeps (`pkg.m.make_held().value`: see FieldFacts.metadata_from)."""
        name, _, attribute = (function or "").partition("().")
        project = self.index.project
        definition = project.definition(name) if project is not None and name else None
        inline = definition.function.inline if definition is not None and definition.function is not None else None
        if inline is None or inline.positional or inline.keyword_only:
            return {}
        value = inline_expression(inline, {}, call)
        if attribute:
            value = self.index.kept_argument(value, attribute) if isinstance(value, ast.Call) else None
        return literal_metadata(value) if value is not None else {}

    def project_field(self, call: ast.Call) -> FieldFacts | None:
        """The library field call a helper of another project module returns (`def static_field(**kw):
        return eqx.field(static=True, **kw)`), from its summary."""
        definition = self.index.definition(call.func)
        facts = definition.function if definition is not None else None
        field = facts.field if facts is not None else None
        return self._partial_made_elsewhere(field, call) if field is not None and "()" in field.helper else field

    def _partial_made_elsewhere(self, field: FieldFacts, call: ast.Call) -> FieldFacts | None:
        """A `functools.partial` of what a function of another module returns (see FieldFacts): the library
        helper read here, with the metadata the partial's flags give it."""
        name, _, attribute = field.helper.partition("()")
        project = self.index.project
        definition = project.definition(name) if project is not None else None
        made = self._returned_elsewhere(definition, call, attribute[1:]) if definition is not None else None
        qualified = self.index.qualify(made) if made is not None else None
        if made is None or qualified not in FIELD_HELPERS:
            return None
        flags = [ast.keyword(key, ast.Constant(value)) for key, value in field.metadata.items()]
        metadata = self.field_metadata(ast.copy_location(ast.Call(made, [], flags), call))
        return field._replace(helper=qualified, metadata=metadata) if metadata is not None else None

    def field_metadata(self, call: ast.Call) -> dict[str, bool] | None:
        """The metadata a field helper call builds (only its literal booleans), or None if not a helper."""
        returned = self._module_helper_field(call)
        if returned is not None:
            return self.field_metadata(returned)
        qualified = self.index.qualify(call.func)
        if qualified is None:
            return None
        project_field = self.project_field(call) if qualified not in FIELD_HELPERS else None
        if project_field is not None:
            return {**project_field.metadata, **self._metadata_returned(project_field.metadata_from, call)}
        keywords = keyword_arguments(call)
        metadata = literal_metadata(written_as(keywords["metadata"], self.index.enclosing_function(call), self.index)
                                    ) if "metadata" in keywords else {}
        if qualified in FIXED_HELPERS:
            return {**metadata, **FIXED_HELPERS[qualified]}
        if qualified in FLAG_HELPERS:
            helper = FLAG_HELPERS[qualified]
            flag = _literal_bool(keywords[helper.keyword]) if helper.keyword in keywords else helper.default
            if flag is not None:
                metadata[helper.key] = flag
            if qualified.startswith("netket.") and _literal_bool(keywords.get(netket.IGNORE_KEYWORD)):
                metadata["ignore"] = True
            return metadata
        if qualified in PLAIN_FIELDS:
            return metadata
        return None

    # which classes and fields ---------------------------------------------------------------------------
    def library_class(self, cls: ClassInfo) -> LibraryClass | None:
        """How `cls` is registered by a library: the library, and the decorator or base that says so."""
        found = self._library_class(cls)
        if found is not None and found.library.convention is Convention.NNX and leaves_nnx(cls):
            return None  # each class says for itself
        return found

    def _library_class(self, cls: ClassInfo) -> LibraryClass | None:
        for expr in cls.decorators:
            target = expr.func if isinstance(expr, ast.Call) else expr
            library = DECORATORS.get(self.index.qualify(target) or "")
            if library is None and isinstance(target, ast.Name):  # the module's own wrapper decorator
                local = self.index.module_function(target.id)
                library = LIBRARY_BY_NAME.get(registered_by(self.index, local) or "") if local is not None else None
            if library is None and self.index.project is not None:
                library = self.index.project.decorator_library(self.index.definition(target))
            if library is not None:
                return LibraryClass(library, expr)
        return self._base_library(cls, set())

    def _base_library(self, cls: ClassInfo, seen: set[int]) -> LibraryClass | None:
        seen.add(id(cls))
        for base in cls.bases:
            qualified = self.index.qualify(base) or ""
            if qualified in nnx.NOT_PYTREE_BASES:
                return None
            library = BASES.get(qualified)
            if library is None:
                library = next((lib for lib in BASES.values()
                                if lib.registered_prefixes and qualified.startswith(lib.registered_prefixes)), None)
            if library is None and self.index.project is not None:
                definition = self.index.definition(base.value if isinstance(base, ast.Subscript) else base)
                library = self.index.project.class_library(definition) if definition is not None else None
            if library is not None:
                return LibraryClass(library, base)
            parent = self.index.resolve_class(base)
            if parent is not None and id(parent) not in seen:
                inherited = self._base_library(parent, seen)
                if inherited is not None:
                    return LibraryClass(inherited.library, base)
        return None

    def host_state(self, cls: ClassInfo) -> bool:
        """`cls` or a base declares it a host-side state holder with its library's keyword (netket's
        `class Driver(struct.Pytree, mutable=True)`), here or in another module of the project."""
        registered = self.library_class(cls)
        keyword = registered.library.host_state_keyword if registered is not None else None
        if keyword is None:
            return False
        for owner in self.index.class_and_bases(cls):
            if any(k.arg == keyword and _literal_bool(k.value) is True for k in owner.node.keywords):
                return True
            for base in owner.bases if self.index.project is not None else ():
                definition = self.index.definition(base)
                if definition is not None and self.index.project.class_host_state(definition):
                    return True
        return False

    def static_fields(self, cls: ClassInfo, convention: Convention | None) -> list[StaticDeclaration]:
        """The fields `cls` declares static under `convention` (None: only through helpers that say
        which library they belong to, or the project's own helpers)."""
        if convention is Convention.NUMPYRO:
            return self._numpyro_aux_fields(cls)
        found = []
        for field in declared_fields(self.index, cls):
            how = self._static_how(field, convention)
            if how is not None:
                found.append(StaticDeclaration(field.name, field.statement, how))
        return found

    def inherited_static_fields(self, cls: ClassInfo, convention: Convention | None) -> list[StaticDeclaration]:
        """The static fields `cls` inherits: declared static by a base (of any module of the project), as
        the base nearest `cls` that declares the name says, and not declared again by `cls` (numpyro's aux
        fields are read whole: see static_fields)."""
        if convention is Convention.NUMPYRO:
            return []
        return [static for owner, _name, static in self._nearest_declarations(cls, convention)
                if owner is not cls and static is not None]

    def static_names(self, cls: ClassInfo, convention: Convention | None) -> set[str]:
        """The names of the fields `cls` and its bases (of any module) declare static, each as the class
        nearest `cls` that declares it says (a subclass's `mode: str` is not static when a base's was)."""
        return {name for _owner, name, static in self._nearest_declarations(cls, convention) if static is not None}

    def _nearest_declarations(self, cls: ClassInfo, convention: Convention | None
                              ) -> Iterator[tuple[ClassInfo, str, StaticDeclaration | None]]:
        """Each field name of `cls` and its bases (of any module), with the class nearest `cls` that declares
        it and its static declaration there (None: not static there)."""
        seen: set[str] = set()
        for owner in self.index.class_and_bases(cls, across_modules=True):
            static = {declaration.name: declaration for declaration in self.static_fields(owner, convention)}
            for field in declared_fields(self.index, owner):
                if field.name not in seen:
                    seen.add(field.name)
                    yield owner, field.name, static.get(field.name)

    def _static_how(self, field: ClassField, convention: Convention | None) -> str | None:
        if convention is Convention.JAX_DATACLASSES and self._outermost_static(field.annotation):
            return "`Static[...]`"
        value = field.value
        if not isinstance(value, ast.Call):
            return None
        qualified = self.index.qualify(value.func)
        if self.is_configured_helper(qualified):
            return f"`{self.index.code(value.func)}()`"
        metadata = self.field_metadata(value)
        if metadata is None:
            return None
        if convention is None:
            project_field = self.project_field(value)
            returned = self._module_helper_field(value)
            library = helper_library(project_field.helper if project_field is not None else
                                     self.index.qualify(returned.func) if returned is not None else qualified)
            convention = library.convention if library is not None else None
        if metadata.get("ignore"):
            return None  # netket's pytree_ignore: neither a child nor aux_data
        if ((convention is Convention.PYTREE_NODE and metadata.get(PYTREE_NODE) is False)
                or (convention is Convention.STATIC and metadata.get(STATIC) is True)
                or (convention is Convention.JAX_DATACLASSES and metadata.get(JDC_KEY) is True)):
            return f"`{self.index.code(value.func)}(...)`"
        return None

    def _outermost_static(self, annotation: ast.expr) -> bool:
        parsed = parse_string_annotation(annotation)
        if parsed is not None:
            annotation = parsed
        if not isinstance(annotation, ast.Subscript):
            return False
        base = self.index.qualify(annotation.value) or ""
        if base in STATIC_ANNOTATIONS:
            return True
        if base in ANNOTATED and isinstance(annotation.slice, ast.Tuple):
            return any(literal_string(e) == JDC_KEY for e in annotation.slice.elts[1:])
        return False

    def _numpyro_aux_fields(self, cls: ClassInfo) -> list[StaticDeclaration]:
        field = cls.fields.get(AUX_FIELDS)
        if field is None or not isinstance(field.value, (ast.Tuple, ast.List)):
            return []
        return [StaticDeclaration(value.value, value, "`pytree_aux_fields`")
                for value in field.value.elts if literal_string(value) is not None]
