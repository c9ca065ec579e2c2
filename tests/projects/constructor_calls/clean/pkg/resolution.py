"""A class registered static with value equality (a frozen dataclass): another module builds one per call,
and equal ones are one cache entry."""
from dataclasses import dataclass

from jax.tree_util import register_static


@register_static
@dataclass(frozen=True)
class Resolution:
    height: int
    width: int
