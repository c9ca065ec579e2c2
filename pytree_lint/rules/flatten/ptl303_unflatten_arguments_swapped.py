"""PTL303 unflatten-arguments-swapped

What it does:
    Finds an unflatten function written `(children, aux_data)`: its first parameter is named like the
    children (`children`, `leaves`, `xs`, `flat`, ...) and its second is not, or its second is named like
    aux_data (`aux`, `aux_data`, `metadata`, `meta`, `static`) and its first is not, or, with neutral
    names, the first is star-unpacked into the constructor (`cls(*a)`) while the second is used whole, or
    the first fills the attributes flatten returns as children and the second fills none of them
    (`cls(a[0], b)` for a flatten returning `(self.x,), self.label`).

Why is this bad:
    JAX calls `unflatten(aux_data, children)`, whatever the parameters are called (measured, jax 0.10.2).
    With `aux_data=None` it raises `TypeError: ... argument after * must be an iterable, not NoneType`;
    with aux_data a tuple of strings, `jax.tree.map` silently returns an object built from the strings,
    and jit then fails with `... returned a value of type <class 'str'>, which is not a valid JAX type`.

Example:
    jax.tree_util.register_pytree_node(
        Point,
        lambda p: ((p.x, p.y), None),
        lambda children, aux: Point(*children),     # PTL303
    )

Use instead:
    `lambda aux, children: Point(*children)`. `pytree-lint --fix` swaps the two parameters when the
    function is used nowhere else.

Known false positives:
    None known. Parameters named as JAX passes them (`aux`, `aux_data`, `metadata`, ... first; `children`,
    `leaves`, ... second) are never reported, whatever the body does with them, nor is a star-passed first
    parameter when flatten returns no children (aux_data holds every value: fmmax's `PMLParams`).

Known limits:
    Judged by the names, by star-unpacking and by the attributes flatten's children come from; an unflatten
    with other names that reads its parameters some other way is not reported.

Fix safety:
    `--fix` swaps the two parameters in the signature (names and annotations), so each name holds what
    the body expects. Safe when nothing in the module calls the function itself (JAX always passes
    `(aux_data, children)`); otherwise the fix is only shown (`--diff`).
"""

from __future__ import annotations

import ast

from ...analysis.fixes import Codemod, FixPlan
from ...analysis.pytrees.registrations import Registration
from ...analysis.record import record
from ...analysis.syntax.model import FunctionInfo, Param
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule
from .probes import probe_round_trip


class UnflattenArgumentsSwapped(Rule):
    code = "PTL303"
    name = "unflatten-arguments-swapped"
    summary = "unflatten is written `(children, aux_data)` instead of `(aux_data, children)`"
    runtime = ExamplesProbe(probe_round_trip, structural=True, signatures=(
        "argument after * must be an iterable", "cannot unpack non-iterable"))

    def check(self, analysis):
        for registration in analysis.registrations:
            swapped = swapped_unflatten(analysis.structure, registration)
            if swapped is not None:
                function = registration.unflatten
                first, second = swapped.first, swapped.second
                yield Report(function.name_node,
                             f"unflatten of {registration.class_named} takes `({first}, {second})`, but JAX calls "
                             f"it with `(aux_data, children)`: it receives aux_data as `{first}` (with "
                             "`aux_data=None`: `TypeError: ... must be an iterable`; otherwise a silently wrong "
                             f"object); write `({second}, {first})`", target=registration.target,
                             fix=swap_parameters_fix(analysis, function) if analysis.fixes_requested else None)


def swapped_unflatten(structure, registration: Registration) -> SwappedParameters | None:
    """The parameters of the registration's unflatten, when it is written `(children, aux_data)`: by their
    names, by what it star-unpacks, or by where it puts what flatten gives."""
    function = registration.unflatten
    if function is None or (function.cls is not None and not (function.is_classmethod or function.is_staticmethod)):
        return None
    swapped = swapped_parameters(function, structure.calls_in(function), structure.child_count(registration) == 0)
    if swapped is None and len(function.params) == 2 and not named_as_jax_passes(*function.params) \
            and structure.reads_children_first(registration):
        first, second = function.params
        swapped = SwappedParameters(first.name, second.name)
    return swapped


# How unflatten parameters are named, to tell `(aux_data, children)` from `(children, aux_data)`.
CHILDREN_NAMES = frozenset({"children", "child", "leaves", "leaf", "xs", "flat", "flat_leaves", "kids", "ch",
                            "childs", "flat_children", "arrays"})
AUX_NAMES = frozenset({"aux", "aux_data", "auxdata", "aux_info", "metadata", "meta", "static", "static_data",
                       "treedef_data"})


@record
class SwappedParameters:
    """An unflatten written `(children, aux_data)`: its two parameter names, in its order."""

    first: str
    second: str


def swapped_parameters(function: FunctionInfo, calls: list[ast.Call],
                       no_children: bool = False) -> SwappedParameters | None:
    """The two parameter names of an unflatten written `(children, aux_data)`: named so, or, with
    neutral names, the first is star-passed to one of its `calls` (`cls(*a)`) and the second is not; unless
    flatten returns no children (`no_children`), when aux_data holds everything and star-passing the first
    is right (`lambda values, _: PMLParams(*values)`)."""
    params = function.params
    if len(params) != 2:
        return None
    first, second = (p.name for p in params)
    if named_as_jax_passes(*params):
        return None
    by_name = first in CHILDREN_NAMES or second in AUX_NAMES
    by_use = not no_children and _star_passed(calls, first) and not _star_passed(calls, second)
    return SwappedParameters(first, second) if by_name or by_use else None


def named_as_jax_passes(first: Param, second: Param) -> bool:
    """`(aux, ...)` or `(..., children)`: never reported, whatever the body does with them."""
    return first.name in AUX_NAMES or second.name in CHILDREN_NAMES


def _star_passed(calls: list[ast.Call], name: str) -> bool:
    """Is `*name` passed to one of the calls (`cls(*name)`)? Unpacking by assignment proves nothing:
    aux_data is unpacked as often as the children."""
    return any(isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == name
               for call in calls for a in call.args)


def swap_parameters_fix(analysis, function: FunctionInfo) -> FixPlan | None:
    """Swap the two parameters of an unflatten written `(children, aux_data)` (names and annotations)."""
    index, safety = analysis.index, analysis.fix_safety
    first, second = function.params
    if first.default is not None or second.default is not None:
        return None

    def spelled(param) -> str:
        return param.name + (f": {index.code(param.annotation)}" if param.annotation is not None else "")

    called = safety.called(function)
    description = f"swap the parameters: `({spelled(second)}, {spelled(first)})`"
    if called is not None:
        description += f" (unsafe: the module also calls `{function.name}` itself, at `{index.snippet(called)}`)"
    return FixPlan(description.replace("{", "{{").replace("}", "}}"), called is None, Codemod.SWAP_PARAMETERS,
                   function.node, (first.name, second.name))
