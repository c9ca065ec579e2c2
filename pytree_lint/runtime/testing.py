"""`check_pytree` for your own test suite: the runtime verifier's checks on pytrees you build.

    from pytree_lint.testing import check_pytree

    def test_model_is_a_well_behaved_pytree():
        check_pytree(lambda: Model(jnp.ones(3), sizes=(3, 2)))

It builds several equal instances with `factory()`, flattens them, compares their aux_data, rebuilds one
through flatten and unflatten, and calls one jitted function on each, counting traces. It fails with the
evidence of what went wrong: an array in aux_data, aux_data that raises or is unequal between equal
instances, a round trip that loses, changes or swaps leaves (naming the two fields), an exception from
jit, or a retrace (every call recompiling). This imports JAX and runs your code, as a test does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .observe import aux_values, describe, first_line, held, is_array, is_metadata_error, members, round_trip, run_calls


class PytreeCheckError(AssertionError):
    """A pytree built by the factory misbehaves under jit; the message is the evidence."""


def check_pytree(factory: Callable[[], Any], calls: int = 3) -> None:
    """Raise PytreeCheckError unless `calls` fresh, equal pytrees from `factory()` share one trace."""
    if calls < 2:
        raise ValueError("check_pytree needs at least two calls to compare")
    instances = [factory() for _ in range(calls)]
    problems = []
    auxes = [aux_values(instance, None) for instance in instances]
    found = held(auxes[0], is_array)
    if found is not None:
        problems.append(f"{found[0]} is a {describe(found[1])}: arrays in aux_data raise on the next call "
                        "with an equal new array (PTL101)")
    for number, aux in enumerate(auxes[1:], start=2):
        try:
            equal = aux == auxes[0]
            if not isinstance(equal, bool):
                bool(equal)
        except Exception as error:
            problems.append(f"comparing aux_data of instances 1 and {number} raised {first_line(error)}")
            break
        if not equal:
            problems.append(f"aux_data of equal instances 1 and {number} compare unequal: {describe(auxes[0])} vs "
                            f"{describe(aux)} (every new instance recompiles: PTL103/PTL104)")
            break
    problem = _round_trip(instances[0])
    if problem is not None:
        problems.append(problem)
    traces, raised, number = run_calls(instances)
    if raised is not None:
        label = "the metadata equality error (PTL101/PTL105)" if is_metadata_error(raised) else "an error"
        problems.append(f"jitted call {number} raised {label}: {first_line(raised)}")
    elif traces > 1:
        problems.append(f"{traces} traces for {calls} calls with equal instances: each call recompiles")
    if problems:
        raise PytreeCheckError("; ".join(problems))


def _round_trip(instance: Any) -> str | None:
    """Flatten, unflatten (`jax.tree.map(lambda x: x, ...)`) and flatten again: each leaf must come back,
    as the same object or an equal value, at its own position. A swap of two fields is named by the fields."""
    import numpy as np

    leaves, again, error = round_trip(instance)
    if error is not None:
        return f"rebuilding it with jax.tree.map(lambda x: x, ...) raised {first_line(error)} (PTL302-PTL306)"
    if len(again) != len(leaves):
        return f"its {len(leaves)} leaves came back as {len(again)} after a round trip (PTL305/PTL306)"

    def same(a: Any, b: Any) -> bool:
        """By value, NaN equal to NaN; leaves numpy cannot compare (strings, objects) only by identity."""
        try:
            return np.shape(a) == np.shape(b) and bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
        except (TypeError, ValueError):
            return False

    def moved_from(position: int, after: Any) -> int | None:
        """The other position whose leaf came back at `position`: the very object (the identity map keeps
        objects, so two equal fields still show a swap), else an equal value."""
        others = [other for other in range(len(leaves)) if other != position]
        by_identity = next((other for other in others if leaves[other] is after), None)
        if by_identity is not None or same(leaves[position], after):
            return by_identity
        return next((other for other in others if same(leaves[other], after)), None)

    names = {id(value): name for name, value in members(instance)}
    for position, (before, after) in enumerate(zip(leaves, again)):
        if before is after:
            continue
        source = moved_from(position, after)
        if source is None and same(before, after):
            continue
        if source is not None:
            first = names.get(id(leaves[position]), f"leaf {position}")
            second = names.get(id(leaves[source]), f"leaf {source}")
            return (f"a round trip puts the value of `{second.lstrip('.')}` into `{first.lstrip('.')}`: unflatten "
                    "reads the children in another order than flatten gives them (PTL302)")
        return f"leaf {position} was {describe(before)} and came back as {describe(after)} after a round trip"
    return None
