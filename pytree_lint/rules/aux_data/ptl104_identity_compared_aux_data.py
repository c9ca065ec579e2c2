"""PTL104 identity-compared-aux-data

What it does:
    Finds aux_data that is an instance of a class of the project (this module or another) that has no value
    equality (no `__eq__`, not a dataclass, NamedTuple or Enum) and is built anew for each pytree instance
    (by the constructor, a helper, or a method of a builder object); also a
    `register_static` class of that kind that the module instantiates inside a function.

Why is this bad:
    Without `__eq__`, two equal-valued objects compare unequal, so each new object is a jit cache miss:
    3 calls with a new equal `Config` each gave 3 traces and 3 cache entries (jax 0.10.2). Reusing the
    same object gives one trace, which hides the problem in small tests. `register_static` does not
    check that the class is hashable with value semantics.

Example:
        class Config:
            def __init__(self, lr):
                self.lr = lr

        class Model:
            def __init__(self, w, lr):
                self.w = w
                self.config = Config(lr)

            def tree_flatten(self):
                return (self.w,), self.config     # PTL104

Use instead:
    Make the class compare by value: `@dataclass(frozen=True)`, a `NamedTuple`, or an `__eq__` and
    `__hash__` over its fields (over those that are no arrays, for a class holding one: a generated `__eq__`
    would compare the arrays, and raise).

Known false positives:
    None known. Not reported: module-level singletons, frozen dataclasses, NamedTuples, Enums and
    classes with `__eq__`, classes whose base class is in another module (it may define `__eq__`), and a
    `register_static` object that only a jitted function returns (never passed in, never compared; also
    made by a helper of the module called only inside jitted functions, `return total, Units("m")`), and
    identity tokens: an object of a class without state (`__slots__ = ("__weakref__",)`) or one the
    module uses as a lookup key (equinox's per-wrapper trace counters), where value equality would merge
    what must stay apart.

Known limits:
    Instances passed in from outside (not constructed in this module) and classes with a base class
    defined in another module than theirs are not reported.
"""

from __future__ import annotations

from ...analysis.values.kinds import Equality, Kind
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_retrace


class IdentityComparedAuxData(Rule):
    code = "PTL104"
    name = "identity-compared-aux-data"
    summary = "aux_data is a per-instance object of a class without value equality"
    runtime = ExamplesProbe(probe_retrace)

    def check(self, analysis):
        for site in analysis.aux_sites:
            for evidence in site.evidence:
                if (evidence.kind is Kind.INSTANCE and evidence.constructed and not evidence.shared
                        and evidence.cls is not None
                        and analysis.classes.equality(evidence.cls) is Equality.IDENTITY
                        and not _identity_by_design(analysis, site, evidence)):
                    name = evidence.cls.name
                    yield Report(site.report_node,
                                 f"{site.subject} is a new `{name}` per instance ({analysis.origin(evidence)}) "
                                 f"and `{name}` has no `__eq__`: two equal `{name}`s compare unequal (by identity), "
                                 "and aux_data is part of jit's cache key, so a jitted call with each new instance "
                                 f"retraces and recompiles ({_advice(analysis, evidence.cls)})",
                                 target=site.registration.target)
                    break


def _advice(analysis, cls) -> str:
    """Value equality, of the kind the class can have: a generated `__eq__` would compare an array field
    (PTL101's error), so a class holding one compares its other fields by hand."""
    if analysis.classes.array_fields(cls):
        return "give it an `__eq__` and `__hash__` over its fields that are no arrays"
    return "make it a frozen dataclass or NamedTuple"


def _identity_by_design(analysis, site, evidence) -> bool:
    """A token whose identity is its meaning: an object of a class without state (`class _Token:
    __slots__ = ("__weakref__",)`), or one the module uses as a lookup key (`_traces[self.tag]`). Value
    equality would merge what must stay apart; each long-lived owner keeps its own."""
    cls = evidence.cls
    stateless = not any(owner.fields.keys() - {"__slots__"} or owner.assignments
                        for owner in analysis.index.class_and_bases(cls))
    return stateless or any(analysis.lookup_keys.is_key(name) for name in site.attributes(evidence))
