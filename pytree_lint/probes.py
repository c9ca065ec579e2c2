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
- PTL301: `jax.jacobian`, `jax.eval_shape` or `jax.vmap` of the identity raises inside the class's
  `__init__`/`__post_init__`, run by unflatten on the leaves those transformations make;
- PTL302/PTL303/PTL305/PTL306: a `jax.tree.map(lambda x: x, example)` round trip raises, or changes the
  leaves (their count, order, shapes or values);
- PTL304: flattening raises, or the leaves hold no array while aux_data does;
- PTL307: `tree.leaves` and `tree_leaves_with_path` give different leaves;
- PTL201/PTL202/PTL203: `reproduce()` runs with JAX's tree functions wrapped; the call at the finding's
  line consumed shape tuples as a first tree without `is_leaf`, held None the mapped function never
  received, or was given a dict view, generator or iterator that JAX made one leaf;
- PTL401: a jitted call with the examples raises "not a valid JAX type" / "Error interpreting argument";
- PTL402: the module's `reproduce()` raises "Error interpreting argument to <function NAME ...>" naming the
  jitted function;
- PTL403: `reproduce()` raises "Non-hashable static arguments are not supported" at the finding's line;
- PTL404: `reproduce()` raises a ConcretizationTypeError, TracerIntegerConversionError or "Shapes must be
  1D sequences of concrete values" inside a method of the finding's class.
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
    text = " ".join(repr(value).split())
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


def _constructor_frame(error: BaseException) -> str | None:
    """The `__init__`/`__post_init__` outside JAX that an error was raised in, as "name (file:line)"."""
    jax_dir = os.path.dirname(_jax().__file__)
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if frame.name in ("__init__", "__post_init__") and not frame.filename.startswith(jax_dir):
            return f"{frame.name} ({os.path.basename(frame.filename)}:{frame.lineno})"
    return None


def probe_validating_init(examples: list[Any], target: str | None) -> Outcome:
    jax = _jax()
    import jax.numpy as jnp

    transformations = {
        "jax.jacobian(lambda t: t)": lambda t: jax.jacobian(lambda x: x)(t),
        "jax.eval_shape(lambda t: t)": lambda t: jax.eval_shape(lambda x: x, t),
        "jax.vmap(lambda t: t) over two stacked examples": lambda t: jax.vmap(lambda x: x)(
            jax.tree.map(lambda *xs: jnp.stack(xs), t, examples[1])),
    }
    for name, transformation in transformations.items():
        try:
            transformation(examples[0])
        except Exception as error:
            frame = _constructor_frame(error)
            if frame is not None:
                return Outcome("confirmed", f"{name} raised, in {frame} run by unflatten, {first_line(error)}")
    return Outcome("unconfirmed", f"{', '.join(transformations)} all rebuilt the example without an error")


def _same_leaves(first: list[Any], second: list[Any]) -> str | None:
    """Why two leaf lists differ (None when they are equal): count, type, shape or value."""
    import numpy as np
    if len(first) != len(second):
        return f"{len(first)} leaves became {len(second)}"
    for number, (before, after) in enumerate(zip(first, second)):
        if np.shape(before) != np.shape(after) or not np.array_equal(np.asarray(before), np.asarray(after)):
            return f"leaf {number} was {describe(before)} and came back as {describe(after)}"
    return None


def round_trip(example: Any):
    """(leaves, leaves after `jax.tree.map(lambda x: x, ...)`, the error it raised or None)."""
    jax = _jax()
    leaves = jax.tree.leaves(example)
    try:
        rebuilt = jax.tree.map(lambda x: x, example)
        return leaves, jax.tree.leaves(rebuilt), None
    except Exception as error:
        return leaves, None, error


def _split_into_rows(example: Any, leaves: list[Any]) -> str | None:
    """An array attribute of the example that is no leaf while its rows are: flatten iterated it."""
    import numpy as np
    for name, value in _members(example):
        if is_array(value) and value.ndim >= 1 and all(np.shape(leaf) != value.shape for leaf in leaves) \
                and sum(np.shape(leaf) == value.shape[1:] for leaf in leaves) >= len(value):
            return (f"the example's {name} is an array of shape {tuple(value.shape)}, but the leaves are "
                    f"{len(leaves)} arrays of its rows' shape {tuple(value.shape[1:])}: flatten iterated it")
    return None


def probe_round_trip(examples: list[Any], target: str | None) -> Outcome:
    """Flatten, unflatten and flatten again: a broken flatten/unflatten contract changes or loses leaves."""
    try:
        leaves, again, error = round_trip(examples[0])
    except Exception as error:
        return Outcome("confirmed", f"flattening the example raised {first_line(error)}")
    if error is not None:
        return Outcome("confirmed", f"jax.tree.map(lambda x: x, example) raised {first_line(error)}")
    difference = _same_leaves(leaves, again)
    if difference is not None:
        return Outcome("confirmed", f"jax.tree.map(lambda x: x, example) changed the leaves: {difference}")
    split = _split_into_rows(examples[0], leaves)
    if split is not None:
        return Outcome("confirmed", split)
    return Outcome("unconfirmed", f"jax.tree.map(lambda x: x, example) gave back the same {len(leaves)} leaves")


def probe_aux_first(examples: list[Any], target: str | None) -> Outcome:
    try:
        leaves = _jax().tree.leaves(examples[0])
    except Exception as error:
        return Outcome("confirmed", f"flattening the example raised {first_line(error)}")
    found = held(aux_values(examples[0], target), is_array)
    if found is not None and not any(is_array(leaf) for leaf in leaves):
        return Outcome("confirmed", f"the leaves are {describe(leaves)} while {found[0]} is a "
                                    f"{describe(found[1])}: children and aux_data are swapped")
    return Outcome("unconfirmed", f"the leaves are {describe(leaves)}")


def probe_keyed(examples: list[Any], target: str | None) -> Outcome:
    jax = _jax()
    plain = jax.tree.leaves(examples[0])
    with_path = jax.tree_util.tree_leaves_with_path(examples[0])
    difference = _same_leaves(plain, [leaf for _path, leaf in with_path])
    if difference is not None:
        paths = ", ".join(jax.tree_util.keystr(path) for path, _leaf in with_path)
        return Outcome("confirmed", f"tree.leaves and tree_leaves_with_path (paths {paths}) disagree: {difference}")
    return Outcome("unconfirmed", "tree.leaves and tree_leaves_with_path give the same leaves")


PROBES: dict[str, Callable[[list[Any], str | None], Outcome]] = {
    "PTL101": probe_array,
    "PTL102": probe_mutable,
    "PTL103": probe_retrace,
    "PTL104": probe_retrace,
    "PTL105": probe_array_equality,
    "PTL301": probe_validating_init,
    "PTL302": probe_round_trip,
    "PTL303": probe_round_trip,
    "PTL304": probe_aux_first,
    "PTL305": probe_round_trip,
    "PTL306": probe_round_trip,
    "PTL307": probe_keyed,
    "PTL401": probe_non_array_child,
}


@dataclasses.dataclass(frozen=True)
class Reproduction:
    """What the module's `reproduce()` must raise to confirm a finding: an error whose message holds one of
    `symptoms` (or whose class, or a base of it, is named so), tied to the finding by `where`: "line" (the
    traceback passes the finding's line), "function" (the message names the function the finding is
    about, as jit's argument errors do) or "method" (the traceback passes a method of the finding's class)."""

    symptoms: tuple[str, ...]
    where: str


# Rules whose finding is a call path, not a pytree: the module's `reproduce()` runs it, and the error
# it must raise is the symptom.
REPRODUCED: dict[str, Reproduction] = {
    "PTL402": Reproduction(("Error interpreting argument to",), "function"),
    "PTL403": Reproduction(("Non-hashable static arguments", "unhashable type"), "line"),
    "PTL404": Reproduction(("ConcretizationTypeError", "TracerIntegerConversionError",
                            "Shapes must be 1D sequences of concrete values"), "method"),
}


def _shows(error: BaseException, symptoms: tuple[str, ...]) -> bool:
    names = {kind.__name__ for kind in type(error).__mro__}
    return any(symptom in str(error) or symptom in names for symptom in symptoms)


def _class_methods(module: Any, target: str | None) -> set[str]:
    """The names of the functions defined on the class `target` of the module and on its bases there."""
    cls = getattr(module, target or "", None)
    if not isinstance(cls, type):
        return set()
    return {name for klass in cls.__mro__ if klass.__module__ == module.__name__ for name in vars(klass)}


def _tie(module: Any, finding: dict, error: BaseException) -> str | None:
    """Where the error shows it comes from the finding (see Reproduction.where); None if it does not."""
    module_file = os.path.abspath(module.__file__)
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(frame.filename) == module_file]
    where, target = REPRODUCED[finding["code"]].where, finding.get("target")
    if where == "line":
        return f"at line {finding['line']}" if any(f.lineno == finding["line"] for f in frames) else None
    if where == "function":
        return f"naming `{target}`" if f"<function {target} at" in str(error) else None
    methods = _class_methods(module, target)
    inside = next((f for f in frames if f.name in methods), None)
    return f"in `{target}.{inside.name}` (line {inside.lineno})" if inside is not None else None


def probe_reproduce(module: Any, finding: dict) -> Outcome:
    """Run `reproduce()`: the finding is confirmed when the predicted error comes from what it reports."""
    hook = getattr(module, "reproduce", None)
    if hook is None:
        return Outcome("no-example", "the module defines no reproduce() hook")
    _jax().clear_caches()
    try:
        hook()
    except Exception as error:
        if not _shows(error, REPRODUCED[finding["code"]].symptoms):
            return Outcome("unconfirmed", f"reproduce() raised an unrelated {first_line(error)}")
        tied = _tie(module, finding, error)
        if tied is not None:
            return Outcome("confirmed", f"reproduce() raised, {tied}, {first_line(error)}")
        return Outcome("unconfirmed", f"reproduce() raised {first_line(error)}, but not from what this finding "
                                      f"reports (line {finding['line']}, `{finding.get('target')}`)")
    return Outcome("unconfirmed", "reproduce() returned without an error")


# Tree calls are observed where the module makes them (PTL201-PTL203): the public tree functions are
# wrapped before the module is imported, and `reproduce()` runs the code path.
WATCHED_FUNCTIONS = {
    "jax.tree": {"map": "map", "map_with_path": "map_with_path", "leaves": "leaves", "flatten": "flatten",
                 "reduce": "reduce", "structure": "structure", "all": "all", "leaves_with_path": "leaves",
                 "flatten_with_path": "flatten"},
    "jax.tree_util": {"tree_map": "map", "tree_map_with_path": "map_with_path", "tree_leaves": "leaves",
                      "tree_flatten": "flatten", "tree_reduce": "reduce", "tree_structure": "structure",
                      "tree_all": "all", "tree_leaves_with_path": "leaves", "tree_flatten_with_path": "flatten"},
}
OBSERVED_CODES = ("PTL201", "PTL202", "PTL203")


@dataclasses.dataclass
class TreeCallRecord:
    filename: str
    line: int
    kind: str
    first_tree: Any
    trees: tuple
    has_is_leaf: bool
    received: list  # the leaves the mapped function was called with (maps only)


TREE_CALLS: list[TreeCallRecord] = []


def watch_tree_calls() -> None:
    """Wrap JAX's public tree functions to record each call: where it is made, what trees it consumes."""
    import importlib
    for module_name, functions in WATCHED_FUNCTIONS.items():
        namespace = importlib.import_module(module_name)
        for name, kind in functions.items():
            original = getattr(namespace, name, None)
            if original is not None:
                setattr(namespace, name, _watched(original, kind))


def _watched(original: Callable, kind: str) -> Callable:
    def watched(*args, **kwargs):
        caller = sys._getframe(1)
        first = 1 if kind in ("map", "map_with_path", "reduce") else 0
        trees = args[first:] if kind != "reduce" else args[1:2]
        record = TreeCallRecord(caller.f_code.co_filename, caller.f_lineno, kind, trees[0] if trees else None,
                                tuple(trees), "is_leaf" in kwargs, [])
        if kind in ("map", "map_with_path") and args and callable(args[0]):
            function = args[0]

            def recording(*leaves):
                record.received.append(leaves[1] if kind == "map_with_path" else leaves[0])
                return function(*leaves)
            args = (recording, *args[1:])
        TREE_CALLS.append(record)
        return original(*args, **kwargs)
    return watched


def _shape_tuples(tree: Any) -> list[tuple]:
    jax = _jax()
    return [node for node in jax.tree.leaves(tree, is_leaf=lambda x: isinstance(x, tuple))
            if isinstance(node, tuple) and node and all(isinstance(n, int) for n in node)]


def _none_paths(tree: Any) -> list[str]:
    jax = _jax()
    pairs = jax.tree_util.tree_leaves_with_path(tree, is_leaf=lambda x: x is None)
    return [jax.tree_util.keystr(path) or "(the root)" for path, leaf in pairs if leaf is None]


def _iterator_type(tree: Any) -> str | None:
    import collections.abc
    import types
    views = (collections.abc.KeysView, collections.abc.ValuesView, collections.abc.ItemsView)
    if isinstance(tree, (types.GeneratorType, collections.abc.Iterator, *views)):
        return type(tree).__name__
    return None


def judge_tree_call(code: str, record: TreeCallRecord) -> Outcome | None:
    """Did this recorded call show the symptom `code` predicts? None when it did not."""
    if code == "PTL201" and not record.has_is_leaf:
        shapes = _shape_tuples(record.first_tree)
        if shapes:
            leaves = _jax().tree.leaves(record.first_tree)
            return Outcome("confirmed", f"the first tree of this `{record.kind}` holds shape tuples such as "
                                        f"{shapes[0]}; JAX took their ints as the leaves: {describe(leaves)}")
    if code == "PTL202":
        nones = _none_paths(record.first_tree)
        if nones and None not in record.received:
            return Outcome("confirmed", f"the tree holds None at {', '.join(nones[:3])}, but the mapped function "
                                        f"was called {len(record.received)} times and never with None")
    if code == "PTL203":
        for tree in record.trees:
            kind = _iterator_type(tree)
            if kind is not None:
                return Outcome("confirmed", f"a `{kind}` was passed as a tree, and JAX made it a single leaf: "
                                            f"{describe(_jax().tree.leaves(tree))}")
    return None


def probe_tree_call(module: Any, code: str, line: int) -> Outcome:
    """Run `reproduce()` and judge the tree calls the module made at the finding's line."""
    hook = getattr(module, "reproduce", None)
    if hook is None:
        return Outcome("no-example", "the module defines no reproduce() hook")
    import warnings
    raised = ""  # the calls made when the module was imported count too: module-level code is a code path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            hook()
        except Exception as error:  # the misuse often breaks the code after it: the calls made still count
            raised = f"; reproduce() then raised {first_line(error)}"
    module_file = os.path.abspath(module.__file__)
    here = [r for r in TREE_CALLS if os.path.abspath(r.filename) == module_file and r.line == line]
    for record in here:
        outcome = judge_tree_call(code, record)
        if outcome is not None:
            return Outcome(outcome.status, outcome.evidence + raised)
    if not here:
        return Outcome("unconfirmed", f"reproduce() made no tree call at line {line}{raised}")
    return Outcome("unconfirmed", f"the {len(here)} tree calls at line {line} did not show the predicted "
                                  f"symptom{raised}")


def holds_target(example: Any, target: str | None) -> bool:
    try:
        return bool(aux_values(example, target)) if target else True
    except Exception:  # a flatten that raises (the finding may be about it): judge the example itself
        return type(example).__name__ == target


def probe_finding(module: Any, finding: dict) -> Outcome:
    if finding["code"] in OBSERVED_CODES:
        return probe_tree_call(module, finding["code"], finding["line"])
    if finding["code"] in REPRODUCED:
        return probe_reproduce(module, finding)
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
    if any(finding["code"] in OBSERVED_CODES for finding in findings):
        watch_tree_calls()  # before the module binds the tree functions it imports
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
