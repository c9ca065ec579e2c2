"""A builder of this module's own class, whose object another module reads an attribute of."""
from dataclasses import dataclass


@dataclass
class Schedule:
    boundaries: list


def default_schedule():
    boundaries = [10, 20]
    return Schedule(boundaries)
