# expected: PTL303
# misuse: tree_unflatten is declared (cls, children, aux_data) but JAX passes (aux_data, children), so weights and the (activation, name) strings trade places; report line 36 (the tree_unflatten def line).
"""A dense layer as a custom pytree, used in a small regression network."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda x: x}


@register_pytree_node_class
class Dense:
    def __init__(self, w, b, activation="relu", name="dense"):
        self.w = w
        self.b = b
        self.activation = activation
        self.name = name

    @classmethod
    def create(cls, key, n_in, n_out, activation="relu", name="dense"):
        w = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
        return cls(w, jnp.zeros((n_out,)), activation, name)

    def __call__(self, x):
        return ACTIVATIONS[self.activation](x @ self.w + self.b)

    def __repr__(self):
        return f"Dense(name={self.name!r}, activation={self.activation!r}, w={self.w!r})"

    def tree_flatten(self):
        children = (self.w, self.b)
        aux_data = (self.activation, self.name)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, children, aux_data):
        w, b = children
        activation, name = aux_data
        return cls(w, b, activation, name)


def mse(layers, x, y):
    for layer in layers:
        x = layer(x)
    return jnp.mean((x - y) ** 2)


@jax.jit
def sgd_step(layers, x, y, lr=1e-2):
    grads = jax.grad(mse)(layers, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, layers, grads)


def make_net(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    return [Dense.create(k1, 3, 8, "tanh", "hidden"), Dense.create(k2, 8, 1, "identity", "out")]


def examples():
    return [make_net()[0], make_net()[0]]
