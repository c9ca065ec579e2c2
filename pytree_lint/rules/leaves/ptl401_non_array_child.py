"""PTL401 non-array-child

What it does:
    Finds a pytree child that is a string, a callable (lambda, function, bound method,
    `functools.partial`, a jitted function) or a class object: an element of what a flatten function
    returns as children, or a field of a dataclass-style registration (`register_dataclass`, flax.struct,
    jax_dataclasses, chex, ...) that is not static, judged by its annotation or by what is assigned to it;
    when the class reaches a transformation: an instance (or a tuple or list of them) passed to a jitted,
    vmapped or differentiated function or to `lax.scan`/`cond`/`fori_loop`/..., a parameter of such a
    function annotated with the class (`list[C]` too), a transformed method of the class, in this module
    or another of the project. A class seen reaching none (a config record read eagerly, a rendering
    record, a test's container, an argument vmap passes unmapped with `in_axes` None or jit takes as
    static) is PTL902's (opt-in), whatever registers it.

Why is this bad:
    Children are leaves that jit, vmap and grad trace as arrays, and they reject anything else (measured,
    jax 0.10.2): jit raises `TypeError: Error interpreting argument to <function ...> as an abstract
    array. The problematic value is of type <class 'str'> and was passed to the function at path ...`;
    vmap and grad raise `... is not a valid JAX type`. The same holds for functions, including
    `jax.nn.relu`.

Example:
    @jax.tree_util.register_dataclass
    @dataclass
    class Layer:
        w: jax.Array
        activation: Callable      # PTL401 where a function is assigned: it cannot be traced

Use instead:
    Make it static (`field(metadata=dict(static=True))`, `struct.field(pytree_node=False)`, aux_data of
    the flatten function), or pass it separately as a static argument.

Known false positives:
    None known. Not reported: fields only annotated `Callable` (a `jax.tree_util.Partial` or a module
    is a callable pytree), equinox modules, a field shadowed by a method or property of its name, and
    classes never seen reaching a transformation (used only with `jax.tree.map` and other tree utilities,
    which take any leaf: making the field static would change what they do); those are PTL902.

Known limits:
    A field only annotated `Callable` is not reported: a `jax.tree_util.Partial` or a flax/equinox module
    is callable and a valid pytree; an assigned lambda, function or `functools.partial` is reported.
    Equinox modules are not reported: `eqx.filter_jit` and friends treat non-array leaves as static by
    design, and `activation: Callable` fields are idiomatic there (plain `jax.jit` on such a module does
    fail). Values built outside the module are not followed.
"""

from __future__ import annotations

from typing import Any

from ...knowledge.triggers import REGISTRATION_TRIGGERS
from ...runtime.observe import Outcome, first_line, run_calls
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_non_array_child(examples: list[Any], target: str | None) -> Outcome:
    _traces, error, number = run_calls(examples)
    if error is None:
        return Outcome("unconfirmed", f"{len(examples)} jitted calls with the examples raised nothing")
    text = first_line(error)
    if "not a valid JAX type" in str(error) or "interpreting argument" in str(error):
        return Outcome("confirmed", f"jitted call {number} raised {text}")
    return Outcome("unconfirmed", f"jitted call {number} raised an unrelated {text}")


class NonArrayChild(Rule):
    code = "PTL401"
    name = "non-array-child"
    summary = "a str, callable or class object is a pytree child (a leaf jit, vmap and grad reject)"
    runtime = ExamplesProbe(probe_non_array_child, structural=True)
    triggers = REGISTRATION_TRIGGERS

    transformed = True  # PTL902: the same children of classes that reach no transformation

    def check(self, analysis):
        for site in analysis.child_sites:
            evidence = next((e for e in site.evidence if e.proves_leaf), None)
            if evidence is None:
                continue
            reached = _reached(analysis, site.registration)
            if (reached is not None) != self.transformed:
                continue
            where = f"; the class reaches a transformation ({reached})" if reached else ""
            yield Report(site.report_node,
                         f"{evidence.leaf.value} as {site.subject}: {analysis.origin(evidence)}{where}; "
                         f"{self.consequence}", target=site.registration.target)

    consequence = ("jit, vmap and grad reject it (`TypeError: ... not a valid JAX type`): make it static or keep it "
                   "out of the children")


def _reached(analysis, registration) -> str | None:
    """Where the registered class meets a transformation, as the message says it; None: nowhere seen."""
    if registration.cls is None:
        return None
    reached = analysis.transformed_classes.reaches(registration.cls)
    if reached is None:
        return None
    return f"in {reached.elsewhere}" if reached.elsewhere else analysis.located(reached.node)
