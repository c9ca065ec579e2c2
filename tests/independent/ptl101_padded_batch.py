# expected: PTL101
# misuse: line 14 -- the field declaration `mask: jax.Array` is listed in meta_fields; from_lengths assigns it xp.arange(max_len)[None, :] < xp.asarray(lengths)[:, None] (line 20), a (batch, max_len) jax array
"""Padded batch of variable-length sequences with a precomputed validity mask."""
import dataclasses

import jax
from jax import numpy as xp
from jax import tree_util


@dataclasses.dataclass
class PaddedBatch:
    tokens: jax.Array
    mask: jax.Array
    max_len: int

    @classmethod
    def from_lengths(cls, tokens, lengths):
        max_len = tokens.shape[1]
        mask = xp.arange(max_len)[None, :] < xp.asarray(lengths)[:, None]
        return cls(tokens=tokens, mask=mask, max_len=max_len)

    def masked_mean(self):
        total = xp.sum(xp.where(self.mask, self.tokens, 0.0), axis=1)
        return total / xp.maximum(self.mask.sum(axis=1), 1)


tree_util.register_dataclass(
    PaddedBatch, data_fields=["tokens"], meta_fields=["mask", "max_len"]
)


def examples():
    tokens = xp.arange(12.0).reshape(3, 4)
    return [
        PaddedBatch.from_lengths(tokens, [4, 2, 3]),
        PaddedBatch.from_lengths(tokens, [4, 2, 3]),
    ]
