# expected: PTL401
# misuse: MLP.tree_flatten returns self.activation (a functools.partial) among the children, so jit sees a non-array leaf; report line 35
"""A two-layer MLP regressor whose activation is a leaky ReLU with a tunable slope."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


def leaky_relu(x, negative_slope):
    return jnp.where(x >= 0, x, negative_slope * x)


@register_pytree_node_class
class MLP:
    def __init__(self, w1, b1, w2, b2, slope=0.01):
        self.w1 = w1
        self.b1 = b1
        self.w2 = w2
        self.b2 = b2
        self.activation = partial(leaky_relu, negative_slope=slope)

    @classmethod
    def init(cls, key, d_in, d_hidden, d_out, slope=0.01):
        k1, k2 = jax.random.split(key)
        w1 = jax.random.normal(k1, (d_in, d_hidden)) / jnp.sqrt(d_in)
        w2 = jax.random.normal(k2, (d_hidden, d_out)) / jnp.sqrt(d_hidden)
        return cls(w1, jnp.zeros(d_hidden), w2, jnp.zeros(d_out), slope)

    def __call__(self, x):
        return self.activation(x @ self.w1 + self.b1) @ self.w2 + self.b2

    def tree_flatten(self):
        return (self.w1, self.b1, self.w2, self.b2, self.activation), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.w1, obj.b1, obj.w2, obj.b2, obj.activation = children
        return obj


def mse_loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@jax.jit
def sgd_step(model, x, y, lr=1e-2):
    loss, grads = jax.value_and_grad(mse_loss)(model, x, y)
    new_model = jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)
    return new_model, loss


def examples():
    key = jax.random.PRNGKey(0)
    return [MLP.init(key, 3, 16, 1), MLP.init(key, 3, 16, 1)]


def reproduce():
    key = jax.random.PRNGKey(1)
    model = MLP.init(key, 3, 16, 1)
    x = jax.random.normal(key, (64, 3))
    y = jnp.sin(x).sum(axis=1, keepdims=True)
    for _ in range(3):
        model, loss = sgd_step(model, x, y)
    return float(loss)
