"""Which annotated values are pytree nodes, never leaves, and which are leaves no transformation traces.

Unflatten rebuilds a node child (a list, tuple or dict, a NamedTuple, an instance of a registered class)
before it hands it to the constructor, so a check on the node itself (`x is not None`,
`isinstance(x, Grid)`, `len(x)`) holds whatever the leaves are; only a check on a leaf can fail. A leaf
that is an object of a plain class of the project (no pytree, no array) is one jit, vmap, grad and
eval_shape reject before any unflatten: no tracer or placeholder ever takes its place.
"""

from __future__ import annotations

import ast

from ...knowledge import python as py
from ...knowledge import tfp
from ..syntax.model import ClassInfo, ModuleIndex, is_none
from .fields import Frameworks, parse_string_annotation
from .registrations import Registration

_MAX_DEPTH = 8  # annotations nest shallowly; a deeper one is not judged


class SubtreeTypes:
    def __init__(self, index: ModuleIndex, frameworks: Frameworks, registrations: list[Registration]) -> None:
        self.index = index
        self.frameworks = frameworks
        self._registered = {id(r.cls) for r in registrations if r.cls is not None}

    def is_node(self, annotation: ast.expr | None, depth: int = 0) -> bool:
        """An annotation every value of which JAX flattens as a node: `list[...]`, `tuple[...]`,
        `dict[...]`, `Sequence`/`Mapping`, a NamedTuple or a registered class (of this module, a library's,
        or one another project module registers through a library), `Optional[...]` of one (None is an
        empty node). Unions with anything else, and types not known here, are not."""
        if annotation is None or depth > _MAX_DEPTH:
            return False
        parsed = parse_string_annotation(annotation)
        if parsed is not None:
            return self.is_node(parsed, depth + 1)
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            return self._all_nodes([annotation.left, annotation.right], depth)
        if isinstance(annotation, ast.Subscript):
            base = self.index.qualify(annotation.value) or _name(annotation.value)
            args = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
            short = base.rsplit(".", 1)[-1]
            if base in py.WRAPPER_TYPES or short in ("Optional", "Annotated"):
                return self.is_node(args[0], depth + 1)
            if base in py.UNION_TYPES or short == "Union":
                return self._all_nodes(args, depth)
            return base in py.PYTREE_CONTAINER_TYPES
        cls = self.index.resolve_class(annotation)
        if cls is not None:
            return self._registered_class(cls)
        qualified = self.index.qualify(annotation) or _name(annotation)
        if qualified in py.PYTREE_CONTAINER_TYPES or tfp.is_node_class(qualified):
            return True
        definition = self.index.definition(annotation)
        project = self.index.project
        return definition is not None and definition.cls is not None and project is not None and (
            definition.cls.registered or project.class_library(definition) is not None
            or self._tfp_derived_elsewhere(definition, 0))

    def _all_nodes(self, alternatives: list[ast.expr], depth: int) -> bool:
        kept = [a for a in alternatives if not is_none(a)]
        return bool(kept) and all(self.is_node(a, depth + 1) for a in kept)

    def is_opaque_leaf(self, annotation: ast.expr | None) -> bool:
        """An annotation naming a plain class of the project: no registration, library base or NamedTuple makes
        it a node, no base outside the project (a library's may be registered or array-like) and no
        `__jax_array__` make it an array, and no class derives from it (a registered subclass's objects are
        nodes: linox's `LinearOperator`). jit rejects its objects (`TypeError: ... not a valid JAX type`)."""
        if annotation is None:
            return False
        annotation = parse_string_annotation(annotation) or annotation
        view = self.index.project
        cls = self.index.resolve_class(annotation)
        if cls is not None:
            derived = self.index.has_subclass(cls) or (view is not None and bool(view.subclasses_elsewhere(cls.name)))
            return not derived and self._plain_local(cls, 0)
        definition = self.index.definition(annotation) if view is not None else None
        if definition is None or view is None:
            return False
        summary, name = definition.summary, definition.name
        derived = any(f"{summary.module}.{name}" in facts.bases for facts in summary.classes.values()) or bool(
            view.project.subclasses_elsewhere(view.project.view_of(summary), name))
        return not derived and self._plain_elsewhere(definition, 0)

    def _plain_local(self, cls: ClassInfo, depth: int) -> bool:
        if depth > _MAX_DEPTH or self._registered_class(cls) or "__jax_array__" in cls.methods:
            return False
        for base in cls.bases:
            if self.index.is_neutral_base(base):
                continue
            base = base.value if isinstance(base, ast.Subscript) else base  # `Base[T]`
            parent = self.index.resolve_class(base)
            definition = self.index.definition(base) if parent is None else None
            if not (self._plain_local(parent, depth + 1) if parent is not None else
                    definition is not None and self._plain_elsewhere(definition, depth + 1)):
                return False
        return True

    def _plain_elsewhere(self, definition, depth: int) -> bool:
        """The same of another module's class, from its module's summary."""
        facts = definition.cls
        project = self.index.project
        if facts is None or project is None or depth > _MAX_DEPTH or facts.registered or facts.library is not None \
                or facts.registers_subclasses is not None or facts.metaclass is not None:
            return False
        for base in facts.bases:
            if base in py.NEUTRAL_BASES:
                continue
            parent = project.definition(base)
            if parent is None or not self._plain_elsewhere(parent, depth + 1):
                return False
        return True

    def _registered_class(self, cls: ClassInfo) -> bool:
        return (id(cls) in self._registered or self.frameworks.library_class(cls) is not None
                or any(self.index.qualify(base) == py.NAMED_TUPLE for base in cls.bases)
                or self._tfp_derived(cls, 0))

    def _tfp_derived(self, cls: ClassInfo, depth: int) -> bool:
        """A class deriving, at any depth, from a TFP distribution or bijector: a node as they are (ssm-jax's
        `Categorical(ExponentialFamilyDistribution, tfd.Categorical)`)."""
        if depth > _MAX_DEPTH:
            return False
        for base in cls.bases:
            parent = self.index.resolve_class(base)
            if parent is not None:
                if self._tfp_derived(parent, depth + 1):
                    return True
                continue
            definition = self.index.definition(base) if self.index.project is not None else None
            if tfp.is_node_class(self.index.qualify(base)) or (
                    definition is not None and self._tfp_derived_elsewhere(definition, depth + 1)):
                return True
        return False

    def _tfp_derived_elsewhere(self, definition, depth: int) -> bool:
        """The same of another module's class, from its module's summary (its bases named absolute)."""
        project = self.index.project
        facts = definition.cls
        if facts is None or project is None or depth > _MAX_DEPTH:
            return False
        return any(tfp.is_node_class(base) or (
            (parent := project.definition(base)) is not None and self._tfp_derived_elsewhere(parent, depth + 1))
            for base in facts.bases)


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ""
