"""Boxes whose aux_data is the int element of what another module's helpers return."""
from .halves import halves
from .helpers import split
from .model import Box


def boxed(values, keep):
    _mask, count = split(values, keep)
    return Box(values, count)


def boxed_by_halves(values):
    return Box(values, halves(values)[1])
