"""PTL203 iterator-as-pytree

What it does:
    Finds a dict view (`d.values()`, `.keys()`, `.items()`), a generator expression, or a `zip`, `map`,
    `filter`, `enumerate`, `reversed` or `iter` object passed as a tree to a JAX tree function, directly
    or through a local variable.

Why is this bad:
    These are not pytree nodes: JAX treats the whole iterable as one leaf (measured, jax 0.10.2 and
    0.12.0.1). For `.values()`, generators, `zip`, `map`, `filter`, `enumerate` and `iter` it warns
    (`DeprecationWarning: Python iterable type 'dict_values' is treated as a leaf in PyTree ... In a
    future version of JAX, this will become an error.`); for `.keys()`, `.items()` and `reversed` it says
    nothing. `jax.tree.leaves(params.values())` returns one leaf, the view itself, and a mapped function
    receives the view, not the arrays; under jit it fails with `TypeError: ... not a valid JAX type`.

Example:
    n = sum(x.size for x in jax.tree.leaves(params.values()))      # PTL203

Use instead:
    Pass the container (`params`), or materialise it: `list(params.values())`, `tuple(zip(a, b))`. A map
    whose function takes the iterator whole (`next(it)` on its parameter: the map only calls it once, with
    the other trees whole) is said so: call the function instead.

Known false positives:
    None known. A name is reported only when every value it can hold where the call reads it is such an
    iterable.

Known limits:
    Only tree functions are checked, not jitted functions called with such a value.
"""

from __future__ import annotations

import ast
from typing import Any

from ...analysis.pytrees.treecalls import leaf_parameter
from ...analysis.record import record
from ...analysis.syntax.model import is_name, nodes_of
from ...analysis.values.inference import Context
from ...analysis.values.kinds import Kind
from ...knowledge.jax import MAP_KINDS
from ...knowledge.python import DICT_VIEWS, ITERATOR_NAMES, SILENT_LEAF_ITERABLES
from ...knowledge.triggers import TREE_CALL_TRIGGERS
from ...runtime.observe import Outcome, TreeCallRecord, describe, jax_module
from ...runtime.probes import TreeCallProbe
from ..base import Report, Rule


def _iterator_type(tree: Any) -> str | None:
    import collections.abc
    import types
    views = (collections.abc.KeysView, collections.abc.ValuesView, collections.abc.ItemsView)
    if isinstance(tree, (types.GeneratorType, collections.abc.Iterator, *views)):
        return type(tree).__name__
    return None


def judge_iterator(record: TreeCallRecord) -> Outcome | None:
    """A dict view, generator or iterator was passed as a tree, and JAX made it one leaf."""
    for tree in record.trees:
        kind = _iterator_type(tree)
        if kind is not None:
            return Outcome("confirmed", f"a `{kind}` was passed as a tree, and JAX made it a single leaf: "
                                        f"{describe(jax_module().tree.leaves(tree))}")
    return None


class IteratorAsPytree(Rule):
    code = "PTL203"
    name = "iterator-as-pytree"
    summary = "a dict view, generator, `zip` or `map` object is passed as a pytree (it is one leaf)"
    runtime = TreeCallProbe(judge_iterator)
    triggers = TREE_CALL_TRIGGERS

    def check(self, analysis):
        calls = analysis.tree_calls
        for call in analysis.tree_call_sites:
            for position, tree in enumerate(call.trees):
                values = calls.values_of(tree, call)
                kinds = [iterator(analysis, value) for value in values]
                if values and all(kinds):
                    origin = "" if values[0] is tree else f" ({analysis.located(values[0])})"
                    how = ("silently treats as a single leaf" if kinds[0].silent else
                           "treats as a single leaf (`DeprecationWarning: ... treated as a leaf`)")
                    taken = _taken_whole(analysis, call, position)
                    if taken is not None:  # the map is a way to call the function once with it
                        yield Report(call.node,
                                     f"`{analysis.snippet(tree)}` is {kinds[0].description}{origin}, which JAX {how}; "
                                     f"the mapped function takes it whole ({analysis.located(taken)}): call the "
                                     "function with it instead of mapping it")
                    else:
                        yield Report(call.node,
                                     f"`{analysis.snippet(tree)}` is {kinds[0].description}{origin}, which JAX "
                                     f"{how}, not as its elements; pass the container or `list(...)` of it")
                    break


def _taken_whole(analysis, call, position: int) -> ast.Call | None:
    """The `next(p)` by which a map's function takes, whole, the iterable given as the tree at `position`
    (its parameter `p` there): a function of the module or nested in the caller."""
    if call.kind not in MAP_KINDS or not isinstance(call.function, ast.Name):
        return None
    function = analysis.index.function_named(call.function.id, call.scope)
    name = leaf_parameter(function, call.kind, position) if function is not None else None
    if name is None:
        return None
    return next((node for node in nodes_of(function.node, ast.Call) if isinstance(node.func, ast.Name)
                 and node.func.id == "next" and node.args and is_name(node.args[0], name)), None)


@record
class LeafIterable:
    """A single-use iterable a tree function takes as one leaf, and whether JAX says so."""

    description: str  # "a dict view (`.values()`)", "a generator", "a `zip` object"
    silent: bool


def iterator(analysis, expr: ast.expr) -> LeafIterable | None:
    """What single-use iterable an expression makes, if it makes one (not `lp.values()` of an object of a
    project class that defines `values`: its own method, jaddle's `JaddleLP.values()`)."""
    index = analysis.index
    if isinstance(expr, ast.GeneratorExp):
        return LeafIterable("a generator", silent=False)
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr in DICT_VIEWS and not expr.args and not expr.keywords \
            and not _own_method(analysis, func):
        return LeafIterable(f"a dict view (`.{func.attr}()`)", silent=func.attr in SILENT_LEAF_ITERABLES)
    if isinstance(func, ast.Name) and func.id in ITERATOR_NAMES and index.is_builtin(func.id):
        return LeafIterable(f"a `{func.id}` object", silent=func.id in SILENT_LEAF_ITERABLES)
    return None


def _own_method(analysis, func: ast.Attribute) -> bool:
    """`obj.values()` where `obj` may be an object of a project class that defines the method."""
    context = Context.of(analysis.index.enclosing_function(func))
    return any(e.kind is Kind.INSTANCE and e.cls is not None
               and analysis.index.find_method(e.cls, func.attr, across_modules=True) is not None
               for e in analysis.values.infer(func.value, context))
