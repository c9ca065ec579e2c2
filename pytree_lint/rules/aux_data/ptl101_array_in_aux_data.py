"""PTL101 array-in-aux-data

What it does:
    Finds a NumPy or JAX array or a SciPy sparse matrix (or a tuple, list or dict holding one, or a
    dataclass/NamedTuple whose fields hold one) that reaches a pytree's aux_data: the second element
    returned by a flatten function, a `meta_fields` entry of `register_dataclass`, or a field marked
    static. A container counts as holding what is put into it after it is built, too: `self.mask[name]
    = jnp.ones(n)`, `.append`, `.update`, `.setdefault` in a method of the class, or in a function of
    any module through an object declared as one (`def widen(masks: Masks, ...)`).

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

Known false positives:
    None known, two debatable kinds (README's precision table): a static field only annotated `Array`
    whose values are 0-d or one-element arrays retraces per new value rather than raising (the message
    says so, but a cutoff that never changes costs nothing), and one whose constructor never fills it
    (jax-md's misspelt keys leave `None`) is harmless until the constructor is fixed. Not reported: a
    module-level array constant (the same object on every flatten: JAX's identity shortcut lets it pass),
    `.shape`, `.dtype`, NumPy scalars (`np.sum(x)`), `tuple(arr.tolist())`, a class with a hand-written
    `__eq__` (PTL105 judges that), netket's `mutable=True` pytrees (host-side drivers, loggers) that
    reach no transformation, and what a cast helper makes of a number (`int(x) if isinstance(x, (int,
    float)) else jnp.astype(x, int)`: an array only of an array given).

Known limits:
    A module-level array constant is not reported: it is the same object on every flatten, and JAX's
    identity shortcut lets it pass. Values are followed through the project's modules (helpers' returns,
    an element of a tuple or dict one returns, constructor calls anywhere); a library's functions are
    known by what the library means (`knowledge/`), and an unannotated parameter no call in the project
    fills is not followed.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from ...analysis.syntax.model import is_literal_int
from ...analysis.values.kinds import Equality, Kind
from ...runtime.observe import Outcome, aux_values, describe, first_line, held, is_array, is_metadata_error, run_calls
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule

RAISES = ("`ValueError: Exception raised while checking equality of metadata fields of pytree`")
# What JAX's `==` on aux_data does with the array, by how many elements it has (measured, pitfalls PT01).
CONSEQUENCES = {
    "many": f"JAX compares aux_data with `==`, so the first jitted call with a new, equal array raises {RAISES}",
    "one": ("it has one element, so JAX's `==` on aux_data gives one bool: every jitted call with a new value "
            "retraces and recompiles, and an equal one silently reuses the cached result"),
    "unknown": (f"JAX compares aux_data with `==`: with more than one element, the first jitted call with a new, "
                f"equal array raises {RAISES}; with one element (or none), each new value retraces instead"),
}


def probe_array(examples: list[Any], target: str | None, member: str | None = None) -> Outcome:
    """Equal examples under one jitted function: an array in aux_data raises (or, with one element, each new
    value retraces). For a static field (`member`), the examples after the first are the first with only
    that field's value replaced (an equal new array; else each other example's value of it): what happens
    then is that field's doing, not another's."""
    if _holds_array(examples[0], target, member):
        holding = (f"`{target}.{member}` is a {describe(getattr(examples[0], member))} (the examples: the "
                   "first with only it replaced)")
        equal = _with_member(examples[0], member, [copy.deepcopy(getattr(examples[0], member))])
        outcome = _judged(equal, holding)
        others = [getattr(e, member) for e in examples[1:] if _holds_array(e, target, member)
                  and not _same_array(getattr(e, member), getattr(examples[0], member))]
        if outcome.status == "confirmed" or not others:
            return outcome
        return _judged(_with_member(examples[0], member, others), holding)
    found = held(aux_values(examples[0], target), is_array)
    if found is None:
        return Outcome("unconfirmed",
                       f"the examples' aux_data holds no array: {describe(aux_values(examples[0], target))}")
    path, array = found
    return _judged(examples, f"{path} is a {describe(array)}")


def _judged(examples: list[Any], holding: str) -> Outcome:
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


def _holds_array(example: Any, target: str | None, member: str | None) -> bool:
    return member is not None and type(example).__name__ == target and is_array(getattr(example, member, None))


def _with_member(example: Any, member: str, values: list[Any]) -> list[Any]:
    """The example, then a copy of it holding each value in its field `member` (nothing else changed)."""
    variants = [example]
    for value in values:
        variant = copy.copy(example)
        object.__setattr__(variant, member, value)
        variants.append(variant)
    return variants


def _same_array(one: Any, other: Any) -> bool:
    import numpy as np

    return is_array(one) and one.shape == other.shape and bool(np.array_equal(one, other))


class ArrayInAuxData(Rule):
    code = "PTL101"
    name = "array-in-aux-data"
    summary = "an array reaches aux_data or a static field"
    runtime = ExamplesProbe(probe_array, by_member=True)

    def check(self, analysis):
        for site in analysis.aux_sites:
            evidence = site.first(Kind.ARRAY)
            if evidence is not None:
                yield Report(site.report_node,
                             f"array in {site.subject}: {analysis.origin(evidence)}; "
                             f"{CONSEQUENCES[_size(analysis, evidence.node)]}", target=site.registration.target,
                             member=site.field)
                continue
            for instance in site.evidence:
                if (instance.kind is Kind.INSTANCE and instance.cls is not None and not instance.shared
                        and analysis.classes.equality(instance.cls) is Equality.GENERATED):
                    fields = analysis.classes.array_fields(instance.cls,
                                                           instance.node if instance.constructed else None)
                    if fields:
                        yield Report(site.report_node,
                                     f"array in {site.subject}: {analysis.origin(instance)} is a "
                                     f"`{instance.cls.name}`, whose generated `__eq__` compares the array "
                                     f"field: {analysis.origin(fields[0])}; "
                                     f"{CONSEQUENCES[_size(analysis, fields[0].node)]}",
                                     target=site.registration.target)
                        break


# Array constructors whose size their literal arguments say (numpy, jax.numpy), by short name.
SHAPED = frozenset({"zeros", "ones", "empty", "full"})
CONVERTED = frozenset({"array", "asarray"})


def _size(analysis, node: ast.AST) -> str:
    """"one" (0-d or one element), "many" or "unknown": the size of the array an expression makes, as far
    as its literal arguments say (`np.zeros(3)`, `jnp.asarray(0.5)`, `np.array([1, 2])`, `np.arange(4)`)."""
    if not isinstance(node, ast.Call) or not node.args:
        return "unknown"
    name = (analysis.index.qualify(node.func) or "").rsplit(".", 1)[-1]
    first = node.args[0]
    if name in SHAPED:
        dims = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
        count = _product([_literal_int(d) for d in dims])
    elif name in CONVERTED:
        count = _literal_length(first)
    elif name == "arange" and len(node.args) == 1:
        count = _literal_int(first)
    else:
        count = None
    if count is None:
        return "unknown"
    return "one" if count <= 1 else "many"


def _literal_int(node: ast.AST) -> int | None:
    return node.value if is_literal_int(node) else None


def _product(values: list[int | None]) -> int | None:
    total = 1
    for value in values:
        if value is None:
            return None
        total *= value
    return total


def _literal_length(node: ast.AST) -> int | None:
    """How many numbers a literal holds: 1 for a number, the length of a flat display of numbers."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex, bool)):
        return 1
    if isinstance(node, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return len(node.elts)
    return None
