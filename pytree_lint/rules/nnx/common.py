"""What the NNX rules share: how a finding names its attribute, and the wrapping fixes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...analysis.fixes import Codemod, FixPlan
from ...analysis.values.kinds import NnxStatus as Status

if TYPE_CHECKING:
    from ...analysis.pytrees.nnx import NnxValue


def wrap(analysis, value: NnxValue, name: str, safe: bool, why: str = "") -> FixPlan | None:
    """A fix that wraps the value in `nnx.<name>(...)`, spelled as the module imports flax.nnx (none when
    it does not, or when fixes were not asked for)."""
    if not analysis.fixes_requested:
        return None
    spelling = analysis.nnx.spelling(name)
    if spelling is None:
        return None
    description = f"wrap the value in `{spelling}(...)`" + (f" ({why})" if why else "")
    return FixPlan(description.replace("{", "{{").replace("}", "}}"), safe, Codemod.WRAP, value.node, (spelling,))


def wrap_filled(analysis, value: NnxValue, name: str, put: NnxValue) -> FixPlan | None:
    """`wrap` for a container a method fills with `put`: not safe when `put` is itself a plain container
    holding data (`.append([nnx.Linear(...)])`): an NNX container keeps that one static, and the filling
    raises."""
    if put.status is not Status.CONTAINER_WITH_DATA:
        return wrap(analysis, value, name, True)
    return wrap(analysis, value, name, False, f"and each {put.container or 'container'} put into it")
