# expected: PTL103
# misuse: line 22 -- tree_flatten returns self.activation as aux_data; __init__ assigns it functools.partial(jax.nn.leaky_relu, negative_slope=...) (line 15), a new partial object (no value equality) per instance
"""Dense layer with a configurable leaky-ReLU slope."""
import functools

import jax
import jax.numpy as jnp
from jax import tree_util


class Dense:
    def __init__(self, w, b, negative_slope=0.01):
        self.w = w
        self.b = b
        self.activation = functools.partial(jax.nn.leaky_relu,
                                            negative_slope=negative_slope)

    def __call__(self, x):
        return self.activation(x @ self.w + self.b)

    def tree_flatten(self):
        return (self.w, self.b), self.activation

    @classmethod
    def tree_unflatten(cls, activation, children):
        layer = cls.__new__(cls)
        layer.w, layer.b = children
        layer.activation = activation
        return layer


tree_util.register_pytree_node_class(Dense)


def examples():
    w = jnp.eye(3)
    b = jnp.zeros(3)
    return [Dense(w, b, 0.1), Dense(w, b, 0.1)]
