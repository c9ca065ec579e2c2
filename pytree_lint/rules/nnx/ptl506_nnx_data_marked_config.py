"""PTL506 nnx-data-marked-config

What it does:
    Finds `nnx.data(...)` around a string, a function, a lambda or a class in a Flax NNX pytree class
    (`self.name = nnx.data("encoder")`), or around an int that the class's methods use in `range()` or as
    a shape (`self.depth = nnx.data(depth)`, then `for _ in range(self.depth)`).

Why is this bad:
    `nnx.data` makes the value a child, a leaf that transformations trace (measured, flax 0.12.8): a string
    or function leaf makes `nnx.jit`/`jax.jit` raise `TypeError: Error interpreting argument ... as an
    abstract array. The problematic value is of type <class 'str'>`; a traced int in `range()` raises
    `TracerIntegerConversionError`.

Example:
    class Encoder(nnx.Module):
        def __init__(self, depth, rngs):
            self.depth = nnx.data(depth)                     # PTL506
            self.proj = nnx.Linear(4, 4, rngs=rngs)

        def __call__(self, x):
            for _ in range(self.depth):
                x = self.proj(x)
            return x

Use instead:
    Assign configuration as it is (`self.depth = depth`): NNX keeps it static (the fix, safe: it drops
    the `nnx.data` call).

Known false positives:
    None known. `nnx.data` around arrays, Variables, Modules, `None` or containers of them is quiet; so is
    an int that no method uses as a size.

Known limits:
    An int counts as a size only when a method passes the attribute itself to `range()`; shapes built
    from it (`jnp.zeros((self.n,))`) are not judged.
"""

from __future__ import annotations

import ast

from ...analysis.fixes import Codemod, FixPlan
from ...analysis.syntax.model import is_none
from ...analysis.values.inference import Context
from ...analysis.values.kinds import Kind
from ...analysis.values.kinds import NnxStatus as Status
from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule


class NnxDataMarkedConfig(Rule):
    code = "PTL506"
    name = "nnx-data-marked-config"
    triggers = NNX_TRIGGERS
    summary = "`nnx.data(...)` marks a string, callable, or an int used as a size, as a traced child"
    runtime = ReproduceProbe(("Error interpreting argument", "TracerIntegerConversionError"),
                             where="attribute or method")

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            cls = nnx_class.cls.name
            sizes = None
            for name, group in nnx_class.assignments.items():
                for assignment in group:
                    value = assignment.value
                    if value.status is not Status.EXPLICIT_DATA or value.inner is None:
                        continue
                    if is_none(value.inner):
                        continue
                    context = Context(assignment.method) if assignment.method is not None else Context()
                    evidence = analysis.values.infer(value.inner, context)
                    leaf = next((e.leaf for e in evidence if e.proves_leaf), None)
                    if leaf is not None:
                        symptom = ("`nnx.jit` and `jax.jit` raise `TypeError: Error interpreting argument ... as an "
                                   "abstract array` for it")
                        what = leaf.value
                    else:
                        if any(e.kind is not Kind.SAFE for e in evidence):
                            continue  # an array, a container, ...: data indeed
                        if sizes is None:
                            sizes = _sizes(nnx_class)
                        if name not in sizes:
                            continue
                        what = "an int"
                        symptom = (f"it is traced, and `{analysis.snippet(sizes[name])}` raises "
                                   "`TracerIntegerConversionError` under a transformation")
                    yield Report(assignment.target,
                                 f"`{cls}.{name}` is `nnx.data` around {what} "
                                 f"({analysis.located(value.inner)}): a child, so {symptom} (assign it without "
                                 "`nnx.data`: NNX keeps configuration static)", target=cls, member=name,
                                 fix=_unwrap(analysis, value))


def _sizes(nnx_class) -> dict[str, ast.AST]:
    """The attributes the class's methods use as a size: `range(self.n)`, `jnp.zeros((self.n, ...))`'s
    shape is not judged here (only `range`, the measured case)."""
    found: dict[str, ast.AST] = {}
    for method in nnx_class.cls.methods.values():
        self_name = method.self_name
        for call in method.nodes(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == "range":
                for argument in call.args:
                    if isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name) \
                            and argument.value.id == self_name:
                        found.setdefault(argument.attr, call)
    return found


def _unwrap(analysis, value) -> FixPlan | None:
    if not analysis.fixes_requested:
        return None
    inner = analysis.snippet(value.inner).replace("{", "{{").replace("}", "}}")
    return FixPlan(f"assign `{inner}` without `nnx.data`", True, Codemod.UNWRAP, value.node)
