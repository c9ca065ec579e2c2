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

Known false positives:
    None known. Not reported: a lambda, partial, `jax.jit(f)` or time taken at module level, as a
    default value (evaluated once), passed to the constructor by a factory (`Model.create(...)`, a
    classmethod or staticmethod; not by a def the factory returns, such as a decorator factory's `inner`,
    which runs for each object) or at module level, or assigned by a method other than the constructor
    (a start time set in `on_run_start`, a `jax.jit` built lazily and cached on `self`): made once where
    the program sets its objects up, and kept by every flatten and unflatten after. Nor an `object()`
    marker the module uses as a lookup key (equinox's `state[index.marker]`: each object owning its entry
    is the design), the `id()` of an object an attribute keeps (`id(self.manager)`, `id(getattr(manager,
    name))`: the same object on every flatten; reported when the attribute holds an array or a value made
    per instance), an augmented change of a list, dict or set (PTL102's: one cause, one finding), and
    netket's `mutable=True` pytrees that reach no transformation. A function given to the object by a
    factory function (here or in another module) is reported when the factory makes the object per call
    and passes it on (returns it beside other values, stores it, hands it to a call: jax-md's
    neighbour-list factories; 3 calls, 3 compilations of a jitted function given each struct); a builder
    that only returns the object is judged where it is called; a memoised factory (`functools.lru_cache`,
    `functools.cache`, or a decorator of the project wrapping one, as equinox's `compile_cache`) returns
    the same function each time; a nested function's enclosing-function value, read on each of its many
    calls, is the same each time.

Known limits:
    A builder of another module is judged by its calls one module away: a caller that only returns the
    builder's result in turn is not followed further.
"""

from __future__ import annotations

from ...analysis.values.inference import Elsewhere, Evidence
from ...analysis.values.kinds import Kind, Leaf, Relation, Volatility
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
            in_place = _changed_in_place(analysis, site)
            volatile = [e for e in site.evidence if e.kind is Kind.VOLATILE and not e.shared
                        and not e.made_once and not (_updated_by(e) & in_place)
                        and not _identity_by_design(analysis, site, e)]
            if volatile:
                evidence = min(volatile, key=_when)  # the most often new: `(id(self), object())` is new per flatten
                yield Report(site.report_node,
                             f"volatile {site.subject} ({evidence.what}): {analysis.origin(evidence)}; "
                             f"{_differs(evidence)}, and aux_data is part of jit's cache key, so {_retraces(evidence)}",
                             target=site.registration.target)


def _changed_in_place(analysis, site) -> set:
    """The statements that change a list, dict or set of this aux site in place (PTL102 reports them: an
    augmented `self.frozen |= names` there is one cause, not also a new value)."""
    return {_place(c.mutation.node) for c in analysis.held_containers if c.site is site and c.mutation is not None}


def _identity_by_design(analysis, site, evidence: Evidence) -> bool:
    """An object made per instance whose attribute the module uses as a lookup key (`state[leaf.marker]`):
    each object owning its entry is the design (see analysis/pytrees/keys.py)."""
    return evidence.volatility is Volatility.OBJECT and any(
        analysis.lookup_keys.is_key(name) for name in site.attributes(evidence))


def _updated_by(evidence: Evidence) -> set:
    return {_place(hop.node) for hop in evidence.trail if hop.relation is Relation.UPDATED_BY}


def _place(node) -> object:
    """A statement as both analyses name it: the node here, the module and line in another module."""
    return (node.path, node.line) if isinstance(node, Elsewhere) else id(node)


def _differs(evidence: Evidence) -> str:
    """What makes the value differ from one call to the next."""
    if evidence.leaf is Leaf.CALLABLE:
        return "a function object compares by identity, and this one is made anew"
    if evidence.volatility in (Volatility.IDENTITY, Volatility.OBJECT):
        return "each object has its own identity"
    if evidence.volatility is Volatility.CHANGED:
        return "its value changes"
    return "its value is new each time"


_RETRACES = ("every jitted call retraces and recompiles, even with the same object",
             "a jitted call with each new instance retraces and recompiles",
             "every jitted call after an update retraces and recompiles")


def _when(evidence: Evidence) -> int:
    """When the value is new, as an index of _RETRACES: on every flatten, with each new instance (an `id()`
    names an object that exists before the flatten; a value held by an object, or given to one when it is
    built), or after each update."""
    if any(hop.relation is Relation.UPDATED_BY for hop in evidence.trail):
        return 2
    if evidence.volatility is Volatility.IDENTITY or any(
            (hop.holder is not None and hop.holder.cls is not None) or hop.relation is Relation.GIVEN
            for hop in evidence.trail):
        return 1
    return 0


def _retraces(evidence: Evidence) -> str:
    return _RETRACES[_when(evidence)]
