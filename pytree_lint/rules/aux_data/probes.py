"""The run-time observation PTL103 and PTL104 share: equal examples, unequal aux_data, a trace per call."""

from __future__ import annotations

from typing import Any

from ...runtime.observe import Outcome, aux_values, describe, first_line, run_calls


def probe_retrace(examples: list[Any], target: str | None) -> Outcome:
    first, second = aux_values(examples[0], target), aux_values(examples[1], target)
    try:
        equal = bool(first == second)
    except Exception as error:
        equal = f"comparing raised {first_line(error)}"
    traces, error, number = run_calls(examples)
    shown = f"aux_data {describe(first)} vs {describe(second)} (equal: {equal})"
    if error is not None:
        return Outcome("unconfirmed", f"{shown}; call {number} raised {first_line(error)}")
    if traces == len(examples) and equal is not True:
        return Outcome("confirmed", f"{shown}; {traces} traces for {len(examples)} calls: every call recompiles")
    return Outcome("unconfirmed", f"{shown}; {traces} traces for {len(examples)} calls")
