# expected: none
# near PTL402: the jitted functions take a NamedTuple of arrays only, and a register_dataclass batch whose `split: str` is a static (metadata) field.
"""Logistic-regression train/eval steps over labelled batches."""
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Batch:
    features: jax.Array
    labels: jax.Array
    split: str = dataclasses.field(default="train", metadata=dict(static=True))


def toy_data(n=64, dim=5, seed=0):
    kx, kw = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(kx, (n, dim))
    y = (x @ jax.random.normal(kw, (dim,)) > 0).astype(jnp.float32)
    return x, y


def loss_fn(params: Params, batch: Batch):
    z = batch.features @ params.w + params.b
    return jnp.mean(jax.nn.softplus(z) - batch.labels * z)


@jax.jit
def train_step(params: Params, batch: Batch, lr: float = 0.5) -> Params:
    grads = jax.grad(loss_fn)(params, batch)
    return Params(*(p - lr * g for p, g in zip(params, grads)))


@jax.jit
def eval_step(params: Params, batch: Batch):
    z = batch.features @ params.w + params.b
    acc = jnp.mean((z > 0).astype(jnp.float32) == batch.labels)
    return loss_fn(params, batch), acc


def examples():
    x, y = toy_data()
    return [Batch(x[:16], y[:16], "train"), Batch(x[:16], y[:16], "train")]


def reproduce():
    x, y = toy_data()
    params = Params(jnp.zeros(x.shape[1]), jnp.zeros(()))
    for _ in range(20):
        for i in range(0, 48, 16):
            params = train_step(params, Batch(x[i:i + 16], y[i:i + 16], "train"))
    loss, acc = eval_step(params, Batch(x[48:], y[48:], "valid"))
    return float(loss), float(acc), train_step._cache_size()
