# expected: none
# no misuse: aux_data is (AttnConfig, Precision); AttnConfig is a frozen dataclass (value __eq__/__hash__) built per instance in create(), Precision is an Enum member
"""Multi-head attention parameters with a frozen hyperparameter config."""
import enum
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import jax.tree_util as jtu


class Precision(enum.Enum):
    DEFAULT = "default"
    HIGHEST = "highest"


@dataclass(frozen=True)
class AttnConfig:
    num_heads: int
    head_dim: int
    causal: bool = True
    dropout: float = 0.0


class Attention:
    def __init__(self, wq, wk, wv, config, precision=Precision.DEFAULT):
        self.wq, self.wk, self.wv = wq, wk, wv
        self.config = config
        self.precision = precision

    @classmethod
    def create(cls, wq, wk, wv, num_heads, head_dim, causal=True,
               precision=Precision.DEFAULT):
        return cls(wq, wk, wv, AttnConfig(num_heads, head_dim, causal), precision)

    def __call__(self, x):
        cfg = self.config
        t = x.shape[0]
        split = lambda y: y.reshape(t, cfg.num_heads, cfg.head_dim)
        q, k, v = split(x @ self.wq), split(x @ self.wk), split(x @ self.wv)
        logits = jnp.einsum("thd,shd->hts", q, k,
                            precision=self.precision.value) / jnp.sqrt(cfg.head_dim)
        if cfg.causal:
            logits = jnp.where(jnp.tril(jnp.ones((t, t), bool)), logits, -jnp.inf)
        out = jnp.einsum("hts,shd->thd", jax.nn.softmax(logits, -1), v)
        return out.reshape(t, -1)


jtu.register_pytree_node(
    Attention,
    lambda a: ((a.wq, a.wk, a.wv), (a.config, a.precision)),
    lambda aux, ch: Attention(*ch, *aux),
)


def examples():
    w = jnp.eye(4)
    return [Attention.create(w, w, w, 2, 2), Attention.create(w, w, w, 2, 2)]
