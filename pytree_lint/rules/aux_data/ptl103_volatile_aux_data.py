"""PTL103 volatile-aux-data

What it does:
    Finds aux_data that is different on every flatten or on every instance: `id(...)`, `object()`,
    `time.time()`, `uuid.uuid4()`, the `random` module, a lambda, nested function, `functools.partial`
    or JAX transformation (`jax.jit(f)`, `jax.grad(f)`: a new function object each time) built per
    instance, or an attribute that a method other than the constructor keeps changing
    (`self.step += 1`).

Why is this bad:
    aux_data is part of jit's cache key. A value that differs each time is a cache miss each time, so
    every call traces and compiles again: 5 calls gave 5 traces in every measured case (jax 0.10.2).
    An `object()` made in flatten recompiles even for the same instance. Nothing is raised; the program
    just runs at compile speed. `jax.config.update('jax_explain_cache_misses', True)` shows the cause.

Example:
        class Layer:
            def __init__(self, w, act):
                self.w = w
                self.act = lambda x: act(x) * 2     # a new function object per instance

            def tree_flatten(self):
                return (self.w,), self.act          # PTL103

Use instead:
    Keep functions at module level (or pass `jax.nn.relu` itself), keep counters and schedules in the
    children as arrays, and leave identities out of aux_data.

Known limits:
    A lambda or partial assigned at module level is one object and is not reported.
"""

from __future__ import annotations

from ...analysis.kinds import Kind
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_retrace


class VolatileAuxData(Rule):
    code = "PTL103"
    name = "volatile-aux-data"
    summary = "aux_data differs on every flatten or every instance"
    runtime = ExamplesProbe(probe_retrace)

    def check(self, analysis):
        for site in analysis.aux_sites:
            evidence = site.first(Kind.VOLATILE)
            if evidence is not None:
                yield Report(site.report_node,
                             f"volatile {site.subject} ({evidence.what}): {analysis.origin(evidence)}; it is "
                             "new for every instance, so every jitted call retraces and recompiles",
                             target=site.registration.target)
