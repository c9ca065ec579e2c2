# expected: PTL402
# misuse: eval_step is jitted and its `batch: Batch` argument is a NamedTuple whose `split: str` field is a pytree leaf, which jit rejects; report line 43 (the def of eval_step).
"""Logistic-regression evaluation loop over labelled batches."""
from typing import Iterator, NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    features: jax.Array  # (B, D)
    labels: jax.Array    # (B,) in {0, 1}
    split: str           # "train" / "valid" / "test", used for logging


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


def init_params(dim):
    return Params(jnp.zeros((dim,)), jnp.zeros(()))


def batches(x, y, batch_size, split) -> Iterator[Batch]:
    for start in range(0, x.shape[0], batch_size):
        yield Batch(x[start:start + batch_size], y[start:start + batch_size], split)


def toy_data(n=64, dim=5, seed=0):
    kx, kw = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(kx, (n, dim))
    w_true = jax.random.normal(kw, (dim,))
    y = (x @ w_true > 0).astype(jnp.int32)
    return x, y


def logits(params: Params, x):
    return x @ params.w + params.b


@jax.jit
def eval_step(params: Params, batch: Batch):
    z = logits(params, batch.features)
    loss = jnp.mean(jax.nn.softplus(z) - batch.labels * z)
    acc = jnp.mean((z > 0).astype(jnp.int32) == batch.labels)
    return loss, acc


def evaluate(params, x, y, split="valid"):
    metrics = []
    for batch in batches(x, y, 16, split):
        loss, acc = eval_step(params, batch)
        metrics.append((float(loss), float(acc)))
    print(f"[{split}] loss={sum(m[0] for m in metrics) / len(metrics):.3f}")
    return metrics


def examples():
    x, y = toy_data()
    return [Batch(x[:16], y[:16], "valid"), Batch(x[:16], y[:16], "valid")]


def reproduce():
    x, y = toy_data()
    return evaluate(init_params(x.shape[1]), x, y, split="valid")
