"""PTL501 nnx-data-in-static-container

What it does:
    Finds, in a Flax NNX pytree class (a subclass of `nnx.Module` or `nnx.Pytree`, here or in another
    module of the project, not declared `pytree=False`), a plain list, dict or tuple holding Modules,
    Variables or arrays assigned to an attribute (`self.layers = [nnx.Linear(...) for ...]`), or an empty
    one that the constructor fills with them (`self.blocks = {}`, then `self.blocks[name] = nnx.Linear(...)`).

Why is this bad:
    NNX decides when an attribute is assigned whether it is data (a child) or static (part of the
    GraphDef). A plain container is static, and since flax 0.12.0 a static attribute may not hold data:
    building the object raises (measured, flax 0.12.8) `ValueError: Found data on value of type '<class
    'list'>' assigned to static attribute 'layers'`, or, for a container the constructor fills, `Found
    unexpected data on value of type <class 'dict'> in static attribute 'blocks'`; assigned by another
    method, calling that method raises.

Example:
    class MLP(nnx.Module):
        def __init__(self, depth, rngs: nnx.Rngs):
            self.layers = [nnx.Linear(8, 8, rngs=rngs) for _ in range(depth)]   # PTL501

Use instead:
    `self.layers = nnx.List([...])`, `self.blocks = nnx.Dict({...})` (the fix, safe for a list or dict:
    it is read and changed the same way), or `nnx.data(...)`. For a tuple the fix is shown, not applied:
    an `nnx.List` is no tuple.

Known false positives:
    None known. Classes declared `pytree=False`, classes of flax 0.10's NNX (`experimental_pytree=` in the
    class statement: their plain lists of Modules were data), containers of ints, strings or shapes, `nnx.List`,
    `nnx.Dict`, `nnx.Sequential` and `nnx.data([...])` are quiet, and so are attributes the class (or a base)
    declares data at class level (`layers: nnx.Data[list[nnx.Linear]]`, `= nnx.data(default=...)`).

Known limits:
    The data is recognised when it is made where it is stored (a constructor of `nnx.*` layers, Variables
    and the project's own NNX classes, arrays, annotated parameters), or through a local name every
    assignment of which reaching the use makes data (`block = Down(...)` in one loop, `block = Up(...)` in
    the next), or a parameter of a helper every call of which passes data (`add(self, block)`, here or in
    another module); a container built by a helper function is not judged.
"""

from __future__ import annotations

from ...analysis.pytrees.nnx import NnxAssignment, NnxValue
from ...analysis.values.kinds import NnxStatus as Status
from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule
from .common import wrap, wrap_filled

WRAPPERS = {"list": "List", "tuple": "List", "dict": "Dict"}
RAISES = {"assigned": "`ValueError: Found data on value of type '<class '{kind}'>' assigned to static attribute "
                      "'{name}'`",
          "filled": "`ValueError: Found unexpected data on value of type <class '{kind}'> in static attribute "
                    "'{name}'`"}


def _when(assignment: NnxAssignment, cls: str) -> str:
    """What raises: building the object (the constructor assigns it), calling the method that assigns it
    (`set_image()`), or setting it from outside the class."""
    if assignment.in_constructor:
        return f"building a `{cls}`"
    return f"calling `{assignment.method.name}()`" if assignment.method is not None else "setting it"


class NnxDataInStaticContainer(Rule):
    code = "PTL501"
    name = "nnx-data-in-static-container"
    triggers = NNX_TRIGGERS
    summary = "an NNX attribute is a plain list, dict or tuple holding Modules, Variables or arrays"
    runtime = ReproduceProbe(("Found data on value", "Found unexpected data"), where="attribute")

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            cls = nnx_class.cls.name
            for name, group in nnx_class.assignments.items():
                declared = nnx_class.first(name)  # made data by the constructor (`nnx.Dict({})`): it stays data
                data = declared is not None and declared.in_constructor and declared.value.status in (
                    Status.DATA, Status.EXPLICIT_DATA)
                for assignment in group:
                    value = assignment.value
                    if value.status is Status.CONTAINER_WITH_DATA and value.container in WRAPPERS and not (
                            data and assignment is not declared):
                        yield self._report(analysis, cls, name, assignment.target, value, "assigned",
                                           analysis.located(value.inner or value.node), _when(assignment, cls))
                first = nnx_class.made_static(name)
                if first is None or first.value.container not in WRAPPERS:
                    continue
                filled = next((f for f in nnx_class.fillings.get(name, ())
                               if f.method is first.method and f.value.is_data), None)
                if filled is not None:
                    yield self._report(analysis, cls, name, first.target, first.value, "filled",
                                       f"{filled.value.what} put in by {analysis.located(filled.node)}",
                                       f"building a `{cls}`", filled.value)

    @staticmethod
    def _report(analysis, cls: str, name: str, target, value, how: str, holding: str, when: str,
                put: NnxValue | None = None) -> Report:
        """`put`: what a filling of the constructor puts into it (see wrap_filled)."""
        kind = value.container
        wrapper = WRAPPERS[kind]
        message = (f"`{cls}.{name}` is a plain {kind} holding data ({holding}): NNX makes it a static "
                   f"attribute, and {when} raises {RAISES[how].format(kind=kind, name=name)} "
                   f"(use `nnx.{wrapper}(...)`)")
        if kind == "tuple":
            fix = wrap(analysis, value, wrapper, False, "unsafe: no longer a tuple")
        elif put is not None:
            fix = wrap_filled(analysis, value, wrapper, put)
        else:
            fix = wrap(analysis, value, wrapper, True)
        return Report(target, message, target=cls, member=name, fix=fix)
