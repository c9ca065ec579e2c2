"""Subclasses of pkg/stencils.py's classes that keep no array static."""
from typing import Any

import numpy as np
from flax import struct

from .stencils import Kernel, Stencil


class ScaledStencil(Stencil):
    weights: Any = None  # a child here: an array is a leaf
    order: int = struct.field(pytree_node=False, default=2)


class LoggedKernel(Kernel):
    """Not decorated: JAX registers `Kernel` alone, so this is a host-side record, never a pytree."""

    width: int = 1


class RoundStencil(Stencil):
    pass


def scaled(n):
    return ScaledStencil(weights=np.ones(n), scale=2.0)


def logged(n):
    return LoggedKernel(taps=np.ones(n), width=n)


def rounded(n):
    return RoundStencil(weights=(0.5,) * n)
