# expected: PTL402
# misuse: fit is jitted with only num_steps static while its `cfg: OptConfig` argument carries the str field `schedule` as a leaf; report line 39
"""Linear least squares fitted by momentum SGD with a named learning-rate schedule."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class OptConfig(NamedTuple):
    learning_rate: float
    momentum: float
    schedule: str


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


def loss_fn(params, x, y):
    return jnp.mean((x @ params.w + params.b - y) ** 2)


def schedule_value(cfg, step, num_steps):
    if cfg.schedule == "cosine":
        return cfg.learning_rate * 0.5 * (1 + jnp.cos(jnp.pi * step / num_steps))
    return cfg.learning_rate


def momentum_update(params, velocity, grads, lr, momentum):
    velocity = jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, grads)
    params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
    return params, velocity


@partial(jax.jit, static_argnames=("num_steps",))
def fit(params: Params, x, y, cfg: OptConfig, num_steps: int):
    def body(step, carry):
        p, v = carry
        grads = jax.grad(loss_fn)(p, x, y)
        return momentum_update(p, v, grads, schedule_value(cfg, step, num_steps), cfg.momentum)

    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    params, _ = jax.lax.fori_loop(0, num_steps, body, (params, velocity))
    return params, loss_fn(params, x, y)


def examples():
    return [OptConfig(0.05, 0.9, "cosine"), OptConfig(0.05, 0.9, "cosine")]


def reproduce():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (128, 4))
    y = x @ jnp.array([1.0, -2.0, 0.5, 3.0]) + 0.1
    params = Params(jnp.zeros(4), jnp.zeros(()))
    cfg = OptConfig(learning_rate=0.05, momentum=0.9, schedule="cosine")
    params, loss = fit(params, x, y, cfg, num_steps=100)
    return float(loss)
