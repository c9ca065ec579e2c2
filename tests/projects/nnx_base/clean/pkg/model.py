import jax.numpy as jnp

from .layers import Layer


class Bank(Layer):
    def __init__(self, count: int, width: int):
        self.filters = jnp.zeros((count, width, width))
        self.widths = (width,) * count
