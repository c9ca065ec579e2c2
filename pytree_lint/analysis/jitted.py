"""Module-level functions jitted with static arguments, and the positions and names that are static.

Understood: `@jax.jit(static_argnums=...)`-style calls (`@partial(jax.jit, static_argnums=(1,))`,
`@functools.partial(jax.jit, static_argnames="n")`) on a def, and `g = jax.jit(f, static_argnums=0)`.
As in JAX, a static name also makes its position static, and a static position its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .index import FunctionInfo, ModuleIndex, keyword_arguments

JIT = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})


@dataclass(eq=False)
class JittedFunction:
    name: str
    definition: cst.CSTNode
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)


def _literal_ints(node: cst.BaseExpression) -> set[int]:
    items = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List)) else [node]
    return {int(item.value) for item in items if isinstance(item, cst.Integer)}


def _literal_strings(node: cst.BaseExpression) -> set[str]:
    items = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List)) else [node]
    return {item.evaluated_value for item in items
            if isinstance(item, cst.SimpleString) and isinstance(item.evaluated_value, str)}


class JittedFinder:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    def _static_keywords(self, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
        """The static_argnums/static_argnames of a `jax.jit(...)` or `partial(jax.jit, ...)` call."""
        qualified = self.index.qualify(call.func)
        if qualified == "functools.partial" and call.args and self.index.qualify(call.args[0].value) in JIT:
            arguments = call.args[1:]
        elif qualified in JIT:
            arguments = call.args
        else:
            return None
        keywords = keyword_arguments(arguments)
        static = {k: v for k, v in keywords.items() if k in ("static_argnums", "static_argnames")}
        return static or None

    def find(self) -> dict[str, JittedFunction]:
        found: dict[str, JittedFunction] = {}
        for name, function in self.index.functions.items():
            for decorator in function.node.decorators:
                if isinstance(decorator.decorator, cst.Call):
                    static = self._static_keywords(decorator.decorator)
                    if static is not None:
                        found[name] = self._build(name, function.node, static, function)
        for site in self.index.calls:
            if site.scope is not None or len(site.node.args) < 1:
                continue
            static = self._static_keywords(site.node)
            target = self.index.assigned_name(site.node)
            if static is not None and target is not None:
                wrapped = site.node.args[0].value
                function = (self.index.functions.get(wrapped.value) if isinstance(wrapped, cst.Name) else None)
                found[target] = self._build(target, site.node, static, function)
        return found

    @staticmethod
    def _build(name: str, node: cst.CSTNode, static: dict[str, cst.BaseExpression],
               function: FunctionInfo | None) -> JittedFunction:
        jitted = JittedFunction(name, node)
        if "static_argnums" in static:
            jitted.static_positions = _literal_ints(static["static_argnums"])
        if "static_argnames" in static:
            jitted.static_names = _literal_strings(static["static_argnames"])
        if function is not None:  # JAX maps each to the other through the signature
            parameters = [p.name.value for p in function.params]
            jitted.static_names |= {parameters[i] for i in jitted.static_positions if 0 <= i < len(parameters)}
            jitted.static_positions |= {i for i, p in enumerate(parameters) if p in jitted.static_names}
        return jitted
