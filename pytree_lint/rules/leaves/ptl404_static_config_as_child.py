"""PTL404 static-config-as-child

What it does:
    Finds a pytree child (an attribute a flatten function returns among the children, or a non-static
    field of a dataclass-style registration) that the class's own methods use as static configuration:
    in `range(self.n)`, as a shape or size (`jnp.zeros((self.n, 3))`, `x.reshape(self.n, -1)`,
    `jnp.arange(self.n)`), or in a Python `if`/`while` test that compares it (`if self.n > 3:`).
    Arithmetic and locals are followed (`range(self.n - 1)`, `n = self.n`).

Why is this bad:
    Children are traced: inside jit, vmap or grad the method sees a tracer, not the int (measured, jax
    0.10.2): `range(self.n)` raises `TracerIntegerConversionError: The __index__() method was called on
    traced array`; `jnp.zeros(self.n)` raises `TypeError: Shapes must be 1D sequences of concrete values
    of integer type`; `jnp.arange(self.n)` raises `ConcretizationTypeError`; `if self.n > 3:` raises
    `TracerBoolConversionError`. grad over such an object fails too (`grad requires real- or
    complex-valued inputs`).

Example:
    def flatten(lf):
        return (lf.step_size, lf.num_steps), None    # PTL404: num_steps is configuration

    class Leapfrog:
        def integrate(self, q, p):
            for _ in range(self.num_steps):           # a tracer under jit
                ...

Use instead:
    Put it in aux_data (`return (lf.step_size,), lf.num_steps`) or declare the field static
    (`field(metadata=dict(static=True))`, `struct.field(pytree_node=False)`); or use `jax.lax.fori_loop`
    if it really must be traced.

Known limits:
    Only the class's own methods (and its bases in the module) are read, not functions that receive an
    instance; constructors and printing methods are skipped, since they run on concrete values. A bare
    truth test (`if self.flag:`) is not reported: the child may be a container or None. Only classes
    registered through jax.tree_util (register_pytree_node*, register_dataclass, ...) are checked: a
    flax.struct, netket or chex dataclass is a pytree by idiom, often never traced, and its float children
    are state as often as configuration (on flax's EarlyStopping and netket's groups and timers, reporting
    them cried wolf). Equinox modules are exempt too: their filter transformations keep non-array leaves
    static.
"""

from __future__ import annotations

from ..base import REGISTRATION_TRIGGERS, Report, Rule
from ...runtime.probes import ReproduceProbe


class StaticConfigAsChild(Rule):
    code = "PTL404"
    name = "static-config-as-child"
    summary = "a child is used as static configuration (`range()`, a shape, a Python `if`) in the class's methods"
    runtime = ReproduceProbe(("ConcretizationTypeError", "TracerIntegerConversionError",
                              "Shapes must be 1D sequences of concrete values"), where="method")
    triggers = REGISTRATION_TRIGGERS

    def check(self, analysis):
        reported = set()
        for child in analysis.child_attributes:
            cls = child.registration.cls
            if cls is None or not child.registration.through_jax or (id(cls), child.attribute) in reported:
                continue
            use = next((u for u in analysis.configuration_uses.of(cls) if u.attribute == child.attribute), None)
            if use is None:
                continue
            reported.add((id(cls), child.attribute))
            yield Report(child.report_node,
                         f"`{child.attribute}` is a child of `{cls.name}`, but `{use.method.cls.name}."
                         f"{use.method.name}` uses it as static configuration ({analysis.located(use.node)}): "
                         f"under jit, vmap or grad it is a tracer and this raises {use.symptom} (put it in "
                         "aux_data or make the field static)", target=cls.name)
