"""PTL402 non-array-field-into-jit

What it does:
    Finds a jitted function (`@jax.jit`, `@partial(jax.jit, ...)`, `@jax.jit(...)`, `g = jax.jit(f)`)
    with a parameter annotated with a NamedTuple or a registered dataclass (register_dataclass,
    flax.struct, jax_dataclasses, chex, ...) of the module that has a field annotated `str`, `Callable`,
    `type`/`Type[...]` (or is assigned a function, lambda or `functools.partial`) and is not static, while the
    parameter is not in `static_argnums`/`static_argnames`. Nested NamedTuples and dataclasses are followed
    (`batch.meta.split`).

Why is this bad:
    A NamedTuple is a pytree whose every field is a leaf, as is every non-static field of a registered
    dataclass; jit traces each leaf as an array and rejects the rest (measured, jax 0.10.2):
    `TypeError: Error interpreting argument to <function eval_step at ...> as an abstract array. The
    problematic value is of type <class 'str'> and was passed to the function at path batch.split.`
    The same with `<class 'function'>` and class objects. Float and int fields are traced and work.

Example:
    class Batch(NamedTuple):
        x: jax.Array
        split: str

    @jax.jit
    def eval_step(params, batch: Batch):    # PTL402: every call raises
        ...

Use instead:
    Keep the str or callable out of the jitted argument (pass it separately, in `static_argnames`), or
    make it static: a registered dataclass with `field(metadata=dict(static=True))`, or a class whose
    flatten puts it in aux_data.

Known false positives:
    None known. Not reported: parameters in `static_argnums`/`static_argnames`, `eqx.filter_jit`
    (it keeps non-array leaves static), and fields only annotated `Callable`.

Known limits:
    Only module-level functions and parameters annotated with a class of the same module are checked; a
    NamedTuple that the module registers with its own flatten is left to PTL401. A field only annotated
    `Callable` is reported only where the module assigns it a function, lambda or `functools.partial`: it
    may hold a `jax.tree_util.Partial` or a module, which jit accepts (netket's QGTOnTheFlyT does so).
"""

from __future__ import annotations

from ...knowledge.triggers import RECORD_CLASS_WORDS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule


class NonArrayFieldIntoJit(Rule):
    code = "PTL402"
    name = "non-array-field-into-jit"
    summary = ("a jitted function takes a NamedTuple or dataclass pytree whose str, callable or class field is "
               "a leaf")
    runtime = ReproduceProbe(("Error interpreting argument to",), where="function")
    triggers = ("jit",)
    requires = RECORD_CLASS_WORDS

    def check(self, analysis):
        for jitted in analysis.jitted_functions.values():
            function = jitted.function
            if function is None:
                continue
            for position, parameter in function.argument_params:
                name = parameter.name
                if parameter.annotation is None or jitted.is_static(position, name):
                    continue
                classes = {e.cls.name: e.cls for e in analysis.values.annotation(parameter.annotation)
                           if e.cls is not None}
                for cls in classes.values():
                    leaves = analysis.children.non_array_leaves(cls, analysis.registrations_of(cls))
                    if not leaves:
                        continue
                    path, evidence = leaves[0].path, leaves[0].evidence
                    yield Report(function.name_node,
                                 f"`{function.name}` is jitted and its parameter `{name}` is a `{cls.name}`, whose "
                                 f"field `{path}` is {evidence.leaf.value} ({analysis.origin(evidence)}) "
                                 "and a leaf: every call raises "
                                 f"`TypeError: Error interpreting argument to <function {function.name}> as an "
                                 "abstract array` (make the field static or pass it separately as a static "
                                 "argument)", target=function.name)
                    break
