"""Module-level functions compiled with `jax.jit`, and the positions and names that are static.

Understood: `@jax.jit` (any alias, `pjit` too), `@jax.jit(static_argnums=...)`,
`@partial(jax.jit, static_argnums=(1,))` / `@functools.partial(jax.jit, static_argnames="n")` on a def,
and `g = jax.jit(f, static_argnums=0)` at module level. As in JAX, a static name also makes its position
static, and a static position its name. `eqx.filter_jit` is not jit: it treats non-array leaves as static.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..knowledge.jax import JIT
from ..knowledge.python import PARTIAL
from .model import FunctionInfo, ModuleIndex, is_literal_int, keyword_arguments, literal_string


@dataclass(eq=False)
class JittedFunction:
    name: str
    definition: ast.AST
    function: FunctionInfo | None  # the def that is compiled, when it is in this module
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)

    def is_static(self, position: int | None, name: str) -> bool:
        return position in self.static_positions or name in self.static_names

    def arguments(self, call: ast.Call) -> list[PassedArgument]:
        """What a call of this function passes, in the order written, up to the first `*args` or
        `**kwargs` (whose positions are unknown)."""
        found, position = [], 0
        for argument in sorted([*call.args, *call.keywords], key=lambda a: (a.lineno, a.col_offset)):
            if isinstance(argument, ast.Starred) or (isinstance(argument, ast.keyword) and argument.arg is None):
                break
            if isinstance(argument, ast.keyword):
                found.append(PassedArgument(argument.arg, argument.value, argument.arg in self.static_names))
            else:
                found.append(PassedArgument(f"argument {position}", argument, position in self.static_positions))
                position += 1
        return found


@dataclass(frozen=True, eq=False)
class PassedArgument:
    """An argument of a call of a jitted function: how messages name it, its value, whether it is static
    (hashed to find the compiled function)."""

    label: str
    value: ast.expr
    static: bool


def _items(node: ast.expr) -> list[ast.expr]:
    return node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]


def _literal_ints(node: ast.expr) -> set[int]:
    return {item.value for item in _items(node) if is_literal_int(item)}


def _literal_strings(node: ast.expr) -> set[str]:
    return {item.value for item in _items(node) if literal_string(item) is not None}


def calls_of(index: ModuleIndex, jitted: dict[str, JittedFunction]) -> list[tuple[ast.Call, JittedFunction]]:
    """The calls of the module's jitted functions by name (`step(x, n)`), in source order."""
    if not jitted:
        return []
    return [(call, jitted[call.func.id]) for call, _in_function in index.calls_mentioning(tuple(jitted))
            if isinstance(call.func, ast.Name) and call.func.id in jitted]


class JittedFinder:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index

    def _jit_keywords(self, node: ast.expr) -> dict[str, ast.expr] | None:
        """The keywords given to jit by a decorator or call (`jax.jit`: none; `jax.jit(f, ...)`,
        `partial(jax.jit, ...)`: theirs); None when `node` is not jit."""
        if self.index.qualify(node) in JIT:
            return {}
        if not isinstance(node, ast.Call):
            return None
        qualified = self.index.qualify(node.func)
        if qualified in JIT or (qualified == PARTIAL and node.args and self.index.qualify(node.args[0]) in JIT):
            return keyword_arguments(node)
        return None

    def find(self) -> dict[str, JittedFunction]:
        found: dict[str, JittedFunction] = {}
        for name, function in self.index.functions.items():
            for decorator in function.node.decorator_list:
                keywords = self._jit_keywords(decorator)
                if keywords is not None:
                    found[name] = self._build(name, function.node, keywords, function)
        for site in self.index.calls:
            call = site.node
            if site.scope is not None or not call.args or isinstance(call.args[0], ast.Starred):
                continue
            keywords = self._jit_keywords(call)
            target = self.index.assigned_name(call)
            bare_partial = self.index.qualify(call.func) == PARTIAL and len(call.args) == 1 and not call.keywords
            if keywords is not None and not bare_partial and target is not None:
                wrapped = call.args[0]
                function = self.index.functions.get(wrapped.id) if isinstance(wrapped, ast.Name) else None
                found[target] = self._build(target, call, keywords, function)
        return found

    @staticmethod
    def _build(name: str, node: ast.AST, static: dict[str, ast.expr], function: FunctionInfo | None) -> JittedFunction:
        jitted = JittedFunction(name, node, function)
        if "static_argnums" in static:
            jitted.static_positions = _literal_ints(static["static_argnums"])
        if "static_argnames" in static:
            jitted.static_names = _literal_strings(static["static_argnames"])
        if function is not None:  # JAX maps each to the other through the signature
            parameters = [p.name for p in function.params]
            jitted.static_names |= {parameters[i] for i in jitted.static_positions if 0 <= i < len(parameters)}
            jitted.static_positions |= {i for i, p in enumerate(parameters) if p in jitted.static_names}
        return jitted
