"""PTL405 array-declared-static

What it does:
    Finds a `static_argnums`/`static_argnames` declaration (`@partial(jax.jit, static_argnums=...)`,
    `jax.jit(f, static_argnames=...)`, or a project's `partial(jax.jit, ...)` wrapper used as a decorator)
    that makes static a parameter annotated as an array (`jax.Array`, `jnp.ndarray`, `np.ndarray`,
    jaxtyping's `Float[Array, ...]`, the project's own `Array` alias), or a parameter that a call of the
    module (or of another module of the project) passes an array: a parameter of the caller annotated as one.

Why is this bad:
    Static arguments are hashed to find the compiled function, and arrays cannot be (measured, jax 0.10.2):
    the first call raises `ValueError: Non-hashable static arguments are not supported. An error occurred
    while trying to hash an object of type <class 'jaxlib._jax.ArrayImpl'>, ... The error was: TypeError:
    unhashable type: 'jaxlib._jax.ArrayImpl'`. NumPy arrays and JAX scalars raise the same. The
    declaration, not the caller, is what is wrong: an array is data, to be traced.

Example:
    @partial(jax.jit, static_argnums=(1,))      # PTL405
    def apply_mask(x: jax.Array, mask: jax.Array) -> jax.Array:
        return jnp.where(mask, x, 0.0)

Use instead:
    Trace it: `@jax.jit` (drop `mask` from `static_argnums`). If the function needs its value in Python
    (a shape, a loop count), pass that value instead, as an int or a tuple.

Known false positives:
    None known. Not reported: a parameter whose annotation admits None (`Optional[jax.Array]`: callers may
    pass only None), one the module's calls pass a hashable value (`tuple(ts.tolist())`: the annotation is
    what is wrong, not every call; dynamiqs' `tsave`), one the body uses as a size (`jnp.linspace(0, 1, n)`,
    `range(n)`: only an int works there), a caller's parameter its own jit takes as static (the hashable
    value given, whatever its annotation), and a static parameter of a function defined in another module
    (reported there).

Known limits:
    Only module-level functions and their positional parameters are checked (not keyword-only ones).
    Array arguments written at the call (`f(x, jnp.ones(3))`) are PTL403's, reported at the call; here a
    call counts only through the caller's annotated parameter (in another module: one that imports the
    function by its name).
"""

from __future__ import annotations

from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule

SYMPTOM = ("arrays are unhashable, so every call raises `ValueError: Non-hashable static arguments are not "
           "supported`; trace it (drop it from static_argnums/static_argnames), or pass the hashable value the "
           "function needs (an int, a tuple)")


class ArrayDeclaredStatic(Rule):
    code = "PTL405"
    name = "array-declared-static"
    summary = "a static argument of a jitted function is declared for a parameter that is an array"
    runtime = ReproduceProbe(("Non-hashable static arguments",), where="call")
    triggers = ("static_argnums", "static_argnames")

    def check(self, analysis):
        for static in analysis.static_arrays:
            elsewhere = static.elsewhere
            if elsewhere is not None:  # a call in another module
                evidence = (f"is given a parameter of `{static.caller}` annotated `{elsewhere.text}` "
                            f"({elsewhere.path}:{elsewhere.line})")
            elif static.call is None:
                evidence = f"is annotated {self._annotated(analysis, static.annotation)}"
            else:
                evidence = (f"is given at line {static.call.lineno} a parameter of `{static.caller}` annotated "
                            f"{self._annotated(analysis, static.annotation)}")
            function = static.function
            yield Report(function.declaration or function.definition,
                         f"`{static.parameter}` of `{function.name}` is declared static, but it {evidence}: "
                         f"{SYMPTOM}", target=function.name)

    @staticmethod
    def _annotated(analysis, annotation) -> str:
        return f"`{analysis.snippet(annotation)}` (line {annotation.lineno})"
