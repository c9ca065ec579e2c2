"""PTL105 array-equality-in-aux-class

What it does:
    Finds the `__eq__` of a class used as aux_data (or registered with `register_static`) that returns
    an elementwise comparison of arrays, such as `return self.table == other.table`.

Why is this bad:
    JAX needs `bool(a == b)` when it compares aux_data. An elementwise comparison returns an array, and
    the truth value of an array with more than one element is ambiguous, so the second jitted call with
    a new, equal object raises `ValueError: Exception raised while checking equality of metadata fields
    of pytree` (measured, jax 0.10.2); as a static argument it raises `static arguments should be
    comparable using __eq__`.

Example:
        class Table:
            def __init__(self, values):
                self.values = np.asarray(values)

            def __eq__(self, other):
                return self.values == other.values     # PTL105

Use instead:
    Compare to a single bool: `np.array_equal(self.values, other.values)`, or
    `self.values.tobytes() == other.values.tobytes()`, and define `__hash__` to match.

Known false positives:
    None known. Not reported: `np.array_equal`, `.tobytes()` comparisons, and `__eq__` methods of classes
    that never reach aux_data.

Known limits:
    Only `__eq__` methods whose `return` is the comparison itself are checked.
"""

from __future__ import annotations

from typing import Any

from ...analysis.values.kinds import Equality, Kind
from ...runtime.observe import Outcome, aux_values, describe, first_line
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_array_equality(examples: list[Any], target: str | None) -> Outcome:
    first, second = aux_values(examples[0], target), aux_values(examples[1], target)
    try:
        result = first[0] == second[0]
        bool(result)
    except Exception as error:
        return Outcome("confirmed", f"comparing two examples' aux_data ({describe(first[0])}) raised "
                                    f"{first_line(error)}")
    return Outcome("unconfirmed", f"comparing two examples' aux_data gave {result!r}")


class ArrayEqualityInAuxClass(Rule):
    code = "PTL105"
    name = "array-equality-in-aux-class"
    summary = "a class used as aux_data has an `__eq__` that returns an elementwise array comparison"
    runtime = ExamplesProbe(probe_array_equality)

    def check(self, analysis):
        reported = set()
        for site in analysis.aux_sites:
            for evidence in site.evidence:
                cls = evidence.cls
                if (evidence.kind is not Kind.INSTANCE or cls is None or id(cls) in reported
                        or analysis.classes.equality(cls) is not Equality.CUSTOM):
                    continue
                for comparison in analysis.classes.array_comparisons(cls):
                    reported.add(id(cls))
                    yield Report(comparison.statement,
                                 f"`{cls.name}.__eq__` returns `{analysis.snippet(comparison.comparison)}`, an "
                                 f"elementwise array comparison ({analysis.origin(comparison.evidence)}); "
                                 f"`{cls.name}` is {site.subject}, so comparing two of them raises "
                                 "`ValueError: Exception raised while checking equality of metadata fields "
                                 "of pytree` (use np.array_equal)", target=site.registration.target)
