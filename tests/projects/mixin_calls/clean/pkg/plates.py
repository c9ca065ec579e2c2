"""Classes inheriting pkg/mixins.py's keyed methods, each validating: pkg/registry.py registers one as static
(JAX never flattens it) and only mentions the other."""
from .mixins import KeyedMixin


class Plate(KeyedMixin):
    def __init__(self, x):
        if (x < 0).any():
            raise ValueError("a plate's values are not negative")
        self.x = x


class Sheet(KeyedMixin):
    def __init__(self, x):
        if (x < 0).any():
            raise ValueError("a sheet's values are not negative")
        self.x = x
