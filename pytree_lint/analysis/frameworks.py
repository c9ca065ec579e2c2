"""Static fields of the dataclass-style pytree libraries: which classes they register, which fields go
to aux_data.

Each library marks a field static in its own way, and a field helper of one library means nothing to
another (verified on flax 0.12.8, equinox 0.13.8, jax_dataclasses 1.6.3, penzai 0.2.5, netket 3.23.0,
jax_md 0.2.29, simple_pytree 0.2.2, numpyro 0.22.0):

| convention | libraries | a field is static when |
|---|---|---|
| `pytree_node` | flax.struct, penzai, netket, simple_pytree | its metadata says `pytree_node=False` |
| `static` | register_dataclass, equinox, jax_md | its metadata says `static=True` |
| `jax_dataclasses` | jax_dataclasses | `Static[...]` is its outermost annotation, or `static_field()` |
| `numpyro` | numpyro distributions | its name is in the class's `pytree_aux_fields` |

chex dataclasses have no static fields at all. A helper call is read as the metadata it would build
(`eqx.field(static=True)` is `{"static": True}`), and the class's convention decides. A project's own
helpers, named in the `static-field-functions` setting, make a field static in any class.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .index import ClassField, ClassInfo, ModuleIndex, keyword_arguments

PYTREE_NODE, STATIC, JAX_DATACLASSES, NUMPYRO = "pytree_node", "static", "jax_dataclasses", "numpyro"
CHEX = "chex"  # every field is a child: chex has no static fields
JDC_KEY = "__jax_dataclasses_static_field__"

# Decorators that register a class (an undecorated subclass is not a pytree).
DECORATORS = {
    "flax.struct.dataclass": PYTREE_NODE,
    "penzai.core.struct.pytree_dataclass": PYTREE_NODE,
    "penzai.pz.pytree_dataclass": PYTREE_NODE,
    "penzai.deprecated.v1.pz.pytree_dataclass": PYTREE_NODE,
    "netket.utils.struct.dataclass": PYTREE_NODE,
    "netket.utils.struct.dataclass.dataclass": PYTREE_NODE,
    "jax_md.dataclasses.dataclass": STATIC,
    "jax_dataclasses.pytree_dataclass": JAX_DATACLASSES,
    "jax_dataclasses._dataclasses.pytree_dataclass": JAX_DATACLASSES,
    "chex.dataclass": CHEX,
    "chex._src.dataclass.dataclass": CHEX,
}
# Base classes whose every subclass is registered.
BASES = {
    "flax.struct.PyTreeNode": PYTREE_NODE,
    "equinox.Module": STATIC,
    "equinox._module.Module": STATIC,
    "equinox._module._module.Module": STATIC,
    "penzai.core.struct.Struct": PYTREE_NODE,
    "penzai.pz.Struct": PYTREE_NODE,
    "penzai.deprecated.v1.pz.Struct": PYTREE_NODE,
    "netket.utils.struct.Pytree": PYTREE_NODE,
    "netket.utils.struct.pytree.Pytree": PYTREE_NODE,
    "simple_pytree.Pytree": PYTREE_NODE,
    "simple_pytree.pytree.Pytree": PYTREE_NODE,
    "numpyro.distributions.Distribution": NUMPYRO,
    "numpyro.distributions.distribution.Distribution": NUMPYRO,
}
# numpyro registers every subclass of its distributions, transforms and constraints (its own
# `tree_flatten`, or the `pytree_aux_fields` of a Distribution).
NUMPYRO_AUTO_REGISTERED = ("numpyro.distributions.",)
# Field helpers: (keyword that carries the flag, metadata key it sets, its default) or fixed metadata.
_FLAG_HELPERS = {
    "flax.struct.field": ("pytree_node", PYTREE_NODE, True),
    "netket.utils.struct.field": ("pytree_node", PYTREE_NODE, True),
    "netket.utils.struct.fields.field": ("pytree_node", PYTREE_NODE, True),
    "simple_pytree.field": ("pytree_node", PYTREE_NODE, True),
    "simple_pytree.dataclass.field": ("pytree_node", PYTREE_NODE, True),
    "equinox.field": ("static", STATIC, False),
    "equinox._module.field": ("static", STATIC, False),
    "equinox._module._field.field": ("static", STATIC, False),
}
_FIXED_HELPERS = {
    "netket.utils.struct.static_field": {PYTREE_NODE: False},
    "netket.utils.struct.fields.static_field": {PYTREE_NODE: False},
    "simple_pytree.static_field": {PYTREE_NODE: False},
    "simple_pytree.dataclass.static_field": {PYTREE_NODE: False},
    "equinox.static_field": {STATIC: True},
    "equinox._module.static_field": {STATIC: True},
    "equinox._module._field.static_field": {STATIC: True},
    "jax_md.dataclasses.static_field": {STATIC: True, PYTREE_NODE: False},
    "jax.tree.static": {STATIC: True},
    "jax_dataclasses.static_field": {JDC_KEY: True},
    "jax_dataclasses._dataclasses.deprecated_static_field": {JDC_KEY: True},
}
_PLAIN_FIELDS = frozenset({"dataclasses.field", "jax_md.dataclasses.field", "jax_dataclasses.field"})
FIELD_HELPERS = frozenset({*_FLAG_HELPERS, *_FIXED_HELPERS, *_PLAIN_FIELDS})
STATIC_ANNOTATIONS = frozenset({"jax_dataclasses.Static", "jax_dataclasses._dataclasses.Static"})


def _literal_bool(node: cst.BaseExpression) -> bool | None:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def literal_metadata(metadata: cst.BaseExpression) -> dict[str, bool]:
    """The literal boolean entries of a `{...}` or `dict(...)` metadata display."""
    found: dict[str, bool] = {}
    if isinstance(metadata, cst.Dict):
        for element in metadata.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                value = _literal_bool(element.value)
                if value is not None and isinstance(element.key.evaluated_value, str):
                    found[element.key.evaluated_value] = value
    elif isinstance(metadata, cst.Call) and isinstance(metadata.func, cst.Name) and metadata.func.value == "dict":
        for arg in metadata.args:
            value = _literal_bool(arg.value)
            if arg.keyword is not None and value is not None:
                found[arg.keyword.value] = value
    return found


def is_class_var(index: ModuleIndex, annotation: cst.BaseExpression) -> bool:
    """`ClassVar[...]` and `Final` annotations declare class attributes, not dataclass fields."""
    target = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    return (index.qualify(target) or "") in ("typing.ClassVar", "typing.Final")


def declared_fields(index: ModuleIndex, cls: ClassInfo) -> list[ClassField]:
    """The fields a dataclass-style class declares itself: annotated, and not `ClassVar` or `Final`."""
    return [field for field in cls.fields.values()
            if field.annotation is not None and not is_class_var(index, field.annotation)]


def sets_init_false(value: cst.BaseExpression | None) -> bool:
    """A field declared with `init=False` (`field(init=False)`): it is no constructor argument."""
    return isinstance(value, cst.Call) and any(
        a.keyword is not None and a.keyword.value == "init" and isinstance(a.value, cst.Name)
        and a.value.value == "False" for a in value.args)


@dataclass(frozen=True)
class StaticDeclaration:
    """A field declared static: its name, the statement (or string) to report at, and how."""

    name: str
    declaration: cst.CSTNode
    how: str


class Frameworks:
    def __init__(self, index: ModuleIndex, static_field_functions: tuple[str, ...] = ()) -> None:
        self.index = index
        self.static_field_functions = static_field_functions

    # what a field helper call says ------------------------------------------------------------------
    def is_configured_helper(self, qualified: str | None) -> bool:
        """A project's own static-field helper (matched through relative imports by its module suffix)."""
        if not qualified:
            return False
        for configured in self.static_field_functions:
            if qualified == configured or (qualified.startswith(".")
                                           and configured.endswith("." + qualified.lstrip("."))):
                return True
        return False

    def is_field_call(self, call: cst.Call) -> bool:
        qualified = self.index.qualify(call.func)
        return qualified in FIELD_HELPERS or self.is_configured_helper(qualified)

    def field_metadata(self, call: cst.Call) -> dict[str, bool] | None:
        """The metadata a field helper call builds (only its literal booleans), or None if not a helper."""
        qualified = self.index.qualify(call.func)
        if qualified is None:
            return None
        keywords = keyword_arguments(call.args)
        metadata = literal_metadata(keywords["metadata"]) if "metadata" in keywords else {}
        if qualified in _FIXED_HELPERS:
            return {**metadata, **_FIXED_HELPERS[qualified]}
        if qualified in _FLAG_HELPERS:
            keyword, key, default = _FLAG_HELPERS[qualified]
            flag = _literal_bool(keywords[keyword]) if keyword in keywords else default
            if flag is not None:
                metadata[key] = flag
            if qualified.startswith("netket.") and _literal_bool(keywords.get("pytree_ignore", cst.Name("False"))):
                metadata["ignore"] = True
            return metadata
        if qualified in _PLAIN_FIELDS:
            return metadata
        return None

    @staticmethod
    def helper_convention(qualified: str | None) -> str | None:
        """The convention a library's own helper implies (a class using `eqx.field` is an eqx.Module)."""
        if qualified is None or qualified in _PLAIN_FIELDS or qualified == "jax.tree.static":
            return None
        if qualified.startswith(("equinox.", "jax_md.")):
            return STATIC
        if qualified.startswith("jax_dataclasses."):
            return JAX_DATACLASSES
        if qualified.startswith(("flax.", "netket.", "simple_pytree.")):
            return PYTREE_NODE
        return None

    # which classes and fields ---------------------------------------------------------------------------
    def convention(self, cls: ClassInfo) -> tuple[str, cst.CSTNode] | None:
        """How `cls` is registered by a library: (convention, the decorator or base that says so)."""
        for decorator in cls.node.decorators:
            expr = decorator.decorator
            target = expr.func if isinstance(expr, cst.Call) else expr
            convention = DECORATORS.get(self.index.qualify(target) or "")
            if convention is not None:
                return convention, expr
        return self._base_convention(cls, set())

    def _base_convention(self, cls: ClassInfo, seen: set[int]) -> tuple[str, cst.CSTNode] | None:
        seen.add(id(cls))
        for base in cls.node.bases:
            if base.keyword is not None:
                continue
            qualified = self.index.qualify(base.value) or ""
            convention = BASES.get(qualified)
            if convention is None and qualified.startswith(NUMPYRO_AUTO_REGISTERED):
                convention = NUMPYRO  # every numpyro Distribution, Transform and Constraint subclass
            if convention is not None:
                return convention, base.value
            parent = self.index.resolve_class(base.value)
            if parent is not None and id(parent) not in seen:
                inherited = self._base_convention(parent, seen)
                if inherited is not None:
                    return inherited[0], base.value
        return None

    def static_fields(self, cls: ClassInfo, convention: str | None) -> list[StaticDeclaration]:
        """The fields `cls` declares static under `convention` (None: only through helpers that say
        which library they belong to, or the project's own helpers)."""
        if convention == NUMPYRO:
            return self._numpyro_aux_fields(cls)
        found = []
        for field in declared_fields(self.index, cls):
            how = self._static_how(field, convention)
            if how is not None:
                found.append(StaticDeclaration(field.name, field.statement, how))
        return found

    def _static_how(self, field, convention: str | None) -> str | None:
        if convention == JAX_DATACLASSES and self._outermost_static(field.annotation):
            return "`Static[...]`"
        value = field.value
        if not isinstance(value, cst.Call):
            return None
        qualified = self.index.qualify(value.func)
        if self.is_configured_helper(qualified):
            return f"`{self.index.code(value.func)}()`"
        metadata = self.field_metadata(value)
        if metadata is None:
            return None
        convention = convention or self.helper_convention(qualified)
        if metadata.get("ignore"):
            return None  # netket's pytree_ignore: neither a child nor aux_data
        if ((convention == PYTREE_NODE and metadata.get(PYTREE_NODE) is False)
                or (convention == STATIC and metadata.get(STATIC) is True)
                or (convention == JAX_DATACLASSES and metadata.get(JDC_KEY) is True)):
            return f"`{self.index.code(value.func)}(...)`"
        return None

    def _outermost_static(self, annotation: cst.BaseExpression) -> bool:
        if isinstance(annotation, cst.SimpleString):
            try:
                annotation = cst.parse_expression(annotation.evaluated_value)
            except (cst.ParserSyntaxError, TypeError, ValueError):
                return False
        if not isinstance(annotation, cst.Subscript):
            return False
        base = self.index.qualify(annotation.value) or ""
        if base in STATIC_ANNOTATIONS:
            return True
        if base in ("typing.Annotated", "typing_extensions.Annotated"):
            return any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.SimpleString)
                       and e.slice.value.evaluated_value == JDC_KEY for e in annotation.slice[1:])
        return False

    def _numpyro_aux_fields(self, cls: ClassInfo) -> list[StaticDeclaration]:
        field = cls.fields.get("pytree_aux_fields")
        if field is None or not isinstance(field.value, (cst.Tuple, cst.List)):
            return []
        found = []
        for element in field.value.elements:
            value = element.value
            if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
                found.append(StaticDeclaration(value.evaluated_value, value, "`pytree_aux_fields`"))
        return found
