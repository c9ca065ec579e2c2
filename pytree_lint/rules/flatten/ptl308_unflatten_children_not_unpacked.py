"""PTL308 unflatten-children-not-unpacked

What it does:
    Finds an unflatten that passes the children sequence itself as one constructor argument
    (`cls(children)`, `cls(aux, children)`, `cls(base=children)`) where every flatten returns a display of
    children (`(self.base,)`, `(self.w, self.b)`) that includes the attribute that argument fills.

Why is this bad:
    JAX gives unflatten the children as a tuple, so the rebuilt object holds that tuple where it held one
    child. Nothing raises (measured, jax 0.10.2): with flatten `(self.base,)`, `jax.tree.map(lambda x: x,
    w).base` is `(Array([1., 1., 1.]),)`, `jax.jit(lambda t: t)(w).base` is `((Array([1., 1., 1.]),),)`,
    one more level at each round trip, and `jax.jit(lambda t: t.base * 2)(w)` silently returns a tuple.

Example:
    def tree_flatten(self):
        return (self.base,), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children)                    # PTL308

Use instead:
    Unpack the children: `cls(*children)`, or `(base,) = children; return cls(base)`.

Known false positives:
    None known. Not reported: a flatten that returns one attribute holding a sequence as the children
    (`return self.items, None` with `cls(children)` rebuilding `items` from it), a constructor that takes
    its argument apart (`self.a = a[0] if isinstance(a, tuple) else a`, or `self.a, self.b = parts`), and
    an unflatten that rebinds the children's name (`children = children[0]`).

Known limits:
    The constructor must be the class's `__init__` or dataclass fields, seen in this module, its
    parameter positional or named (not keyword-only), and the children a tuple or list display in every
    flatten.
"""

from __future__ import annotations

from typing import Any

from ...runtime.observe import Outcome, jax_module, members
from ...runtime.probes import ExamplesProbe
from ..base import Report, Rule


def probe_rebuilt_members(examples: list[Any], target: str | None) -> Outcome:
    """A member that was no tuple before `jax.tree.map(lambda x: x, ...)` and is one after it."""
    example = examples[0]
    rebuilt = jax_module().tree.map(lambda x: x, example)
    before = dict(members(example))
    for name, value in members(rebuilt):
        if isinstance(value, tuple) and not isinstance(before.get(name), tuple):
            return Outcome("confirmed", f"jax.tree.map(lambda x: x, example){name} is a {len(value)}-tuple, "
                                        f"where the example held a {type(before.get(name)).__name__}")
    return Outcome("unconfirmed", "jax.tree.map(lambda x: x, example) kept every member's type")


class UnflattenChildrenNotUnpacked(Rule):
    code = "PTL308"
    name = "unflatten-children-not-unpacked"
    summary = "unflatten passes the children sequence itself as one constructor argument"
    runtime = ExamplesProbe(probe_rebuilt_members)

    def check(self, analysis):
        for registration in analysis.registrations:
            for whole in analysis.structure.children_passed_whole(registration):
                count, attribute = whole.count, whole.parameter.attribute
                among = "its only child" if count == 1 else f"one of its {count} children"
                yield Report(whole.call,
                             f"unflatten of {registration.class_named} passes the children sequence itself as "
                             f"`{whole.parameter.name}`, but flatten returns `{attribute}` as {among} "
                             f"({analysis.located(whole.flatten)}): the rebuilt `{attribute}` holds the whole "
                             f"{count}-tuple, and nothing raises; unpack them (`*children`)",
                             target=registration.target, member=attribute)
