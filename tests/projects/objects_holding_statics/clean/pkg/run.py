"""Correct: the objects convert what they are built with (see padding.py)."""
from .configs import default_config
from .padding import Padder, pad


def pad_with_config(x):
    config = default_config()
    return pad(x, widths=config.widths)


def pad_twice(x):
    return Padder([(2, 2)])(x)
