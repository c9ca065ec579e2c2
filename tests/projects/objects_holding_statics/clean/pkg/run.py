"""Correct: the objects convert what they are built with (see padding.py)."""
from .configs import default_config
from .padding import Padder, pad, piecewise
from .schedules import default_schedule


def pad_with_config(x):
    config = default_config()
    return pad(x, widths=config.widths)


def scheduled(step):
    return piecewise(step, default_schedule().boundaries)


def pad_twice(x):
    return Padder([(2, 2)])(x)
