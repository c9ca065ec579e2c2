"""PTL102 mutable-aux-data

What it does:
    Finds a list, dict or set (a display, a comprehension, `list()`/`dict()`/`set()`/`sorted()`,
    `.tolist()`, or an attribute assigned or annotated as one) that reaches a pytree's aux_data or a
    static field.

Why is this bad:
    aux_data is part of the key under which `jax.jit` caches the compiled function. JAX raises nothing:
    three equal lists gave one trace. But when the list is mutated after the first call, the cache key
    mutates with it, and the next call silently returns the stale result (measured, jax 0.10.2: after
    `meta.append(...)` the call returned `Array(2.)` where 3.0 was expected, and a fresh equal list
    returned the same stale value). `static_argnums` rejects the same list outright.

Example:
        def flatten(net):
            return (net.weights,), net.layer_sizes    # PTL102: `self.layer_sizes = [784, 128, 10]`

Use instead:
    Store and return an immutable value: `tuple(layer_sizes)`, `frozenset(...)`,
    `tuple(sorted(d.items()))`.

Known limits:
    Containers built outside the module, or passed in unannotated, are not followed.

Fix (safe):
    A list or set built in the flatten function's `return` itself is made immutable (`[a, b]` to
    `(a, b)`, `list(x)` to `tuple(x)`, `{a}` to `frozenset({a})`): nothing else holds that object.
    A container stored on the instance is not changed, since other code may append to it.
"""

from __future__ import annotations

from ..analysis.kinds import Kind
from .base import Report, Rule


def immutable_replacement(node, code) -> str | None:
    """The source of an immutable equivalent of a list or set built in place, or None."""
    import libcst as cst

    if isinstance(node, cst.List):
        elements = list(node.elements)
        if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
            elements[0] = elements[0].with_changes(comma=cst.Comma())
        return code(cst.Tuple(elements=elements, lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
    if isinstance(node, cst.ListComp):
        return f"tuple({code(cst.GeneratorExp(node.elt, node.for_in, lpar=[], rpar=[]))})"
    if isinstance(node, (cst.Set, cst.SetComp)):
        return f"frozenset({code(node)})"
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("list", "sorted"):
        inner = code(node) if node.func.value == "sorted" else code(node.with_changes(func=cst.Name("tuple")))
        return f"tuple({inner})" if node.func.value == "sorted" else inner
    return None


class MutableAuxData(Rule):
    code = "PTL102"
    name = "mutable-aux-data"
    summary = "a list, dict or set reaches aux_data or a static field"

    def check(self, analysis):
        for site in analysis.aux_sites:
            evidence = site.first(Kind.MUTABLE, include_shared=True)
            if evidence is not None:
                fix = None
                if evidence.node is site.report_node and not evidence.trail:
                    replacement = immutable_replacement(evidence.node, analysis.module.code_for_node)
                    fix = (evidence.node, replacement) if replacement is not None else None
                yield Report(site.report_node,
                             f"mutable {evidence.what.removeprefix('a ').removeprefix('an ')} in "
                             f"{site.subject}: {analysis.origin(evidence)}; jit caches the compiled call "
                             "under this object, so mutating it later silently returns stale results "
                             "(use a tuple or frozenset)", fix)
