"""A class that pkg/registry.py registers by the keyed methods it inherits from pkg/mixins.py: its `__init__`
checks the values."""
from .mixins import KeyedMixin


class Plate(KeyedMixin):
    def __init__(self, x):
        if (x < 0).any():
            raise ValueError("a plate's values are not negative")
        self.x = x
