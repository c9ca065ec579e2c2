"""The bases of bad/, whose subclasses in pkg/scaled.py do not keep the static fields they inherit as
static with an array in them: one declares the field again as a child, one is no pytree (its base's
decorator registers the base alone), one is given numbers."""
from typing import Any

from flax import struct


class Stencil(struct.PyTreeNode):
    weights: Any = struct.field(pytree_node=False)
    scale: Any = 1.0


@struct.dataclass
class Kernel:
    taps: Any = struct.field(pytree_node=False)


def stencil(n):
    return Stencil(weights=(1.0,) * n)
