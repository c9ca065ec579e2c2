"""PTL504 nnx-parameter-not-a-variable

What it does:
    Finds a bare array made by a random initializer (`jax.random.normal(key, shape)`, `jax.random.uniform`,
    `nnx.initializers.lecun_normal()(key, shape)`, ...) stored on a Flax NNX Module that has parameters
    (an `nnx.Param`, or a layer such as `nnx.Linear`).

Why is this bad:
    An array is data, but not a Param: `nnx.grad`, `nnx.value_and_grad` and `nnx.Optimizer(model, tx,
    wrt=nnx.Param)` leave it untouched (measured, flax 0.12.8: `nnx.state(model, nnx.Param)` lists `w`
    and not `pos`; the random table is never updated while `w` trains), and `nnx.cached_partial` raises
    `AttributeError ... get_raw_value` (flax#5109). A randomly initialised array is a parameter someone
    meant to train.

Example:
    class Encoder(nnx.Module):
        def __init__(self, length, dim, rngs: nnx.Rngs):
            self.proj = nnx.Linear(dim, dim, rngs=rngs)
            self.pos = jax.random.normal(rngs.params(), (length, dim))     # PTL504

Use instead:
    `self.pos = nnx.Param(jax.random.normal(...))` (shown, not applied: whether it should train is yours
    to decide), or a Variable subclass of your own for state that must not train.

Known false positives:
    None known. Constant arrays (`jnp.tril(jnp.ones(...))`, masks, `jnp.zeros`) are meant to be bare and
    are not reported, nor random arrays on a Module without parameters, nor arrays wrapped in any
    Variable, nor a bare array where the class makes the same attribute a Variable on another path (`if
    train_basis: self.omega = nnx.Param(omega) else: self.omega = omega`: left bare on purpose; jaxkan).

Known limits:
    Only samplers of `jax.random` and initializers applied to a key (`nnx.initializers.*(...)(key,
    shape)`, `jax.nn.initializers`) count as random, written where the attribute is assigned (or one
    local name, or an arithmetic expression of them, away).
"""

from __future__ import annotations

from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.observe import Outcome, is_array, nnx_param_paths
from ...runtime.probes import StateProbe
from ..base import Report, Rule
from .common import wrap


def _probe(model, target, member) -> Outcome:
    value = getattr(model, member, None)
    paths = nnx_param_paths(model)
    if not is_array(value):
        return Outcome("unconfirmed", f"`{member}` is no bare array")
    trained = [p for p in paths if p.startswith(f"[{member!r}]")]
    if paths and not trained:
        return Outcome("confirmed", f"`{member}` is a bare array of shape {tuple(value.shape)}; nnx.state(model, "
                                    f"nnx.Param) holds {len(paths)} leaves ({', '.join(paths[:3])}) and not it: "
                                    "nnx.grad and nnx.Optimizer(wrt=nnx.Param) never update it")
    return Outcome("unconfirmed", f"nnx.state(model, nnx.Param) holds {len(trained)} leaves under `{member}`")


class NnxParameterNotAVariable(Rule):
    code = "PTL504"
    name = "nnx-parameter-not-a-variable"
    triggers = NNX_TRIGGERS
    summary = "a randomly initialised bare array on an NNX Module with parameters is never trained"
    runtime = StateProbe(_probe)

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            if not nnx_class.has_params:
                continue
            cls = nnx_class.cls.name
            for name, group in nnx_class.assignments.items():
                if any(assignment.value.variable for assignment in group):
                    continue  # a Variable where the class chooses so (`if train: nnx.Param(w) else: w`)
                for assignment in group:
                    value = assignment.value
                    if value.random:
                        yield Report(assignment.target,
                                     f"`{cls}.{name}` is {value.what}, a bare array on a Module with parameters: "
                                     "it is not an `nnx.Param`, so `nnx.grad` and `nnx.Optimizer(wrt=nnx.Param)` "
                                     f"never update it (wrap it: `nnx.Param(...)`)", target=cls, member=name,
                                     fix=wrap(analysis, value, "Param", False, "unsafe: it will train"))
