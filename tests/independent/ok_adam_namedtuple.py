# expected: none
# near PTL402/PTL403: AdamHyper is a NamedTuple of floats only; the static positions get an int, a str and a frozenset, while the list-valued params and state go to traced positions
"""Adam on a small MLP regression problem with NamedTuple optimizer state."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamHyper(NamedTuple):
    lr: float = 1e-2
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8


class AdamState(NamedTuple):
    count: jax.Array
    mu: list
    nu: list


def init_mlp(key, layer_sizes):
    keys = jax.random.split(key, len(layer_sizes) - 1)
    return [(jax.random.normal(k, (m, n)) / jnp.sqrt(m), jnp.zeros(n))
            for k, m, n in zip(keys, layer_sizes[:-1], layer_sizes[1:])]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss_fn(params, x, y, decay_layers):
    l2 = sum(jnp.sum(params[i][0] ** 2) for i in sorted(decay_layers))
    return jnp.mean((mlp(params, x) - y) ** 2) + 1e-4 * l2


@partial(jax.jit, static_argnames=("schedule", "decay_layers"), static_argnums=(5,))
def adam_step(params, state: AdamState, hyper: AdamHyper, x, y, total, schedule="constant",
              decay_layers=frozenset()):
    grads = jax.grad(loss_fn)(params, x, y, decay_layers)
    count = state.count + 1
    lr = hyper.lr * (jnp.minimum(1.0, count / (0.1 * total)) if schedule == "warmup" else 1.0)
    mu = jax.tree_util.tree_map(lambda m, g: hyper.b1 * m + (1 - hyper.b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: hyper.b2 * v + (1 - hyper.b2) * g ** 2, state.nu, grads)
    step = lambda p, m, v: p - lr * (m / (1 - hyper.b1 ** count)) / (jnp.sqrt(v / (1 - hyper.b2 ** count)) + hyper.eps)
    return jax.tree_util.tree_map(step, params, mu, nu), AdamState(count, mu, nu)


def examples():
    return [AdamHyper(1e-2, 0.9, 0.999, 1e-8), AdamHyper(1e-2, 0.9, 0.999, 1e-8)]


def reproduce(total=60):
    key = jax.random.PRNGKey(0)
    x = jax.random.uniform(key, (256, 1), minval=-2.0, maxval=2.0)
    y = jnp.sin(2.0 * x)
    params = init_mlp(key, (1, 32, 32, 1))
    zeros = lambda: [jax.tree_util.tree_map(jnp.zeros_like, layer) for layer in params]
    state = AdamState(jnp.zeros((), jnp.int32), zeros(), zeros())
    for _ in range(total):
        params, state = adam_step(params, state, AdamHyper(lr=3e-3), x, y, total,
                                  schedule="warmup", decay_layers=frozenset({0, 1}))
    return float(loss_fn(params, x, y, frozenset()))
