"""Lists, dicts and sets that reach aux_data held beyond the flatten call, with the evidence of harm.

Measured (pitfalls PT02): such a container is inert while nothing changes it: one trace, a hashable
treedef, scan, vmap, grad and cond all work. The harm needs an in-place change after the first compile
(jit then silently returns results cached under the old value), or a hash (an object holding it passed
as a static argument of a jitted function, which hashes its fields). PTL102 reports a container with
that evidence, naming the site; PTL901, opt-in, the others.
"""

from __future__ import annotations

import ast
import sys

from ..record import record
from ..syntax.source import home_of
from ..values.inference import Elsewhere, Evidence
from ..values.kinds import Kind
from .aux import AuxSite
from .mutations import Mutation

CONTAINER_ADVICE = {
    "dict": "a `tuple(sorted(d.items()))`, a `types.MappingProxyType` or a frozen dataclass",
    "set": "a frozenset",
    "list": "a tuple",
}


@record
class StaticHash:
    """A call that passes an object holding the container at a static argument: jit hashes it. The call
    (here, or in another module), the argument as written, how messages name it, the jitted function."""

    call: ast.Call | Elsewhere
    argument: str
    label: str
    function: str


@record
class HeldContainer:
    site: AuxSite
    evidence: Evidence  # the container, held by an attribute or a module-level name
    mutation: Mutation | None  # the first in-place change of it the module makes
    hashed: StaticHash | None  # the first hash of an object holding it

    @property
    def kind(self) -> str:
        """"list", "dict" or "set": what kind of container it is."""
        what = self.evidence.what.lower()
        if "dict" in what or "counter" in what or "mapping" in what:
            return "dict"
        return "set" if "set" in what else "list"

    @property
    def evidenced(self) -> bool:
        """The module changes it in place or hashes it: the harm is shown (PTL102), not only possible (PTL901)."""
        return self.mutation is not None or self.hashed is not None

    @property
    def advice(self) -> str:
        return CONTAINER_ADVICE[self.kind]

    @property
    def member(self) -> str | None:
        """The attribute of the class's instances that holds the container (`sizes` for `self.sizes`)."""
        return _holding_attribute(self.site, self.evidence)


def held_containers(analysis) -> list[HeldContainer]:
    """The containers of a site, one for each attribute holding one (`self.sizes` and `self.options` of an
    aux tuple a property returns): of the values an attribute may hold (alternatives, not more parts), the
    first the module changes or hashes. Those with such evidence are PTL102's; a site with none gives its
    first container to PTL901."""
    found = []
    for site in analysis.aux_sites:
        by_attribute: dict[str | None, list[Evidence]] = {}
        for evidence in site.evidence:
            if evidence.kind is Kind.MUTABLE and (site.held_by_instance or evidence.held_outside):
                by_attribute.setdefault(_holding_attribute(site, evidence), []).append(evidence)
        if not by_attribute:
            continue
        cls = site.registration.cls
        # Module-level changes count from where the class is defined (imported from another module: all).
        defined_at = (cls.node.lineno if home_of(cls.node) is None else 0) if cls is not None else getattr(
            site.registration.node, "lineno", 0)
        hashed = _static_hash(analysis, site)
        held = []
        for alternatives in by_attribute.values():
            containers = [HeldContainer(site, evidence, _first_change(analysis, evidence, defined_at), hashed)
                          for evidence in alternatives]
            held.append(next((container for container in containers if container.evidenced), containers[0]))
        evidenced = [container for container in held if container.evidenced]
        found.extend(evidenced or held[:1])
    return found


def _first_change(analysis, evidence: Evidence, defined_at: int) -> Mutation | None:
    """The first in-place change of the container: through what holds it here, or where another module
    that handed it over changes it after (its summary says so)."""
    here = analysis.mutations.first(evidence.holders, defined_at) if evidence.holders else None
    if here is not None:
        return here
    return next((Mutation(hop.changed, ast.Name(hop.via), None, (sys.maxsize, hop.changed.line))
                 for hop in evidence.trail if hop.changed is not None), None)


def _holding_attribute(site: AuxSite, evidence: Evidence) -> str | None:
    if site.field is not None:
        return site.field
    return next((holder.name for holder in evidence.holders if holder.cls is not None), None)


def _static_hash(analysis, site: AuxSite) -> StaticHash | None:
    """A jitted call that passes an instance of the site's class at a static argument, when the class's
    `__hash__` reaches its fields (a frozen dataclass, a NamedTuple, a hand-written `__hash__`)."""
    cls = site.registration.cls
    if cls is None or not analysis.classes.hashes_fields(cls):
        return None
    for call, function in analysis.jitted_calls:
        for argument in function.arguments(call):
            if argument.static and any(e.kind is Kind.INSTANCE and e.cls is cls
                                       for e in analysis.values.passed(argument.value, call)):
                return StaticHash(call, analysis.snippet(argument.value), argument.label, function.name)
    project = analysis.index.project
    if project is not None and cls.parent is None and home_of(cls.node) is None:  # and other modules' calls
        for hashed, summary in project.hashed_elsewhere(cls.name):
            return StaticHash(Elsewhere(hashed.text, summary.display_path, hashed.line), hashed.text,
                              hashed.label, hashed.function)
    return None
