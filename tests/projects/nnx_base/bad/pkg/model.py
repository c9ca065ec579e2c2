import jax.numpy as jnp

from .layers import Layer


class Bank(Layer):
    def __init__(self, count: int, width: int):
        self.filters = [jnp.zeros((width, width)) for _ in range(count)]  # expect: PTL501


def reproduce():
    return Bank(2, 3)
