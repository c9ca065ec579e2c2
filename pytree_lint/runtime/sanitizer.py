"""`pytest --pytree-sanitize`: the user's own test suite watched for pytree misuse as it runs (a pytest
plugin, installed with the package and off unless asked).

Every class the project's code registers through `register_pytree_node` (and what calls it:
`register_pytree_node_class`, `register_pytree_with_keys`, Equinox modules, Flax NNX objects) has its
flatten watched; a `register_dataclass` class (flax.struct's), which JAX flattens without calling Python, has
each object checked as it is built. What a flatten gives is checked as it happens, and what it left behind
when each test ends:

- PTL101: an array in aux_data (JAX compares aux_data with `==`: a ValueError at the second jitted call);
- PTL102: a list, dict or set in aux_data that is changed in place after the flatten (jit's cache keeps the
  old trace: stale results; not for `register_dataclass` classes, whose flattens are not seen);
- PTL103: one object flattened twice, its leaves unchanged, giving aux_data that differ only by a fresh
  closure or a fresh identity-compared object (made anew by each flatten): a retrace per call;
- PTL103/PTL104: a jitted function traced again for arguments whose leaves equal those of an earlier trace,
  because an object's aux_data holds a closure or an identity-compared object made anew for each object
  (equal in content, unequal by `==`): jit's cache never hits for new objects;
- PTL105: an object in aux_data whose `==` raises or returns an array;
- PTL301: an unflatten that rebuilds the node from its own children but raises when JAX rebuilds it with
  None or ShapeDtypeStruct leaves (as `jax.eval_shape` and tree maps returning None do);
- and the flatten/unflatten contract, on the first object of each class a test flattened: the round trip
  (unflatten of what flatten gave, flattened again) puts children back in another order (PTL302), works only
  with unflatten's parameters swapped (PTL303), raises for want of a child (PTL306) or stores the children
  tuple whole (PTL308); flatten gives a bare array as its children (PTL305), hashable values as children and
  the arrays as aux_data (PTL304); the keyed flatten gives other leaves than the plain one (PTL307).

At the end each misuse is reported once, with the rule code, the class, the line that registered it and
the test that showed it, as the CLI's text (and its JSON with `--pytree-sanitize-json=FILE`); the run
fails when there is one. Classes registered by installed libraries (site-packages) are not watched.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import os
import sys
import types
import weakref
from typing import Any

import pytest

from .observe import describe, find_inside, first_line, is_array, watch_constructions

# How many containers held in aux_data are watched for in-place changes, per class.
WATCHED_CONTAINERS = 16
# Leaves larger than this are not compared between flattens (the check stays cheap on real models).
MAX_COMPARED_ELEMENTS = 4096
# How many recently flattened objects of a class are remembered, to see one flattened again.
RECENT_OBJECTS = 8
# How many earlier traces of a jitted function are remembered, to see it traced again for equal leaves.
RECENT_TRACES = 8
_NOT_GIVEN = object()  # `jax.jit` called without a function: the decorator factory
_WATCHING = "__pytree_lint_watching__"  # a function's attribute: the wrapper jit is given instead
# Where installed libraries live: their classes are theirs to check, not the project's.
LIBRARY_FOLDERS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")


@dataclasses.dataclass
class _Watched:
    """One registered class: where it was registered, and what its flattens left to check."""

    cls: type
    path: str
    line: int
    unflatten: Any
    flatten: Any = None  # the registration's own flatten functions (not the sanitizer's wrappers)
    flatten_with_keys: Any = None
    # ids of the last objects its unflatten made: what they hold follows from the objects they were
    # rebuilt from (checked when those were flattened), and from the unflatten (the contract check).
    rebuilt_ids: dict[int, None] = dataclasses.field(default_factory=dict)
    # id -> (the object, its comparable leaves, its aux_data) of the last objects flattened (kept alive)
    recent: dict[int, tuple[Any, Any, Any]] = dataclasses.field(default_factory=dict)
    containers: list[tuple[Any, Any, str, str]] = dataclasses.field(default_factory=list)  # (held, copy, where, test)
    rebuilt: bool = False  # the unflatten probe ran


class Sanitizer:
    def __init__(self, root: str) -> None:
        self.root = root
        self.watched: dict[type, _Watched] = {}
        self.found: dict[tuple[str, type], Any] = {}  # (code, class) -> its Finding
        self.test = "(collection)"
        self.pending_rebuilds: list[tuple[_Watched, Any, Any, list]] = []  # (class, node, aux, children)
        self.jax_folder = ""  # where jax's own files are: its jitted primitives are not watched

    # --- registration -----------------------------------------------------------------------------------

    def install(self) -> None:
        """Wrap JAX's registration, which every other registration function calls."""
        from jax import tree_util as public
        from jax._src import tree_util as private

        original = private.register_pytree_node

        def register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys_func=None):
            watched = self._watch(nodetype, unflatten_func)
            if watched is not None:
                watched.flatten, watched.flatten_with_keys = flatten_func, flatten_with_keys_func
                flatten_func = self._wrapped(watched, flatten_func, keyed=False)
                unflatten_func = _remembering(watched, unflatten_func)
                if flatten_with_keys_func is not None:
                    flatten_with_keys_func = self._wrapped(watched, flatten_with_keys_func, keyed=True)
            return original(nodetype, flatten_func, unflatten_func, flatten_with_keys_func)

        register_pytree_node.__doc__ = original.__doc__
        private.register_pytree_node = register_pytree_node
        public.register_pytree_node = register_pytree_node

        original_dataclass = private.register_dataclass

        def register_dataclass(nodetype, *args, **kwargs):
            registered = original_dataclass(nodetype, *args, **kwargs)
            entry = private._registry.get(nodetype)
            watched = self._watch(nodetype, entry.from_iter) if entry is not None else None
            if watched is not None:
                watched.flatten = entry.to_iter
                self._check_constructions(watched)
            return registered

        register_dataclass.__doc__ = original_dataclass.__doc__
        private.register_dataclass = register_dataclass
        public.register_dataclass = register_dataclass
        self._install_jit()

    def _install_jit(self) -> None:
        """Wrap `jax.jit` (as the project's code reads it, `jax.jit` or `from jax import jit`, and as
        libraries' own jits call it) so that each trace of a function is compared with its earlier ones."""
        import jax
        from jax._src import api

        original = api.jit
        self.jax_folder = os.path.dirname(os.path.abspath(jax.__file__)) + os.sep

        def jit(fun: Any = _NOT_GIVEN, /, **options: Any) -> Any:
            if fun is _NOT_GIVEN:  # `@jax.jit(static_argnames=...)`
                return lambda fun: jit(fun, **options)
            return original(self._watching_traces(fun), **options)

        jit.__doc__ = original.__doc__
        api.jit = jax.jit = jit

    def _watching_traces(self, fun: Any) -> Any:
        """`fun`, run by jit only when it traces, noting what it was traced for (functions and partials of
        them, not jax's own: a bound method is made anew at each read, and jit's cache would miss for it).
        The wrapper is kept on the function itself (one per function: jit's cache, keyed by the function
        it is given, keeps hitting), so it dies with it: nothing here keeps a function alive."""
        if not isinstance(fun, (types.FunctionType, functools.partial)):
            return fun
        code = getattr(fun, "__code__", None) or getattr(getattr(fun, "func", None), "__code__", None)
        if code is None or code.co_filename.startswith(self.jax_folder):
            return fun  # jax's own jitted primitives
        watching = getattr(fun, _WATCHING, None)
        if watching is None:
            traces: list[tuple[Any, list, list]] = []

            @functools.wraps(fun)
            def watching(*args: Any, **kwargs: Any) -> Any:
                try:
                    self._check_retrace(fun, traces, args, kwargs)
                except Exception:  # the sanitizer never breaks the user's program
                    pass
                return fun(*args, **kwargs)

            try:
                setattr(fun, _WATCHING, watching)
            except (AttributeError, TypeError):
                return fun  # an object that takes no attribute: not watched
        return watching

    def _check_retrace(self, fun: Any, traces: list, args: tuple, kwargs: dict) -> None:
        """This trace of `fun` against its earlier ones: the same leaves (the traced ones by shape and
        dtype, the static ones by `==`) and a tree that differs only in a project class's aux_data, by what
        each object made anew, is a retrace the class causes for every new object."""
        import jax

        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
        traced = [leaf.aval for leaf in leaves if isinstance(leaf, jax.core.Tracer)]
        if not traced:
            return  # run outside jit (`jax.disable_jit`), not traced
        static = [leaf for leaf in leaves if not isinstance(leaf, jax.core.Tracer)]
        for earlier, earlier_traced, earlier_static in traces:
            if earlier_traced == traced and _all_equal(earlier_static, static):
                difference = _aux_difference(earlier, treedef)
                if difference is not None and difference[0] in self.watched:
                    self._report_retrace(fun, self.watched[difference[0]], *difference[1:])
        traces.append((treedef, traced, static))
        if len(traces) > RECENT_TRACES:
            del traces[0]

    def _report_retrace(self, fun: Any, watched: _Watched, before: Any, after: Any) -> None:
        """A retrace whose aux_data differ (among what may be static values that really changed) by a
        closure or an identity-compared object made anew for each object: that alone retraces equal ones. (An
        object without attributes, such as `object()`, is a marker whose identity is its meaning: equinox's
        `StateIndex` gives each layer its own.)"""
        made_anew = [(a, b) for a, b in _differing(before, after)
                     if _same_closure(a, b) or (_same_contents(a, b) and _attributes(a))]
        if not made_anew:
            return  # a static value that really changed: a retrace is what it asks for
        name = getattr(fun, "__qualname__", None) or getattr(getattr(fun, "func", None), "__qualname__", "?")
        retraced = (f"jit of `{name}` traced again for an object of `{watched.cls.__name__}` whose leaves equal "
                    "an earlier one's")
        first, second = made_anew[0]
        if _same_closure(first, second):
            self._report("PTL103", watched, f"volatile aux_data of `{watched.cls.__name__}`: {retraced}, its "
                         f"aux_data holding a new {_callable_name(first)} (made for each object, unequal to the "
                         "last): jit retraces for every new object")
        else:
            made = type(first).__name__
            self._report("PTL104", watched, f"identity-compared aux_data of `{watched.cls.__name__}`: {retraced}, "
                         f"its aux_data holding a new `{made}` with the same attributes (`{made}` has no value "
                         "equality, so equal ones compare unequal): jit retraces for every new object")

    def _check_constructions(self, watched: _Watched) -> None:
        """A `register_dataclass` class (flax.struct's): JAX flattens it without calling Python, so each
        object is checked as it is built (its unflatten builds objects too), with the flatten JAX keeps for
        Python's use."""
        def check(node: Any) -> None:
            try:
                children, aux = watched.flatten(node)
                self._check(watched, node, list(children), aux, flattened=False)
            except Exception:  # the sanitizer never breaks the user's program
                pass

        watch_constructions(watched.cls, check)  # for the whole run: never undone

    def _watch(self, nodetype: type, unflatten: Any) -> _Watched | None:
        """The class, if it is the project's own (its module is a file of the project, not of an installed
        library), with the line of the project's code that registered it (or else its class statement)."""
        module_file = getattr(sys.modules.get(getattr(nodetype, "__module__", "")), "__file__", None)
        if not module_file or not self._projects(module_file):
            return None
        module_file = os.path.abspath(module_file)
        line = 0
        frame: Any = sys._getframe(2)
        while frame is not None:  # the registering call in the class's own module (a decorator, a call)
            if frame.f_code.co_filename == module_file:
                line = frame.f_lineno
                break
            frame = frame.f_back
        if not line:
            try:
                line = inspect.getsourcelines(nodetype)[1]
            except (OSError, TypeError):
                line = 1
        watched = self.watched[nodetype] = _Watched(nodetype, os.path.relpath(module_file, self.root), line,
                                                    unflatten)
        return watched

    def _projects(self, filename: str) -> bool:
        """A file of the project: under its root, and not of an installed library or of pytree-lint."""
        filename = os.path.abspath(filename)
        inside = filename[len(self.root) - 1:]  # within the project: a venv of its own may hold libraries
        return filename.startswith(self.root) and not any(folder in inside for folder in LIBRARY_FOLDERS) \
            and not filename.startswith(os.path.dirname(os.path.dirname(__file__)) + os.sep)

    def _wrapped(self, watched: _Watched, flatten: Any, keyed: bool) -> Any:
        def flatten_and_check(node):
            children, aux = flatten(node)
            try:
                if is_array(children):
                    self._report("PTL305", watched, f"flatten of `{watched.cls.__name__}` returns a bare "
                                 f"{type(children).__name__} of shape {tuple(children.shape)} as its children, "
                                 "not a sequence of them: JAX iterates it, one child per row (and a 0-d array "
                                 "cannot be iterated)")
                else:
                    self._check(watched, node, [c for _, c in children] if keyed else list(children), aux)
            except Exception:  # the sanitizer never breaks the user's program
                pass
            return children, aux
        return flatten_and_check

    # --- checks -----------------------------------------------------------------------------------------

    def _check(self, watched: _Watched, node: Any, children: list, aux: Any, flattened: bool = True) -> None:
        """What one flatten gave (`flattened` False: what an object holds as it is built, for a class JAX
        flattens without calling Python; a container it holds may still be filled before any flatten)."""
        if id(node) not in watched.rebuilt_ids:
            self._check_aux(watched, children, aux, flattened)
        leaves = _comparable(children)
        if leaves is not None:
            before = watched.recent.get(id(node))
            if before is not None and before[0] is node and _same_leaves(before[1], leaves):
                self._compare_aux(watched, before[2], aux)
            watched.recent[id(node)] = (node, leaves, aux)
            if len(watched.recent) > RECENT_OBJECTS:
                del watched.recent[next(iter(watched.recent))]
        if not watched.rebuilt:
            watched.rebuilt = True
            self.pending_rebuilds.append((watched, node, aux, children))

    def _check_aux(self, watched: _Watched, children: list, aux: Any, flattened: bool) -> None:
        """What one flatten put in aux_data (and, swapped, in the children)."""
        array = find_inside(aux, is_array)
        if array is not None and any(child is not None for child in children) \
                and all(_hashable(child) for child in children):
            self._report("PTL304", watched, f"flatten of `{watched.cls.__name__}` returns `(aux_data, children)`: "
                         f"the children JAX gets are hashable values ({_listed(children)}) and its aux_data holds "
                         f"the arrays ({array[0]} is a {type(array[1]).__name__} of shape "
                         f"{tuple(array[1].shape)}): return `(children, aux_data)`")
        elif array is not None and getattr(array[1], "size", 2) > 1:
            self._report("PTL101", watched, f"array in aux_data of `{watched.cls.__name__}`: {array[0]} is a "
                         f"{type(array[1]).__name__} of shape {tuple(array[1].shape)}; JAX compares aux_data with "
                         "`==`, so a jitted call with a new, equal array raises `ValueError`")
        broken = find_inside(aux, lambda value: _eq_misbehaves(value) is not None)
        if broken is not None:
            self._report("PTL105", watched, f"`==` of {broken[0]} (a `{type(broken[1]).__name__}`) in aux_data of "
                         f"`{watched.cls.__name__}` {_eq_misbehaves(broken[1])}; JAX compares aux_data with `==`")
        if flattened and len(watched.containers) < WATCHED_CONTAINERS:
            held = find_inside(aux, lambda value: isinstance(value, (list, dict, set)))
            if held is not None and all(held[1] is not other for other, *_ in watched.containers):
                watched.containers.append((held[1], copy.copy(held[1]), held[0], self.test))

    def _compare_aux(self, watched: _Watched, before: Any, after: Any) -> None:
        """One object, its leaves unchanged, flattened to aux_data that differ only by what each flatten made
        anew: a closure of the same function, or an identity-compared object with the same contents."""
        try:
            if before == after:
                return
        except Exception:
            return  # PTL101/PTL105 say why `==` fails
        pairs = _differing(before, after)
        if pairs and all(_same_closure(a, b) or _same_contents(a, b) for a, b in pairs):
            made = _callable_name(pairs[0][0]) if _same_closure(*pairs[0]) else \
                f"`{type(pairs[0][0]).__name__}` object"
            self._report("PTL103", watched, f"volatile aux_data of `{watched.cls.__name__}`: flattening the same "
                         f"object twice gives a new {made} each time, unequal to the last, so jit retraces at "
                         "every call")

    def test_ended(self) -> None:
        """What the test's flattens left: containers changed since, unflattens to try."""
        for watched in self.watched.values():
            for held, snapshot, where, test in watched.containers:
                try:
                    changed = held != snapshot
                except Exception:
                    changed = False
                if changed:
                    self._report("PTL102", watched, f"mutable aux_data of `{watched.cls.__name__}`: {where} (a "
                                 f"`{type(held).__name__}`) was changed in place after a flatten; jit's "
                                 "cache keeps the trace made before, so later calls return stale results",
                                 test=test)
        pending, self.pending_rebuilds = self.pending_rebuilds, []
        for watched, node, aux, children in pending:
            try:
                if self._contract_holds(watched, node, aux, children):
                    self._try_rebuild(watched, aux, children)
            except Exception:  # the sanitizer never breaks the user's program
                pass

    def _contract_holds(self, watched: _Watched, node: Any, aux: Any, children: list) -> bool:
        """The flatten/unflatten contract on one object: unflatten of what flatten gave rebuilds it, and
        flattening that gives the same children; the keyed flatten gives the plain one's children."""
        name = watched.cls.__name__
        if ("PTL304", watched.cls) in self.found or ("PTL305", watched.cls) in self.found:
            return False  # the flatten itself is wrong: what unflatten makes of it says nothing more
        if watched.flatten_with_keys is not None and watched.flatten is not None:
            keyed, _ = watched.flatten_with_keys(node)
            difference = _leaves_differ(list(watched.flatten(node)[0]), [child for _, child in keyed])
            if difference is not None:
                self._report("PTL307", watched, f"the keyed flatten of `{name}` (`tree_leaves_with_path`, "
                             f"`tree_map_with_path`) and its plain flatten disagree: {difference}")
                return False
        try:
            rebuilt = watched.unflatten(aux, children)
        except Exception as error:
            if self._rebuilds_swapped(watched, aux, children):
                self._report("PTL303", watched, f"unflatten of `{name}` takes `(children, aux_data)`: given "
                             f"`(aux_data, children)` as JAX passes them it raises {first_line(error)}, and "
                             "swapped it rebuilds the object")
            elif _wants_more(error):
                self._report("PTL306", watched, f"unflatten of `{name}`, given the children its own flatten "
                             f"made, raises {first_line(error)}: the flatten leaves out a field the unflatten "
                             "needs, so every tree map and jit of the object fails")
            return False
        if watched.flatten is None:
            return True
        again = list(watched.flatten(rebuilt)[0])
        difference = _leaves_differ(children, again)
        if difference is None:
            return True
        if self._rebuilds_swapped(watched, aux, children):
            self._report("PTL303", watched, f"unflatten of `{name}` takes `(children, aux_data)`: rebuilt from "
                         f"`(aux_data, children)` as JAX passes them and flattened again, {difference}")
        elif any(value is children or (isinstance(value, (tuple, list)) and len(value) == len(children) > 0
                                       and all(a is b for a, b in zip(value, children)))
                 for value in _attributes(rebuilt)):
            self._report("PTL308", watched, f"unflatten of `{name}` stores the children sequence whole in one "
                         f"field instead of unpacking it: flattened again, {difference}")
        elif len(again) == len(children):
            self._report("PTL302", watched, f"unflatten of `{name}` puts the children back in another order "
                         f"than its flatten gives them: flattened again, {difference}")
        return False

    @staticmethod
    def _rebuilds_swapped(watched: _Watched, aux: Any, children: list) -> bool:
        """Unflatten, given `(children, aux_data)` the other way round, rebuilds an object whose flatten
        gives the same children: its parameters are swapped."""
        try:
            rebuilt = watched.unflatten(tuple(children), aux)
            return watched.flatten is not None and _leaves_differ(children, list(watched.flatten(rebuilt)[0])) is None
        except Exception:
            return False

    def _try_rebuild(self, watched: _Watched, aux: Any, children: list) -> None:
        """Rebuild the node as JAX does with other leaves: None, and ShapeDtypeStructs (each child's
        structure kept), once its own children are known to rebuild it."""
        import jax
        def shaped(leaf: Any) -> Any:  # what `jax.eval_shape` puts in an array's place
            return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype) if hasattr(leaf, "shape") and hasattr(
                leaf, "dtype") else leaf

        for what, replace in (("None", lambda _: None), ("ShapeDtypeStruct", shaped)):
            try:
                watched.unflatten(aux, [jax.tree.map(replace, child) for child in children])
            except Exception as error:
                self._report("PTL301", watched, f"unflatten of `{watched.cls.__name__}` raises with {what} leaves "
                             f"({first_line(error)}), as JAX passes them in `jax.eval_shape` and tree maps: "
                             "rebuild the object without validating its leaves")
                return

    def _report(self, code: str, watched: _Watched, message: str, test: str | None = None) -> None:
        from ..engine import Finding  # the plugin loads in every pytest run: the engine only when needed

        key = (code, watched.cls)
        if key not in self.found:
            self.found[key] = Finding(watched.path, watched.line, 0, code,
                                      f"{message} (seen in {test or self.test})", target=watched.cls.__name__)


def _eq_misbehaves(value: Any) -> str | None:
    """How `value == value` goes wrong (raises, or gives no bool), or None."""
    if isinstance(value, (str, bytes, int, float, bool, type(None), tuple, frozenset, list, dict, set, type)) or \
            callable(value) or is_array(value):
        return None
    try:
        result = type(value).__eq__(value, value)  # type: ignore[call-arg]  # the instance's own `==`
    except Exception as error:
        return f"raises {first_line(error)}"
    if result is NotImplemented or isinstance(result, bool):
        return None
    return f"returns a {type(result).__name__}, not a bool"


def _remembering(watched: _Watched, unflatten: Any) -> Any:
    """The unflatten, noting the objects it makes (see _Watched.rebuilt_ids)."""
    def unflatten_and_remember(aux, children):
        node = unflatten(aux, children)
        watched.rebuilt_ids[id(node)] = None
        if len(watched.rebuilt_ids) > RECENT_OBJECTS:
            del watched.rebuilt_ids[next(iter(watched.rebuilt_ids))]
        return node
    return unflatten_and_remember


def _hashable(value: Any) -> bool:
    """A value JAX would take as aux_data without complaint: a scalar, a string, None, or tuples of them."""
    if isinstance(value, tuple):
        return all(_hashable(item) for item in value)
    return isinstance(value, (str, bytes, int, float, bool, type(None)))


def _listed(values: list) -> str:
    text = ", ".join(repr(value) for value in values)
    return text if len(text) <= 60 else text[:57] + "..."


def _attributes(value: Any) -> list:
    try:
        return list(vars(value).values())
    except TypeError:  # no __dict__: a NamedTuple or a class with __slots__
        return list(value) if isinstance(value, tuple) else []


def _leaves_differ(first: list, second: list) -> str | None:
    """How two lists of children differ, compared as arrays where both are arrays (None: the same, or
    not comparable: subtrees or tracers are never flattened here)."""
    if len(first) != len(second):
        return f"{len(first)} children became {len(second)}"
    for number, (a, b) in enumerate(zip(first, second)):
        if is_array(a) != is_array(b):
            return f"child {number} was {describe(a)} and came back as {describe(b)}"
    before, after = _comparable(first), _comparable(second)
    if before is None or after is None:
        return None
    for number, (a, b) in enumerate(zip(before, after)):
        if not _same_leaves([a], [b]):
            return (f"child {number} was an array of shape {a.shape} ({_preview(a)}) and came back as one of shape "
                    f"{b.shape} ({_preview(b)})")
    return None


def _preview(array: Any) -> str:
    text = " ".join(str(array.ravel()[:4]).split())
    return text if array.size <= 4 else text[:-1] + " ...]"


def _wants_more(error: BaseException) -> bool:
    """The error of a constructor or an unpacking that got fewer values than it needs."""
    text = str(error)
    return (isinstance(error, TypeError) and "required positional argument" in text) or (
        isinstance(error, ValueError) and "not enough values to unpack" in text)


def _comparable(children: list) -> list | None:
    """The children as small numpy arrays to compare, or None (a subtree, a tracer, a large child): only
    this node's own children are read, never flattened (the check runs inside every flatten)."""
    import jax
    import numpy as np

    if not children or not all(isinstance(child, (np.ndarray, jax.Array)) and not isinstance(child, jax.core.Tracer)
                               for child in children):
        return None
    if sum(child.size for child in children) > MAX_COMPARED_ELEMENTS:
        return None
    # Copies: a view of a device buffer would keep JAX from donating it (`donate_argnums`).
    return [np.array(child, copy=True) for child in children]


def _same_leaves(first: list, second: list) -> bool:
    import numpy as np

    return len(first) == len(second) and all(
        a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(first, second))


def _differing(before: Any, after: Any) -> list[tuple[Any, Any]]:
    """The pairs of elements where two aux_data of the same shape differ (tuples and lists walked)."""
    if isinstance(before, (tuple, list)) and isinstance(after, (tuple, list)) and len(before) == len(after):
        pairs: list[tuple[Any, Any]] = []
        for a, b in zip(before, after):
            try:
                equal = a == b
                equal = bool(equal)
            except Exception:
                continue
            if not equal:
                pairs.extend(_differing(a, b))
        return pairs
    return [(before, after)]


def _all_equal(first: list, second: list) -> bool:
    try:
        return len(first) == len(second) and all(a is b or bool(a == b) for a, b in zip(first, second))
    except Exception:
        return False


def _aux_difference(first: Any, second: Any) -> tuple[type, Any, Any] | None:
    """(class, aux_data, aux_data) of the first node where two trees of the same shape differ only by
    aux_data (None: they are equal, or differ in shape)."""
    first_node, second_node = first.node_data(), second.node_data()
    if first_node is None or second_node is None:
        return None  # leaves
    first_children, second_children = first.children(), second.children()
    if first_node[0] is not second_node[0] or len(first_children) != len(second_children):
        return None
    if not _all_equal([first_node[1]], [second_node[1]]):
        return first_node[0], first_node[1], second_node[1]
    for first_child, second_child in zip(first_children, second_children):
        difference = _aux_difference(first_child, second_child)
        if difference is not None:
            return difference
    return None


def _same_closure(first: Any, second: Any) -> bool:
    """Two callables made by one expression: closures of one function (or wrappers of them, as `jax.jit`
    makes), or partials of one function with equal arguments."""
    if isinstance(first, functools.partial) and isinstance(second, functools.partial):
        return first.func is second.func and _all_equal(list(first.args), list(second.args)) and \
            _all_equal(sorted(first.keywords.items()), sorted(second.keywords.items()))
    code = getattr(_unwrapped(first), "__code__", None)
    return code is not None and code is getattr(_unwrapped(second), "__code__", None)


def _unwrapped(made: Any) -> Any:
    try:
        return inspect.unwrap(made) if callable(made) else made
    except ValueError:  # a cycle of `__wrapped__`
        return made


def _callable_name(made: Any) -> str:
    if isinstance(made, functools.partial):
        return f"`functools.partial` of `{getattr(made.func, '__name__', '?')}`"
    name = _unwrapped(made).__code__.co_name
    return f"closure of `{name}`" if _unwrapped(made) is made else f"`{type(made).__name__}` wrapping `{name}`"


def _same_contents(first: Any, second: Any) -> bool:
    """Two objects of one class with `==` by identity and equal attributes (not weakly referenced: an
    object held as a weak key or in a weak set is there for its identity)."""
    if type(first) is not type(second) or type(first).__eq__ is not object.__eq__ or callable(first):
        return False
    if weakref.getweakrefcount(first) or weakref.getweakrefcount(second):
        return False
    if type(first) is object:  # `object()`: nothing but an identity
        return True
    try:
        return bool(vars(first) == vars(second))
    except Exception:
        return False


# --- the pytest plugin --------------------------------------------------------------------------------------

_ACTIVE: list[Sanitizer] = []


def pytest_addoption(parser) -> None:
    group = parser.getgroup("pytree-lint")
    group.addoption("--pytree-sanitize", action="store_true", default=False,
                    help="watch every flatten of the project's pytree classes for misuse (pytree-lint)")
    group.addoption("--pytree-sanitize-json", metavar="FILE", default=None,
                    help="also write the misuses found as JSON, in pytree-lint's format")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    """Before the project's conftest files import its modules (and register their classes)."""
    if early_config.known_args_namespace.pytree_sanitize and not _ACTIVE:
        sanitizer = Sanitizer(str(early_config.rootpath) + os.sep)
        sanitizer.install()
        _ACTIVE.append(sanitizer)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _ACTIVE:
        _ACTIVE[0].test = item.nodeid
    yield
    if _ACTIVE:
        _ACTIVE[0].test_ended()
        _ACTIVE[0].test = "(between tests)"


def pytest_sessionfinish(session, exitstatus) -> None:
    if not _ACTIVE:
        return
    _ACTIVE[0].test_ended()
    if _ACTIVE[0].found and session.exitstatus == 0:
        session.exitstatus = 1  # a misuse fails the run, as a failing test does


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if not _ACTIVE:
        return
    from ..faces.formats import as_json, where

    findings = sorted(_ACTIVE[0].found.values(), key=lambda f: f.order)
    terminalreporter.section("pytree-lint sanitizer")
    for finding in findings:
        terminalreporter.write_line(f"{where(finding)}: {finding.code} {finding.message}")
    noun = "misuse" if len(findings) == 1 else "misuses"
    terminalreporter.write_line(f"{len(findings)} pytree {noun} found" if findings else "no pytree misuse found")
    output = config.getoption("pytree_sanitize_json")
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(as_json(findings))
