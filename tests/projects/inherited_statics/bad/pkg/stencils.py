"""Bases whose static fields the subclasses of another module inherit (pkg/scaled.py), built there with
arrays in them: reported at the declaration, as a subclass of the same module's is."""
from typing import Any

from flax import struct


class Stencil(struct.PyTreeNode):
    """A subclass is a pytree by deriving from it, and keeps `weights` static."""

    weights: Any = struct.field(pytree_node=False)  # expect: PTL101
    scale: Any = 1.0


@struct.dataclass
class Kernel:
    """A subclass decorated too keeps `taps` static."""

    taps: Any = struct.field(pytree_node=False)  # expect: PTL101


def stencil(n):
    return Stencil(weights=(1.0,) * n)


def examples():
    from .scaled import scaled, wide

    return [scaled(3), scaled(3), wide(3), wide(3)]
