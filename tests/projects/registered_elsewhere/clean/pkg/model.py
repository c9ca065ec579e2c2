"""The classes, defined in a module of their own; another module registers them."""
import jax


class Scaled:
    def __init__(self, values: jax.Array, scale: float):
        self.values = values
        self.scale = scale


class Box:
    def __init__(self, low, high, dim: int):
        self.low = low
        self.high = high
        self.dim = dim
