"""Default boxes: the metadata passes through a helper of this module to another module's builder; it is
a tuple of ints, hashable and equal for equal boxes."""
from .box_builders import build_box


def with_meta(x, meta):
    return build_box(x, meta)


def default_box(x):
    return with_meta(x, (0, 1))
