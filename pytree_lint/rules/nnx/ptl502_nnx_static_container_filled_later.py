"""PTL502 nnx-static-container-filled-later

What it does:
    Finds, in a Flax NNX pytree class, a plain list or dict that the constructor makes (empty, or of
    static values) and another method fills with Modules, Variables, arrays, containers of them or the
    results of calls (`self.layers.append(nnx.Linear(...))`, `self.layers.extend([...])`,
    `self.rows.append([nnx.Linear(...), ...])`, `self.cache[k] = self.proj(x)`).

Why is this bad:
    The attribute was static when the constructor assigned it, and NNX checks data only when an attribute
    is assigned: what another method puts into the container stays static. Nothing raises (measured,
    flax 0.12.8): `nnx.state(model, nnx.Param)` and `nnx.grad` see 0 of its parameters, so they are
    never trained; `nnx.jit` raises `Cannot extract graph node from different trace level`; call results
    stored there are tracers that leak (`UnexpectedTracerError` later).

Example:
    class Stack(nnx.Module):
        def __init__(self):
            self.layers = []                                     # PTL502

        def add_layer(self, rngs):
            self.layers.append(nnx.Linear(4, 4, rngs=rngs))

Use instead:
    `self.layers = nnx.List()` (`nnx.Dict()` for a dict) in the constructor: the fix, safe, since the
    container is read and changed the same way; not safe when a plain list or dict holding data goes into
    it (`self.rows.append([nnx.Linear(...)])`): that one needs `nnx.List([...])` too.

Known false positives:
    None known. A container the constructor itself fills with data is PTL501 (NNX raises there); one that
    receives ints, strings or other static values is a static list (PTL102 when it is changed in place); a
    registry filled while building and then handed to `nnx.List`/`nnx.Dict` or deleted is quiet, and so is a
    class of flax 0.10's NNX (`experimental_pytree=`), whose lists were data.

Known limits:
    Only containers filled through the instance (`self.layers.append(...)`, `self.cache[k] = ...`) in the
    class's own methods are seen; one filled from outside the class (`model.layers.append(...)`) is not.
"""

from __future__ import annotations

import ast

from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.observe import hidden_params
from ...runtime.probes import StateProbe
from ..base import Report, Rule
from .common import wrap_filled

WRAPPERS = {"list": "List", "dict": "Dict"}


class NnxStaticContainerFilledLater(Rule):
    code = "PTL502"
    name = "nnx-static-container-filled-later"
    triggers = NNX_TRIGGERS
    summary = "a static NNX list or dict is filled with Modules, Variables or arrays after the constructor"
    runtime = StateProbe(hidden_params)

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            cls = nnx_class.cls.name
            for name, fillings in nnx_class.fillings.items():
                first = nnx_class.made_static(name)
                if first is None or first.value.container not in WRAPPERS:
                    continue
                later = next((f for f in fillings if f.method is not first.method
                              and (f.value.is_data or _call_result(f))), None)
                if later is None or analysis.nnx.handed_over(nnx_class, name):
                    continue
                wrapper = WRAPPERS[first.value.container]
                yield Report(first.target,
                             f"`{cls}.{name}` is made a static {first.value.container} here and "
                             f"`{later.filler}()` puts {later.value.what} into it "
                             f"({analysis.located(later.node)}): it stays static, so `nnx.state(model, "
                             "nnx.Param)` and `nnx.grad` see none of it and it is never "
                             f"trained, and `nnx.jit` raises (use `nnx.{wrapper}()`)",
                             target=cls, member=name, fix=wrap_filled(analysis, first.value, wrapper, later.value))


def _call_result(filling) -> bool:
    """The result of calling a method or sub-Module of the instance (`self.proj(x)`): an array, and a
    tracer under a transformation."""
    node = filling.value.node
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and filling.method is not None
            and isinstance(node.func.value, ast.Name) and node.func.value.id == filling.method.self_name)
