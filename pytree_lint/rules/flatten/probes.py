"""The run-time observation PTL302, PTL303, PTL305 and PTL306 share: a broken flatten/unflatten contract
changes or loses leaves when the example is flattened, rebuilt and flattened again."""

from __future__ import annotations

from typing import Any

from ...runtime.observe import Outcome, first_line, round_trip, same_leaves, split_into_rows


def probe_round_trip(examples: list[Any], target: str | None) -> Outcome:
    try:
        leaves, again, error = round_trip(examples[0])
    except Exception as error:
        return Outcome("confirmed", f"flattening the example raised {first_line(error)}")
    if error is not None:
        return Outcome("confirmed", f"jax.tree.map(lambda x: x, example) raised {first_line(error)}")
    difference = same_leaves(leaves, again)
    if difference is not None:
        return Outcome("confirmed", f"jax.tree.map(lambda x: x, example) changed the leaves: {difference}")
    split = split_into_rows(examples[0], leaves)
    if split is not None:
        return Outcome("confirmed", split)
    return Outcome("unconfirmed", f"jax.tree.map(lambda x: x, example) gave back the same {len(leaves)} leaves")
