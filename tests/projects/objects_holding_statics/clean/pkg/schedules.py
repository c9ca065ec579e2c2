"""Correct: the class keeps a tuple of what it is given."""
from dataclasses import dataclass


@dataclass
class Schedule:
    boundaries: list

    def __post_init__(self):
        self.boundaries = tuple(self.boundaries)


def default_schedule():
    boundaries = [10, 20]
    return Schedule(boundaries)
