"""PTL505 nnx-module-hidden-in-callable

What it does:
    Finds an attribute of a Flax NNX pytree class that holds `jax.vmap`, `jax.jit`, `functools.partial`,
    `nnx.vmap`, ... around a Module that no attribute holds itself (`self.apply =
    jax.vmap(nnx.Linear(...))`).

Why is this bad:
    The wrapper is a plain function object: static, opaque to NNX. The Module inside it is reached by no
    attribute, so it is not in the model's state (measured, flax 0.12.8: `nnx.state(model, nnx.Param)`
    has 0 leaves for it, and its gradients are 0 leaves): silently never trained, never saved. Equinox
    warns about the same pattern; NNX says nothing.

Example:
    class Ensemble(nnx.Module):
        def __init__(self, rngs):
            self.apply = jax.vmap(nnx.Linear(4, 4, rngs=rngs))           # PTL505

Use instead:
    Keep the Module as an attribute and wrap it where it is called: `self.linear = nnx.Linear(...)`, then
    `jax.vmap(self.linear)(x)` or `nnx.vmap` in `__call__` (shown, no automatic fix: the rewrite spans
    two places).

Known false positives:
    None known. A wrapper around a Module that an attribute also holds (`self.linear = layer;
    self.apply = jax.vmap(layer)`, `jax.vmap(self.linear)`) is quiet.

Known limits:
    The Module must be made where the wrapper is (`jax.vmap(nnx.Linear(...))`) or one local name away;
    a Module passed in as a parameter is not judged.
"""

from __future__ import annotations

from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.observe import hidden_params
from ...runtime.probes import StateProbe
from ..base import Report, Rule


class NnxModuleHiddenInCallable(Rule):
    code = "PTL505"
    name = "nnx-module-hidden-in-callable"
    triggers = NNX_TRIGGERS
    summary = "an NNX attribute holds a transformation or partial of a Module that no attribute holds"
    runtime = StateProbe(hidden_params)

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            cls = nnx_class.cls.name
            for name, group in nnx_class.assignments.items():
                for assignment in group:
                    value = assignment.value
                    if value.hidden_module is not None:
                        yield Report(assignment.target,
                                     f"`{cls}.{name}` is {value.what} around {analysis.located(value.hidden_module)}, "
                                     "a Module no attribute holds: it is not in the model's state, so "
                                     "`nnx.grad` and `nnx.Optimizer` never see its parameters (keep the Module as "
                                     "an attribute and wrap it where it is called)", target=cls, member=name)
