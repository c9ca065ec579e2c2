"""PTL503 nnx-static-then-data

What it does:
    Finds an attribute of a Flax NNX pytree class that the constructor first gives `None` or another
    static value (`self.head = None`) and that is later given a Module, Variable or array: by another
    method (`build_head()`), by code outside the class (`model.head = nnx.Linear(...)`), or further down
    the same constructor. Assignments in exclusive branches of one constructor are fine: NNX decides per
    instance.

Why is this bad:
    NNX makes the attribute static at its first assignment, and refuses data in it afterwards, but only
    when that later assignment runs (measured, flax 0.12.8): `ValueError: Cannot assign data value of type
    '<class 'flax.nnx.nn.linear.Linear'>' to static attribute 'head'`. A model that builds its head
    lazily passes its tests until the code path that builds it does.

Example:
    class Classifier(nnx.Module):
        def __init__(self, rngs):
            self.backbone = nnx.Linear(8, 8, rngs=rngs)
            self.head = None                                  # PTL503

        def build_head(self, classes, rngs):
            self.head = nnx.Linear(8, classes, rngs=rngs)

Use instead:
    `self.head = nnx.data(None)`: the attribute is data from the start (the fix, safe for `None`; shown,
    not applied, for another static value, which would become data).

Known false positives:
    None known. `nnx.data(None)`, `if ...: self.head = nnx.Linear(...) else: self.head = None`, and
    attributes that only ever hold static values are quiet, and so is a class of flax 0.10's NNX
    (`experimental_pytree=`), whose attributes could go from None to a Module.

Known limits:
    Later assignments are seen in the class's methods and at module level on an instance made there
    (`model = Model(...)`, then `model.head = ...`); one made in another function or module is not.
"""

from __future__ import annotations

from ...analysis.syntax.model import is_none
from ...analysis.values.kinds import NnxStatus as Status
from ...knowledge.triggers import NNX_TRIGGERS
from ...runtime.probes import ReproduceProbe
from ..base import Report, Rule
from .common import wrap


class NnxStaticThenData(Rule):
    code = "PTL503"
    name = "nnx-static-then-data"
    triggers = NNX_TRIGGERS
    summary = "an NNX attribute is first static (None, ...) and later given a Module, Variable or array"
    runtime = ReproduceProbe(("Cannot assign data value",), where="attribute")

    def check(self, analysis):
        for nnx_class in analysis.nnx.classes:
            cls = nnx_class.cls.name
            for name, group in nnx_class.assignments.items():
                first = nnx_class.made_static(name)
                if first is None or first.value.container is not None:
                    continue
                later = next((a for a in group if a.value.status is Status.DATA and not a.after_deletion
                              and nnx_class.runs_after(a, first)), None)
                if later is None:
                    continue
                where = "outside the class" if later.method is None else f"by `{later.method.name}()`"
                safe = is_none(first.value.node)
                yield Report(first.target,
                             f"`{cls}.{name}` is first {first.value.what}, so NNX makes it static, and is given "
                             f"{later.value.what} {where} ({analysis.located(later.statement)}): that assignment "
                             f"raises `ValueError: Cannot assign data value ... to static attribute '{name}'` "
                             f"(assign `nnx.data({analysis.snippet(first.value.node)})` here)",
                             target=cls, member=name,
                             fix=wrap(analysis, first.value, "data", safe, "" if safe else "unsafe: the value "
                                      "becomes data"))

