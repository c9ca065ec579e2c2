"""PTL102 mutable-aux-data

What it does:
    Finds a list, dict or set (a display, a comprehension, `list()`/`dict()`/`set()`/`sorted()`,
    `.tolist()`, or an annotation) held by an attribute, a static field or a module-level name, that
    reaches a pytree's aux_data, when the module changes it in place (`.append`, `.update`, `x[i] = ...`,
    `del x[i]`, `x += [...]`, through the attribute, a local alias, or the name that passed it in) or hashes
    it (an object of the class, which hashes its fields, passed as a static argument of a jitted
    function). The message names that site.

Why is this bad:
    aux_data is part of the key under which `jax.jit` caches the compiled function. A list that nothing
    changes is inert (measured, jax 0.10.2: one trace, hashable treedef; scan, vmap, grad and cond work).
    But when it is changed in place after the first call, the cache key changes with it, and the next
    call silently returns the stale result: after `meta.append(...)` the call returned `Array(2.)` where
    3.0 was expected, and a fresh equal list returned the same stale value. Hashed as part of a static
    argument, it raises `ValueError: Non-hashable static arguments are not supported`.

Example:
        class Net:
            def __init__(self, weights):
                self.weights = weights
                self.layer_sizes = [784, 128, 10]

            def grow(self, size):
                self.layer_sizes.append(size)          # the evidence

        def flatten(net):
            return (net.weights,), net.layer_sizes    # PTL102

Use instead:
    Store and return an immutable value, and build a new one instead of changing it: `tuple(sizes)`,
    `frozenset(...)`, `tuple(sorted(d.items()))`, a `types.MappingProxyType`, a frozen dataclass.

Known false positives:
    None known. A container that nothing in the module changes or hashes is PTL901 (opt-in), not this
    rule; one the flatten function builds afresh (`return children, [self.n]`) is neither, since no other
    code holds it (measured: even when unflatten stores it, later outputs do not share it). A field
    declared `list` that is given a tuple, a frozendict or a `MappingProxyType` is judged by what it is
    given; an equinox field shadowed by a property or method of the same name is no field. A change made
    only by a method the module calls on objects it has just built (flax's `Updates.create()` then
    `.append(...)`) fills the object before anything flattens it: PTL901, not this rule; so does a local
    filled in place and only then handed to the constructor (jax's debugger `_DictWrapper`). netket's
    `mutable=True` pytrees (host-side loggers) that reach no transformation are not reported.

Known limits:
    A change made in another module is followed through what that module declares as an object of the
    class: a parameter, a local or an attribute annotated with it, or an item of a collection of it (`for
    silo in barn.silos`, the collection declared by a class of any module), and through a local it hands
    to a construction of the class and changes after (`made = Box(keys); keys.append(k)`). Containers built
    outside the module, or changed through a name nothing annotates, are not followed. A change through an attribute
    of the same name counts only on `self` in the class's (or a related class's) methods, or on a name
    bound to the class's constructor.

Fix safety:
    `--fix` builds a tuple or frozenset where the list or set is built (`[...]`, `list(...)`, `{...}`,
    `set(...)`, a comprehension), when that is the only container the value can be. The module changes
    it, so the fix is never safe here: it is shown (`--diff`, JSON), not applied. Dicts have no fix.
"""

from __future__ import annotations

import ast
from typing import Any

from ...analysis.fixes import Codemod, FixPlan
from ...analysis.pytrees.containers import HeldContainer
from ...analysis.values.inference import Evidence
from ...analysis.values.kinds import Kind
from ...runtime.observe import (
    PROBE_SENTINEL,
    Outcome,
    aux_values,
    counted_jit,
    describe,
    held,
    instances_of,
    is_mutable_container,
)
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_mutable(examples: list[Any], target: str | None, member: str | None) -> Outcome:
    """Change the container in place (the one the target's `member` attribute holds, if the finding names
    one) and see whether the jitted call notices."""
    example = examples[0]
    auxes = aux_values(example, target)
    named = [getattr(instance, member) for instance in instances_of(example, target)
             if member is not None and hasattr(instance, member)]
    found = ((named and held(auxes, lambda value: is_mutable_container(value) and any(value is n for n in named)))
             or held(auxes, is_mutable_container))
    if found is None:
        return Outcome("unconfirmed", f"the examples' aux_data holds no list, dict or set: {describe(auxes)}")
    path, container = found
    jit_function, traces = counted_jit(lambda tree: len(repr(aux_values(tree, target))))
    before = int(jit_function(example))
    if isinstance(container, list):
        container.append(PROBE_SENTINEL)
    elif isinstance(container, dict):
        container[PROBE_SENTINEL] = PROBE_SENTINEL
    else:
        container.add(PROBE_SENTINEL)
    eager = len(repr(aux_values(example, target)))
    after = int(jit_function(example))
    mutation = f"after adding an item to {path} (a {type(container).__name__}) in place"
    if traces[0] == 1 and after != eager:
        return Outcome("confirmed", f"{mutation}, the jitted call reused its old trace: it returned {after} "
                                    f"(as before, {before}) where the eager function gives {eager}: a stale result")
    return Outcome("unconfirmed", f"{mutation}, the jitted call gave {after} and the eager function {eager} "
                                  f"(traces={traces[0]})")


class MutableAuxData(Rule):
    code = "PTL102"
    name = "mutable-aux-data"
    summary = "a list, dict or set reaches aux_data or a static field, and the module changes or hashes it"
    runtime = ExamplesProbe(probe_mutable, by_member=True)

    def check(self, analysis):
        for container in analysis.held_containers:
            if not container.evidenced:
                continue  # PTL901's
            evidence, site = container.evidence, container.site
            yield Report(site.report_node,
                         f"mutable {container_name(evidence)} in {site.subject}: {analysis.origin(evidence)}; "
                         f"{harm(analysis, container)} (use {container.advice})", target=site.registration.target,
                         member=container.member,
                         fix=immutable_container_fix(analysis, evidence, site.evidence))


def container_name(evidence: Evidence) -> str:
    return evidence.what.removeprefix("a ").removeprefix("an ")


def harm(analysis, held: HeldContainer) -> str:
    """What the evidence makes of the container: a change after compiling, or a hash."""
    if held.mutation is not None:
        return (f"{analysis.located(held.mutation.node)} changes it in place, and jit caches the compiled call "
                "under this object, so the calls after that change silently return stale results")
    hashed = held.hashed
    return (f"`{hashed.argument}` is passed as static {hashed.label} of "
            f"`{hashed.function}` ({analysis.located(hashed.call)}), and hashing it hashes the "
            f"{held.kind}: `ValueError: Non-hashable static arguments are not supported`")


def immutable_container_fix(analysis, evidence: Evidence, alternatives: list[Evidence]) -> FixPlan | None:
    """The list or set built as a tuple or frozenset where the evidence says it is built; None when
    `alternatives` (all that is known of the value) show another container it may be."""
    if not analysis.fixes_requested:
        return None
    if any(e.kind is Kind.MUTABLE and e.node is not evidence.node for e in alternatives):
        return None  # mending one of two origins would leave a value that is sometimes a list
    names = [hop.via.rsplit(".", 1)[-1] for hop in evidence.trail]
    return _immutable_container(analysis, evidence.node, names)


def _immutable_container(analysis, origin: ast.AST, names: list[str]) -> FixPlan | None:
    """Build the tuple or frozenset where the list or set is built; `names`: the attributes and locals
    that hold it on its way to aux_data, checked for mutation."""
    index, safety = analysis.index, analysis.fix_safety
    built = _immutable_kind(index, origin)
    if built is None:
        return None
    mutated = safety.mutation(names)
    description = f"build a {built}: `{{replacement}}`"
    if mutated is not None:
        snippet = index.snippet(mutated).replace("{", "{{").replace("}", "}}")
        description += f" (unsafe: the module changes or type-checks it: `{snippet}`)"
    return FixPlan(description, mutated is None, Codemod.IMMUTABLE_CONTAINER, origin)


def _immutable_kind(index, node: ast.AST) -> str | None:
    """"tuple" or "frozenset": what the container built at `node` can become (None: no fix)."""
    if isinstance(node, ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return "tuple"
    if isinstance(node, ast.ListComp):
        return "tuple"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "frozenset"
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "set")
            and index.is_builtin(node.func.id) and len(node.args) <= 1 and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)):
        return "tuple" if node.func.id == "list" else "frozenset"
    return None
