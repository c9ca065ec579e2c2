"""PTL901 mutable-aux-data-unmutated

What it does:
    Opt-in (`--extend-select PTL9`, or by code). Finds a list, dict or set held by an attribute, a static
    field or a module-level name that reaches a pytree's aux_data, when nothing in the module changes it
    in place or hashes it once it is built (a constructor filling it, or a module filling it at import
    before the pytree's class exists, does not count): the cases PTL102 leaves out for lack of evidence.

Why is this bad:
    Correct today: measured (jax 0.10.2), a container that nothing changes is inert (one trace, hashable
    treedef; scan, vmap, grad and cond work). But jit caches compiled calls under this very object: the
    day someone appends to it after the first call, the calls silently return stale results, far from the
    change that caused it. An immutable value makes that impossible.

Example:
        class Net:
            def __init__(self, weights):
                self.weights = weights
                self.layer_sizes = [784, 128, 10]

        def flatten(net):
            return (net.weights,), net.layer_sizes    # PTL901

Use instead:
    `tuple(layer_sizes)`, `frozenset(...)`, `tuple(sorted(d.items()))`, a `types.MappingProxyType`, a
    frozen dataclass.

Known false positives:
    It is advice: every finding is correct code today. A container the flatten function builds afresh
    is not reported (no other code holds it).

Known limits:
    Changes made in another module are not seen, so a container changed only there is reported here,
    not as PTL102.

Fix safety:
    `--fix` builds a tuple or frozenset where the list or set is built, when that is the only container
    the value can be; safe when nothing in the module changes it or checks `isinstance` on it. Dicts have
    no fix.
"""

from __future__ import annotations

from ...analysis.values.kinds import Kind
from ..aux_data.ptl102_mutable_aux_data import MutableAuxData, container_name, immutable_container_fix
from ..base import Report, Rule


class MutableAuxDataUnmutated(Rule):
    code = "PTL901"
    name = "mutable-aux-data-unmutated"
    summary = "(opt-in) a list, dict or set reaches aux_data or a static field, and nothing changes or hashes it"
    runtime = MutableAuxData.runtime  # the same containers, the same symptom

    def check(self, analysis):
        for container in analysis.held_containers:
            if container.evidenced:
                continue  # PTL102's
            if any(e.kind is Kind.VOLATILE and not e.shared for e in container.site.evidence):
                continue  # PTL103's: new on every call already, not merely changeable
            evidence, site = container.evidence, container.site
            yield Report(site.report_node,
                         f"{container_name(evidence)} in {site.subject}: {analysis.origin(evidence)}; nothing in "
                         "this module changes or hashes it once it is built, so it is correct today, but jit "
                         "caches compiled calls under this object: a later in-place change would silently return "
                         "stale results "
                         f"(use {container.advice})", target=site.registration.target, member=container.member,
                         fix=immutable_container_fix(analysis, evidence, site.evidence))
