"""PTL101 array-in-aux-data

What it does:
    Finds a NumPy or JAX array (or a tuple, list or dict holding one, or a dataclass/NamedTuple whose
    fields hold one) that reaches a pytree's aux_data: the second element returned by a flatten function,
    a `meta_fields` entry of `register_dataclass`, or a field marked static.

Why is this bad:
    JAX compares aux_data with `==` whenever it looks up a compiled function or compares two tree
    structures. The first jitted call works, and so does a call with the very same array object, but
    the first call with a new, equal array raises (measured, jax 0.10.2):
    `ValueError: Exception raised while checking equality of metadata fields of pytree. Make sure that
    metadata fields are hashable and have simple equality semantics. (Note: arrays cannot be passed as
    metadata fields!)`. The same error comes from `jax.tree.map` over two such nodes, `lax.scan`, and
    even the first call of an unrelated jitted function (process-wide caches compare treedefs).
    0-d and 1-element arrays do not raise but act as value-keyed static data, and a JAX 0-d array used
    in a Python `if` under jit raises `TracerBoolConversionError`.

Example:
        class Masked:
            def __init__(self, x, n):
                self.x = x
                self.mask = jnp.arange(x.shape[0]) < n

            def tree_flatten(self):
                return (self.x,), (self.mask,)      # PTL101

Use instead:
    Keep arrays in the children, and only hashable values (ints, tuples of ints, strings, dtypes,
    shapes) in aux_data:

        def tree_flatten(self):
            return (self.x, self.mask), None

Known limits:
    A module-level array constant is not reported: it is the same object on every flatten, and JAX's
    identity shortcut lets it pass. Values built outside the module, or passed in unannotated, are not
    followed.
"""

from __future__ import annotations

from typing import Any

from ...analysis.kinds import Equality, Kind
from ...runtime.observe import Outcome, aux_values, describe, first_line, held, is_array, is_metadata_error, run_calls
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule

CONSEQUENCE = ("JAX compares aux_data with `==`, so the first jitted call with a new, equal array raises "
               "`ValueError: Exception raised while checking equality of metadata fields of pytree` "
               "(a 0-d array instead retraces for every new value)")


def probe_array(examples: list[Any], target: str | None) -> Outcome:
    found = held(aux_values(examples[0], target), is_array)
    if found is None:
        return Outcome("unconfirmed",
                       f"the examples' aux_data holds no array: {describe(aux_values(examples[0], target))}")
    path, array = found
    holding = f"{path} is a {describe(array)}"
    traces, error, number = run_calls(examples)
    if error is not None:
        if is_metadata_error(error):
            return Outcome("confirmed", f"{holding}; jitted call {number} of {len(examples)} equal examples "
                                        f"raised {first_line(error)}")
        return Outcome("unconfirmed", f"{holding}; call {number} raised an unrelated {first_line(error)}")
    if traces == len(examples):
        return Outcome("confirmed", f"{holding}; {traces} traces for {len(examples)} calls: the array is a cache key")
    return Outcome("unconfirmed", f"{holding}, but {len(examples)} jitted calls neither raised nor retraced "
                                  f"(traces={traces}): a 0-d or one-element array compares by value")


class ArrayInAuxData(Rule):
    code = "PTL101"
    name = "array-in-aux-data"
    summary = "an array reaches aux_data or a static field"
    runtime = ExamplesProbe(probe_array)

    def check(self, analysis):
        for site in analysis.aux_sites:
            evidence = site.first(Kind.ARRAY)
            if evidence is not None:
                yield Report(site.report_node,
                             f"array in {site.subject}: {analysis.origin(evidence)}; {CONSEQUENCE}",
                             target=site.registration.target)
                continue
            for instance in site.evidence:
                if (instance.kind is Kind.INSTANCE and instance.cls is not None and not instance.shared
                        and analysis.classes.equality(instance.cls) is Equality.GENERATED):
                    fields = analysis.classes.array_fields(instance.cls)
                    if fields:
                        yield Report(site.report_node,
                                     f"array in {site.subject}: {analysis.origin(instance)} is a "
                                     f"`{instance.cls.name}`, whose generated `__eq__` compares the array "
                                     f"field: {analysis.origin(fields[0])}; {CONSEQUENCE}",
                                     target=site.registration.target)
                        break
