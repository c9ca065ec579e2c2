# expected: none
# near PTL404/PTL401: depth and width are plain int fields and activation a function field of an eqx.Module, but eqx.filter_jit treats non-array leaves as static
"""A residual MLP classifier for two interleaved moons, trained with equinox."""
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp


class ResidualMLP(eqx.Module):
    w_in: jax.Array
    blocks: list
    w_out: jax.Array
    depth: int
    width: int
    activation: Callable

    def __init__(self, key, d_in, width, depth, n_classes, activation=jax.nn.gelu):
        keys = jax.random.split(key, depth + 2)
        self.w_in = jax.random.normal(keys[0], (d_in, width)) / jnp.sqrt(d_in)
        self.blocks = [jax.random.normal(k, (width, width)) / jnp.sqrt(width) for k in keys[1:-1]]
        self.w_out = jax.random.normal(keys[-1], (width, n_classes)) / jnp.sqrt(width)
        self.depth = depth
        self.width = width
        self.activation = activation

    def __call__(self, x):
        h = x @ self.w_in + jnp.zeros((self.width,))
        for i in range(self.depth):
            h = h + self.activation(h @ self.blocks[i]) / self.depth
        return h @ self.w_out


def two_moons(key, n):
    k1, k2 = jax.random.split(key)
    t = jax.random.uniform(k1, (n,)) * jnp.pi
    labels = (jnp.arange(n) % 2).astype(jnp.int32)
    x = jnp.where(labels[:, None] == 0,
                  jnp.stack([jnp.cos(t), jnp.sin(t)], 1),
                  jnp.stack([1 - jnp.cos(t), 0.5 - jnp.sin(t)], 1))
    return x + 0.1 * jax.random.normal(k2, (n, 2)), labels


def loss_fn(model, x, y):
    logits = jax.vmap(model)(x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


@eqx.filter_jit
def train_step(model, x, y, lr=0.1):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates = jax.tree_util.tree_map(lambda g: -lr * g, grads)
    return eqx.apply_updates(model, updates), loss


def examples():
    key = jax.random.PRNGKey(0)
    return [ResidualMLP(key, 2, 16, 3, 2), ResidualMLP(key, 2, 16, 3, 2)]


def reproduce():
    key = jax.random.PRNGKey(1)
    x, y = two_moons(key, 200)
    model = ResidualMLP(key, 2, 16, 3, 2)
    for _ in range(50):
        model, loss = train_step(model, x, y)
    return float(loss)
