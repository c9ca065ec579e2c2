"""PTL403 unhashable-static-argument

What it does:
    Finds a call of a jitted function (`@partial(jax.jit, static_argnums=...)`, `jax.jit(f,
    static_argnames=...)`) that passes a list, dict or set (a display, a comprehension, `list()`,
    `dict()`, `set()`) or an array at a static position or static keyword.

Why is this bad:
    Static arguments are hashed to find the compiled function, and these cannot be (measured, jax
    0.10.2): `ValueError: Non-hashable static arguments are not supported. An error occurred while trying
    to hash an object of type <class 'list'>, [1, 2]. The error was: TypeError: unhashable type: 'list'`.
    The same holds for dicts, NumPy and JAX arrays, and a JAX scalar passed by `static_argnames`.

Example:
    @partial(jax.jit, static_argnums=1)
    def pad(x, widths):
        return jnp.pad(x, widths)

    pad(x, [(1, 1)])      # PTL403

Use instead:
    Pass a hashable value: `pad(x, ((1, 1),))`, `tuple(sizes)`, `frozenset(...)`, or make the array a
    traced argument.

Known limits:
    Only module-level functions called by name, and containers or arrays written at the call (a display,
    a comprehension, `list()`/`dict()`/`set()`/`sorted()`, an array constructor such as `np.zeros`), are
    checked; jitted methods are not.
"""

from __future__ import annotations

from ..analysis.kinds import Kind
from ..slicing import ARRAY_CONSTRUCTOR_NAMES, UNHASHABLE_BUILTINS
from .base import Report, Rule

UNHASHABLE = {Kind.MUTABLE: "unhashable", Kind.ARRAY: "an array, unhashable"}


def _built_here(value) -> bool:
    """A container or array written at the call: a display, a comprehension, `list(...)`, `np.zeros(...)`
    (what the slicer keeps calls for: see slicing._may_be_unhashable)."""
    import libcst as cst

    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        return value.func.value in UNHASHABLE_BUILTINS | ARRAY_CONSTRUCTOR_NAMES
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        return value.func.attr.value in ARRAY_CONSTRUCTOR_NAMES
    return False


class UnhashableStaticArgument(Rule):
    code = "PTL403"
    name = "unhashable-static-argument"
    summary = "a list, dict, set or array is passed at a static argument of a jitted function"
    triggers = ("static_argnums", "static_argnames")

    def check(self, analysis):
        import libcst as cst  # rules are imported before any file needs libcst

        jitted = analysis.jitted_functions
        if not jitted:
            return
        for call, _in_function in analysis.index.all_calls:
            function = jitted.get(call.func.value) if isinstance(call.func, cst.Name) else None
            if function is None:
                continue
            positional = 0
            for argument in call.args:
                if argument.star:
                    break
                if argument.keyword is not None:
                    static, label = argument.keyword.value in function.static_names, argument.keyword.value
                else:
                    static, label = positional in function.static_positions, f"argument {positional}"
                    positional += 1
                if not static:
                    continue
                if not _built_here(argument.value):
                    continue
                evidence = next((e for e in analysis.values.infer(argument.value)
                                 if e.kind in UNHASHABLE and not e.trail), None)
                if evidence is not None:
                    yield Report(call,
                                 f"static {label} of `{function.name}` is {evidence.what} "
                                 f"({analysis.located(argument.value)}), {UNHASHABLE[evidence.kind]}: the call "
                                 "raises `ValueError: Non-hashable static arguments are not supported` (pass a "
                                 "tuple or another hashable value)", target=function.name)
