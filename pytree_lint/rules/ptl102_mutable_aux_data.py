"""PTL102 mutable-aux-data

What it does:
    Finds a list, dict or set (a display, a comprehension, `list()`/`dict()`/`set()`/`sorted()`,
    `.tolist()`, or an attribute assigned or annotated as one) that reaches a pytree's aux_data or a
    static field.

Why is this bad:
    aux_data is part of the key under which `jax.jit` caches the compiled function. JAX raises nothing:
    three equal lists gave one trace. But when the list is mutated after the first call, the cache key
    mutates with it, and the next call silently returns the stale result (measured, jax 0.10.2: after
    `meta.append(...)` the call returned `Array(2.)` where 3.0 was expected, and a fresh equal list
    returned the same stale value). `static_argnums` rejects the same list outright.

Example:
    def flatten(net):
        return (net.weights,), net.layer_sizes    # PTL102: `self.layer_sizes = [784, 128, 10]`

Use instead:
    Store and return an immutable value: `tuple(layer_sizes)`, `frozenset(...)`,
    `tuple(sorted(d.items()))`.

Known limits:
    Containers built outside the module, or passed in unannotated, are not followed.
"""

from __future__ import annotations

from ..analysis.kinds import Kind
from .base import Report, Rule


class MutableAuxData(Rule):
    code = "PTL102"
    name = "mutable-aux-data"
    summary = "a list, dict or set reaches aux_data or a static field"

    def check(self, analysis):
        for site in analysis.aux_sites:
            evidence = site.first(Kind.MUTABLE, include_shared=True)
            if evidence is not None:
                yield Report(site.report_node,
                             f"mutable {evidence.what.removeprefix('a ').removeprefix('an ')} in "
                             f"{site.subject}: {analysis.origin(evidence)}; jit caches the compiled call "
                             "under this object, so mutating it later silently returns stale results "
                             "(use a tuple or frozenset)")
