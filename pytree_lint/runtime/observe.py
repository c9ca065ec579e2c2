"""What the runtime probes observe, shared by every rule's probe and by `check_pytree`.

This module runs under `pytree-lint verify` (in a child interpreter per file) and in users' test suites:
it imports JAX only inside its functions, so the static path can import the rules that name these helpers.
Measured on jax 0.10.2.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..analysis.record import record

PROBE_SENTINEL = "pytree-lint-probe"
_BUILTIN_NODES = (tuple, list, dict, type(None))
STATUSES = ("confirmed", "unconfirmed", "no-example", "error")


@record
class Outcome:
    status: str  # one of STATUSES
    evidence: str


def jax_module():
    import jax
    return jax


def is_named(kind: type, target: str) -> bool:
    """Whether `kind` is the class named `target` or a subclass of it: a finding about a base's flatten is
    about every subclass it registers (a base that registers its subclasses is never flattened itself)."""
    return any(klass.__name__ == target for klass in kind.__mro__)


def aux_values(tree: Any, target: str | None) -> list[Any]:
    """The aux_data of every node in `tree` whose type is the class named `target` or a subclass of it (any
    custom node for None)."""
    jax = jax_module()
    found, pending = [], [jax.tree.structure(tree)]
    while pending:
        treedef = pending.pop()
        data = treedef.node_data()
        if data is not None:
            node_type, aux = data
            if (is_named(node_type, target) if target is not None else not issubclass(node_type, _BUILTIN_NODES)):
                found.append(aux)
        pending.extend(treedef.children())
    return found


def instances_of(tree: Any, target: str | None) -> list[Any]:
    """The objects in `tree` of the class named `target` or a subclass of it."""
    if target is None:
        return []
    named = lambda value: is_named(type(value), target)  # noqa: E731
    return [value for value in jax_module().tree.leaves(tree, is_leaf=named) if named(value)]


def members(value: Any):
    """(name, member) of a container or an object's fields: what aux_data may hold inside it."""
    if isinstance(value, Mapping):
        return [(f"[{k!r}]", v) for k, v in value.items()]
    if isinstance(value, (tuple, list, set, frozenset)):
        return [(f"[{i}]", v) for i, v in enumerate(value)]
    import dataclasses  # not at the top: the lint imports this module for its rules' probes

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
    for name, member in members(value):
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
    return isinstance(value, (np.ndarray, jax_module().Array))


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
    cause: BaseException | None = error
    while cause is not None:
        text = str(cause)
        if "metadata fields" in text or "truth value of an array" in text or "comparable using __eq__" in text:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def watch_constructions(cls: type, seen: Callable[[Any], None]) -> Callable[[], None] | None:
    """Call `seen(obj)` after each object of `cls` (or of a subclass inheriting its constructor) is built;
    the function that undoes it, or None when the class refuses a new constructor."""
    own = cls.__dict__.get("__init__")
    init = cls.__init__  # type: ignore[misc]  # the constructor the class has, its own or inherited

    @functools.wraps(init)
    def watched(node, *args, **kwargs):
        init(node, *args, **kwargs)
        seen(node)

    try:
        cls.__init__ = watched  # type: ignore[misc]
    except (TypeError, AttributeError):
        return None

    def undo() -> None:
        if own is not None:
            cls.__init__ = own  # type: ignore[misc]
        else:
            del cls.__init__  # type: ignore[misc]

    return undo


def counted_jit(body: Callable[[Any], Any] | None = None):
    """A fresh jitted function of a pytree, and a list whose first item counts its traces."""
    jax = jax_module()
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


@record
class TreeCallRecord:  # a record, not a tuple: jax would read a tuple as a pytree
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


def same_leaves(first: list[Any], second: list[Any]) -> str | None:
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
    jax = jax_module()
    leaves = jax.tree.leaves(example)
    try:
        rebuilt = jax.tree.map(lambda x: x, example)
        return leaves, jax.tree.leaves(rebuilt), None
    except Exception as error:
        return leaves, None, error


def split_into_rows(example: Any, leaves: list[Any]) -> str | None:
    """An array attribute of the example that is no leaf while its rows are: flatten iterated it."""
    import numpy as np
    for name, value in members(example):
        if is_array(value) and value.ndim >= 1 and all(np.shape(leaf) != value.shape for leaf in leaves) \
                and sum(np.shape(leaf) == value.shape[1:] for leaf in leaves) >= len(value):
            return (f"the example's {name} is an array of shape {tuple(value.shape)}, but the leaves are "
                    f"{len(leaves)} arrays of its rows' shape {tuple(value.shape[1:])}: flatten iterated it")
    return None


def nnx_param_paths(model: Any) -> list[str]:
    """The paths of the Params `nnx.state(model, nnx.Param)` holds: what `nnx.grad` differentiates and
    `nnx.Optimizer(model, tx, wrt=nnx.Param)` updates (`['layers'][0]['kernel'].value`)."""
    from flax import nnx

    jax = jax_module()
    state = nnx.state(model, nnx.Param)
    return [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_leaves_with_path(state)]


def nnx_params_in(value: Any, depth: int = 0) -> int:
    """How many Param arrays `value` holds: a Module, a Param, a container of them, or a function that
    wraps one (`functools.partial`'s `func`, `__wrapped__`, the cells a closure keeps)."""
    from flax import nnx

    jax = jax_module()
    if isinstance(value, nnx.Module):
        return len(jax.tree.leaves(nnx.state(value, nnx.Param)))
    if isinstance(value, nnx.Param):
        return 1
    if depth > 4 or isinstance(value, type):
        return 0
    if isinstance(value, Mapping):
        return sum(nnx_params_in(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(nnx_params_in(v, depth + 1) for v in value)
    if callable(value):
        inside = [getattr(value, "func", None), getattr(value, "__wrapped__", None),
                  *(_contents(cell) for cell in getattr(value, "__closure__", None) or ())]
        return max((nnx_params_in(v, depth + 1) for v in inside if v is not None and v is not value), default=0)
    return 0


def _contents(cell) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a cell not filled yet
        return None


def hidden_params(model: Any, target: str | None, member: str | None) -> Outcome:
    """The attribute `member` of the model (a `target`) holds Params that the model's state does not:
    nothing trains them (a StateProbe's observation)."""
    if member is None or not hasattr(model, member):
        return Outcome("unconfirmed", f"the model has no attribute `{member}`")
    held = nnx_params_in(getattr(model, member))
    paths = nnx_param_paths(model)
    seen = [p for p in paths if p.startswith((f"[{member!r}]", f".{member}"))]
    value = describe(getattr(model, member))
    if held and not seen:
        return Outcome("confirmed", f"`{member}` ({value}) holds {held} Param arrays and nnx.state(model, "
                                    f"nnx.Param) none of them ({len(paths)} leaves in all): nnx.grad and "
                                    "nnx.Optimizer never update them")
    return Outcome("unconfirmed", f"`{member}` ({value}) holds {held} Param arrays, {len(seen)} of them in the "
                                  "model's state")
