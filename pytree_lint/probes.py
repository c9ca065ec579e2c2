"""Runtime probes: run a finding's code path under `jax.jit` and observe the symptom its rule predicts.

This module imports JAX and runs user code. Only two callers use it: the child process that
`pytree-lint verify` starts for each file (`python -m pytree_lint.probes FILE`, findings as JSON on
stdin), and `pytree_lint.testing`. JAX keeps process-wide caches keyed by treedefs, so each file gets a
fresh interpreter and each probe starts from `jax.clear_caches()`.

What each probe observes (measured on jax 0.10.2):
- PTL101: aux_data holds an array, and successive jitted calls with equal examples raise the metadata
  equality ValueError, or retrace for every call;
- PTL102: aux_data holds a list/dict/set; after mutating it in place, the jitted call reuses the old
  trace (its result no longer matches the eager one): a stale result;
- PTL103/PTL104: equal examples give unequal aux_data, and every call retraces;
- PTL105: comparing two examples' aux_data raises, or returns an array whose truth value raises;
- PTL401: a jitted call with the examples raises "not a valid JAX type" / "Error interpreting argument";
- PTL403: the module's `reproduce()` raises "Non-hashable static arguments are not supported".
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import sys
import traceback
from collections.abc import Mapping
from typing import Any, Callable

PROBE_SENTINEL = "pytree-lint-probe"
_BUILTIN_NODES = (tuple, list, dict, type(None))


@dataclasses.dataclass
class Outcome:
    status: str  # confirmed, unconfirmed, no-example, error
    evidence: str


def _jax():
    import jax
    return jax


def aux_values(tree: Any, target: str | None) -> list[Any]:
    """The aux_data of every node in `tree` whose type is named `target` (any custom node for None)."""
    jax = _jax()
    found, pending = [], [jax.tree.structure(tree)]
    while pending:
        treedef = pending.pop()
        data = treedef.node_data()
        if data is not None:
            node_type, aux = data
            if node_type.__name__ == target or (target is None and not issubclass(node_type, _BUILTIN_NODES)):
                found.append(aux)
        pending.extend(treedef.children())
    return found


def _members(value: Any):
    """(name, member) of a container or an object's fields: what aux_data may hold inside it."""
    if isinstance(value, Mapping):
        return [(f"[{k!r}]", v) for k, v in value.items()]
    if isinstance(value, (tuple, list, set, frozenset)):
        return [(f"[{i}]", v) for i, v in enumerate(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [(f".{f.name}", getattr(value, f.name, None)) for f in dataclasses.fields(value)]
    if hasattr(value, "__dict__") and not isinstance(value, type) and not callable(value):
        return [(f".{k}", v) for k, v in vars(value).items()]
    return []


def find_inside(value: Any, predicate: Callable[[Any], bool], path: str = "aux_data", depth: int = 0):
    """(path, member) of the first member of `value` (itself included) that satisfies `predicate`."""
    if predicate(value):
        return path, value
    if depth >= 4:
        return None
    for name, member in _members(value):
        found = find_inside(member, predicate, path + name, depth + 1)
        if found is not None:
            return found
    return None


def held(auxes: list[Any], predicate: Callable[[Any], bool]):
    """(path, member) of the first member of the nodes' aux_data that satisfies `predicate`."""
    for aux in auxes:
        found = find_inside(aux, predicate)
        if found is not None:
            return found
    return None


def is_array(value: Any) -> bool:
    import numpy as np
    return isinstance(value, (np.ndarray, _jax().Array))


def is_mutable_container(value: Any) -> bool:
    return isinstance(value, (list, dict, set))


def describe(value: Any) -> str:
    if is_array(value):
        return f"{type(value).__module__}.{type(value).__name__} of shape {tuple(value.shape)}"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def first_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".splitlines()[0]
    return text if len(text) <= 240 else text[:237] + "..."


def is_metadata_error(error: BaseException) -> bool:
    while error is not None:
        text = str(error)
        if "metadata fields" in text or "truth value of an array" in text or "comparable using __eq__" in text:
            return True
        error = error.__cause__ or error.__context__
    return False


def counted_jit(body: Callable[[Any], Any] | None = None):
    """A fresh jitted function of a pytree, and a list whose first item counts its traces."""
    jax = _jax()
    import jax.numpy as jnp
    traces = [0]

    def function(tree):
        traces[0] += 1
        return jnp.asarray(body(tree) if body is not None else 0)
    return jax.jit(function), traces


def run_calls(examples: list[Any]):
    """Call one fresh jitted function on each example: (traces, the first exception or None, its call)."""
    jit_function, traces = counted_jit()
    for number, example in enumerate(examples, start=1):
        try:
            jit_function(example).block_until_ready()
        except Exception as error:  # the symptom we look for is an exception from JAX
            return traces[0], error, number
    return traces[0], None, 0


# The probes --------------------------------------------------------------------------------------------------
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


def probe_mutable(examples: list[Any], target: str | None) -> Outcome:
    example = examples[0]
    found = held(aux_values(example, target), is_mutable_container)
    if found is None:
        return Outcome("unconfirmed", f"the examples' aux_data holds no list, dict or set: "
                                      f"{describe(aux_values(example, target))}")
    path, container = found
    jit_function, traces = counted_jit(lambda tree: len(repr(aux_values(tree, target))))
    before = int(jit_function(example))
    if isinstance(container, list):
        container.append(PROBE_SENTINEL)
    elif isinstance(container, dict):
        container[PROBE_SENTINEL] = PROBE_SENTINEL
    else:
        container.add(PROBE_SENTINEL)
    eager = len(repr(aux_values(example, target)))
    after = int(jit_function(example))
    mutation = f"after adding an item to {path} (a {type(container).__name__}) in place"
    if traces[0] == 1 and after != eager:
        return Outcome("confirmed", f"{mutation}, the jitted call reused its old trace: it returned {after} "
                                    f"(as before, {before}) where the eager function gives {eager}: a stale result")
    return Outcome("unconfirmed", f"{mutation}, the jitted call gave {after} and the eager function {eager} "
                                  f"(traces={traces[0]})")


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


def probe_array_equality(examples: list[Any], target: str | None) -> Outcome:
    first, second = aux_values(examples[0], target), aux_values(examples[1], target)
    try:
        result = first[0] == second[0]
        bool(result)
    except Exception as error:
        return Outcome("confirmed", f"comparing two examples' aux_data ({describe(first[0])}) raised "
                                    f"{first_line(error)}")
    return Outcome("unconfirmed", f"comparing two examples' aux_data gave {result!r}")


def probe_non_array_child(examples: list[Any], target: str | None) -> Outcome:
    _traces, error, number = run_calls(examples)
    if error is None:
        return Outcome("unconfirmed", f"{len(examples)} jitted calls with the examples raised nothing")
    text = first_line(error)
    if "not a valid JAX type" in str(error) or "interpreting argument" in str(error):
        return Outcome("confirmed", f"jitted call {number} raised {text}")
    return Outcome("unconfirmed", f"jitted call {number} raised an unrelated {text}")


PROBES: dict[str, Callable[[list[Any], str | None], Outcome]] = {
    "PTL101": probe_array,
    "PTL102": probe_mutable,
    "PTL103": probe_retrace,
    "PTL104": probe_retrace,
    "PTL105": probe_array_equality,
    "PTL401": probe_non_array_child,
}


# Rules whose finding is a call path, not a pytree: the module's `reproduce()` runs it, and the error
# it must raise is the symptom.
REPRODUCED: dict[str, tuple[str, ...]] = {
    "PTL403": ("Non-hashable static arguments", "unhashable type"),
}


def probe_reproduce(module: Any, code: str, line: int) -> Outcome:
    """Run `reproduce()`: the finding is confirmed when the predicted error comes from its own line."""
    hook = getattr(module, "reproduce", None)
    if hook is None:
        return Outcome("no-example", "the module defines no reproduce() hook")
    _jax().clear_caches()
    try:
        hook()
    except Exception as error:
        if not any(text in str(error) for text in REPRODUCED[code]):
            return Outcome("unconfirmed", f"reproduce() raised an unrelated {first_line(error)}")
        module_file = os.path.abspath(module.__file__)
        lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                 if os.path.abspath(frame.filename) == module_file]
        if line in lines:
            return Outcome("confirmed", f"reproduce() raised, at line {line}, {first_line(error)}")
        return Outcome("unconfirmed", f"reproduce() raised {first_line(error)} at line "
                                      f"{lines[-1] if lines else '?'}, not at this finding's line {line}")
    return Outcome("unconfirmed", "reproduce() returned without an error")


def holds_target(example: Any, target: str | None) -> bool:
    try:
        return bool(aux_values(example, target)) if target else True
    except Exception:
        return False


def probe_finding(module: Any, finding: dict) -> Outcome:
    if finding["code"] in REPRODUCED:
        return probe_reproduce(module, finding["code"], finding["line"])
    probe = PROBES.get(finding["code"])
    if probe is None:
        return Outcome("no-example", f"no runtime probe for {finding['code']}")
    hook = getattr(module, "examples", None)
    if hook is None:
        return Outcome("no-example", "the module defines no examples() hook")
    target = finding.get("target")
    try:
        examples = [e for e in hook() if holds_target(e, target)]
    except Exception as error:
        return Outcome("error", f"examples() raised {first_line(error)}")
    if len(examples) < 2:
        return Outcome("no-example", f"examples() gives fewer than two inputs holding a `{target}`")
    _jax().clear_caches()
    try:
        return probe(examples, target)
    except Exception as error:
        return Outcome("error", f"the probe raised {first_line(error)}")


def load_module(path: str):
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)
    name = "pytree_lint_probe_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    """Child process: probe each finding (JSON on stdin) of the module at argv[1]; JSON on stdout."""
    findings = json.load(sys.stdin)
    try:
        module = load_module(sys.argv[1])
    except BaseException as error:  # the module's own import failure is the evidence
        outcomes = [Outcome("error", f"importing the module raised {first_line(error)}")] * len(findings)
    else:
        outcomes = [probe_finding(module, finding) for finding in findings]
    sys.stdout.write("\n" + json.dumps([dataclasses.asdict(o) for o in outcomes]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
