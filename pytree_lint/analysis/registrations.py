"""Every place the module registers a pytree node, and the functions and fields that registration uses.

Understood through any import alias, as a call or a decorator (and `functools.partial(...)` decorators):
`register_pytree_node`, `register_pytree_node_class`, `register_pytree_with_keys`,
`register_pytree_with_keys_class`, `register_dataclass` (field lists or `static` field metadata, and
`jax.tree.static()` fields) and `register_static`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .frameworks import NUMPYRO, STATIC, Frameworks, StaticDeclaration
from .index import ClassInfo, FunctionInfo, ModuleIndex, Scope

TREE_UTIL = "jax.tree_util."
MECHANISMS = frozenset({
    "register_pytree_node", "register_pytree_node_class", "register_pytree_with_keys",
    "register_pytree_with_keys_class", "register_dataclass", "register_static",
})
# Positional parameter names of each registration function, as in jax.tree_util.
PARAMETERS = {
    "register_pytree_node": ("nodetype", "flatten_func", "unflatten_func", "flatten_with_keys_func"),
    "register_pytree_with_keys": ("nodetype", "flatten_with_keys", "unflatten_func", "flatten_func"),
    "register_dataclass": ("nodetype", "data_fields", "meta_fields", "drop_fields"),
    "register_pytree_node_class": ("cls",),
    "register_pytree_with_keys_class": ("cls",),
    "register_static": ("cls",),
}


@dataclass(eq=False)
class Registration:
    mechanism: str
    node: cst.CSTNode  # the registering call, or the decorator expression
    cls: ClassInfo | None
    flatten: FunctionInfo | None = None
    flatten_with_keys: FunctionInfo | None = None
    unflatten: FunctionInfo | None = None
    static_fields: list[StaticDeclaration] = field(default_factory=list)

    @property
    def target(self) -> str | None:
        """The registered class's name, which the runtime verifier looks for in the examples."""
        return self.cls.name if self.cls is not None else None

    @property
    def through_jax(self) -> bool:
        """Registered with jax.tree_util on purpose, not as a side effect of a library's dataclass idiom
        (flax.struct, netket, chex, ...), whose classes are often never traced."""
        return self.mechanism in MECHANISMS

    @property
    def class_name(self) -> str:
        return self.cls.name if self.cls is not None else "the registered class"


def _bind_arguments(mechanism: str, args) -> dict[str, cst.BaseExpression]:
    names = PARAMETERS[mechanism]
    bound: dict[str, cst.BaseExpression] = {}
    position = 0
    for arg in args:
        if arg.star:
            continue
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
        elif position < len(names):
            bound[names[position]] = arg.value
            position += 1
    return bound


class RegistrationFinder:
    def __init__(self, index: ModuleIndex, frameworks: Frameworks) -> None:
        self.index = index
        self.frameworks = frameworks

    def mechanism(self, node: cst.CSTNode) -> str | None:
        qualified = self.index.qualify(node)
        if qualified and qualified.startswith(TREE_UTIL):
            name = qualified[len(TREE_UTIL):]
            if name in MECHANISMS:
                return name
        return None

    def find(self) -> list[Registration]:
        found: list[Registration] = []
        for site in self.index.calls:
            mechanism = self.mechanism(site.node.func)
            if mechanism is not None:
                bound = _bind_arguments(mechanism, site.node.args)
                target = bound.get("nodetype", bound.get("cls"))
                cls = self.index.resolve_class(target) if target is not None else None
                found.append(self._build(mechanism, site.node, cls, bound, site.scope))
        for cls in self.index.decorated_classes:
            for decorator in cls.node.decorators:
                registration = self._from_decorator(decorator.decorator, cls)
                if registration is not None:
                    found.append(registration)
        registered = {id(r.cls) for r in found if r.cls is not None}
        for cls in self.index.all_classes:
            if id(cls) not in registered:
                found.extend(self._from_library(cls))
        return found

    def _from_library(self, cls: ClassInfo) -> list[Registration]:
        """flax, equinox, jax_dataclasses, ... classes; or fields declared with a library's or the
        project's own static-field helper, whatever registers the class."""
        convention = self.frameworks.convention(cls)
        if convention is not None:
            style, node = convention
            mechanism = self.index.qualify(node.func if isinstance(node, cst.Call) else node) or style
            registration = Registration(mechanism, node, cls, static_fields=self.frameworks.static_fields(cls, style))
            if style == NUMPYRO:  # the class's own flatten, if it overrides the library's
                registration.flatten = cls.methods.get("tree_flatten")
                registration.unflatten = cls.methods.get("tree_unflatten")
            return [registration]
        fields = self.frameworks.static_fields(cls, None)
        return [Registration("static-field helper", fields[0].declaration, cls, static_fields=fields)] if fields else []

    def _from_decorator(self, expr: cst.BaseExpression, cls: ClassInfo) -> Registration | None:
        mechanism = self.mechanism(expr)
        if mechanism is not None:
            return self._build(mechanism, expr, cls, {}, cls.parent)
        # @functools.partial(jax.tree_util.register_dataclass, data_fields=..., meta_fields=...)
        if (isinstance(expr, cst.Call) and expr.args
                and self.index.qualify(expr.func) == "functools.partial"):
            mechanism = self.mechanism(expr.args[0].value)
            if mechanism is not None:
                bound = _bind_arguments(mechanism, [cst.Arg(cst.Name("_")), *expr.args[1:]])
                return self._build(mechanism, expr, cls, bound, cls.parent)
        return None

    def _build(self, mechanism: str, node: cst.CSTNode, cls: ClassInfo | None,
               bound: dict[str, cst.BaseExpression], scope: Scope | None) -> Registration:
        registration = Registration(mechanism, node, cls)
        if mechanism in ("register_pytree_node", "register_pytree_with_keys"):
            registration.flatten = self._delegate(self._function(bound.get("flatten_func"), scope), cls)
            registration.flatten_with_keys = self._delegate(self._function(
                bound.get("flatten_with_keys_func", bound.get("flatten_with_keys")), scope), cls)
            registration.unflatten = self._function(bound.get("unflatten_func"), scope)
        elif cls is not None and mechanism == "register_pytree_node_class":
            registration.flatten = self.index.find_method(cls, "tree_flatten")
            registration.unflatten = self.index.find_method(cls, "tree_unflatten")
        elif cls is not None and mechanism == "register_pytree_with_keys_class":
            registration.flatten = self.index.find_method(cls, "tree_flatten")
            registration.flatten_with_keys = self.index.find_method(cls, "tree_flatten_with_keys")
            registration.unflatten = self.index.find_method(cls, "tree_unflatten")
        elif cls is not None and mechanism == "register_dataclass":
            registration.static_fields = self._meta_fields(cls, bound.get("meta_fields"))
        return registration

    def _delegate(self, function: FunctionInfo | None, cls: ClassInfo | None) -> FunctionInfo | None:
        """`lambda m: m.tree_flatten()` stands for the method it calls."""
        if function is None or cls is None or not isinstance(function.node, cst.Lambda) or not function.params:
            return function
        body, param = function.node.body, function.params[0].name.value
        if (isinstance(body, cst.Call) and not body.args and isinstance(body.func, cst.Attribute)
                and isinstance(body.func.value, cst.Name) and body.func.value.value == param):
            return self.index.find_method(cls, body.func.attr.value) or function
        return function

    def _function(self, expr: cst.BaseExpression | None, scope: Scope | None) -> FunctionInfo | None:
        """The def or lambda a registration argument names: `f`, `lambda`, `Cls.method`."""
        if expr is None:
            return None
        if isinstance(expr, cst.Lambda):
            return FunctionInfo(expr, parent=scope)
        if isinstance(expr, cst.Name):
            return self.index.module_function(expr.value)
        if isinstance(expr, cst.Attribute):
            owner = self.index.resolve_class(expr.value)
            if owner is not None:
                return self.index.find_method(owner, expr.attr.value)
        return None

    def _meta_fields(self, cls: ClassInfo, meta_fields: cst.BaseExpression | None) -> list[StaticDeclaration]:
        if isinstance(meta_fields, (cst.List, cst.Tuple)):
            fields = []
            for element in meta_fields.elements:
                value = element.value
                if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
                    name = value.evaluated_value
                    declared = self._declaration(cls, name)
                    fields.append(StaticDeclaration(name, declared if declared is not None else value,
                                                    "`meta_fields`"))
            return fields
        if meta_fields is not None:
            return []  # built at run time: nothing to say
        return [static for owner in self.index.class_and_bases(cls)
                for static in self.frameworks.static_fields(owner, STATIC)]

    def _declaration(self, cls: ClassInfo, name: str) -> cst.CSTNode | None:
        for owner in self.index.class_and_bases(cls):
            if name in owner.fields:
                return owner.fields[name].statement
        return None
