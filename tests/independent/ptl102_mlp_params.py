# expected: PTL102
# misuse: line 32 -- the flatten lambda returns m.layer_sizes as aux_data; MLP.init passes list(sizes) (line 22) to the constructor, which stores it as self.layer_sizes
"""Tiny multilayer perceptron whose parameters are a pytree."""
import jax
import jax.numpy as jnp


class MLP:
    def __init__(self, weights, biases, layer_sizes):
        self.weights = weights
        self.biases = biases
        self.layer_sizes = layer_sizes

    @classmethod
    def init(cls, key, sizes):
        keys = jax.random.split(key, len(sizes) - 1)
        weights = tuple(
            jax.random.normal(k, (m, n)) / jnp.sqrt(m)
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])
        )
        biases = tuple(jnp.zeros(n) for n in sizes[1:])
        return cls(weights, biases, list(sizes))

    def __call__(self, x):
        for w, b in zip(self.weights[:-1], self.biases[:-1]):
            x = jax.nn.relu(x @ w + b)
        return x @ self.weights[-1] + self.biases[-1]


jax.tree_util.register_pytree_node(
    MLP,
    lambda m: ((m.weights, m.biases), m.layer_sizes),
    lambda sizes, ch: MLP(ch[0], ch[1], sizes),
)


def examples():
    key = jax.random.PRNGKey(0)
    return [MLP.init(key, (4, 8, 2)), MLP.init(key, (4, 8, 2))]
