"""A helper that builds boxes from what it is given."""
from .boxes import Box


def build_box(x, meta):
    return Box(x, meta)
