"""What the NNX rules share: how a finding names its attribute, and the wrapping fixes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...analysis.fixes import Codemod, FixPlan

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
