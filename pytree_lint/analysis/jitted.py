"""Module-level functions compiled with `jax.jit`, and the positions and names that are static.

Understood: `@jax.jit` (any alias, `pjit` too), `@jax.jit(static_argnums=...)`,
`@partial(jax.jit, static_argnums=(1,))` / `@functools.partial(jax.jit, static_argnames="n")` on a def,
and `g = jax.jit(f, static_argnums=0)` at module level. As in JAX, a static name also makes its position
static, and a static position its name. `eqx.filter_jit` is not jit: it treats non-array leaves as static.
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
    function: FunctionInfo | None  # the def that is compiled, when it is in this module
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)

    def is_static(self, position: int | None, name: str) -> bool:
        return position in self.static_positions or name in self.static_names


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

    def _jit_arguments(self, node: cst.BaseExpression) -> list[cst.Arg] | None:
        """The arguments given to jit by a decorator or call (`jax.jit`: none; `jax.jit(f, ...)`,
        `partial(jax.jit, ...)`: theirs); None when `node` is not jit."""
        if self.index.qualify(node) in JIT:
            return []
        if not isinstance(node, cst.Call):
            return None
        qualified = self.index.qualify(node.func)
        if qualified == "functools.partial" and node.args and self.index.qualify(node.args[0].value) in JIT:
            return list(node.args[1:])
        return list(node.args) if qualified in JIT else None

    def find(self) -> dict[str, JittedFunction]:
        found: dict[str, JittedFunction] = {}
        for name, function in self.index.functions.items():
            for decorator in function.node.decorators:
                arguments = self._jit_arguments(decorator.decorator)
                if arguments is not None:
                    found[name] = self._build(name, function.node, arguments, function)
        for site in self.index.calls:
            if site.scope is not None or not site.node.args or site.node.args[0].keyword is not None:
                continue
            arguments = self._jit_arguments(site.node)
            target = self.index.assigned_name(site.node)
            if arguments and target is not None:
                wrapped = site.node.args[0].value
                function = self.index.functions.get(wrapped.value) if isinstance(wrapped, cst.Name) else None
                found[target] = self._build(target, site.node, arguments, function)
        return found

    @staticmethod
    def _build(name: str, node: cst.CSTNode, arguments: list[cst.Arg],
               function: FunctionInfo | None) -> JittedFunction:
        jitted = JittedFunction(name, node, function)
        static = keyword_arguments(arguments)
        if "static_argnums" in static:
            jitted.static_positions = _literal_ints(static["static_argnums"])
        if "static_argnames" in static:
            jitted.static_names = _literal_strings(static["static_argnames"])
        if function is not None:  # JAX maps each to the other through the signature
            parameters = [p.name.value for p in function.params]
            jitted.static_names |= {parameters[i] for i in jitted.static_positions if 0 <= i < len(parameters)}
            jitted.static_positions |= {i for i, p in enumerate(parameters) if p in jitted.static_names}
        return jitted
