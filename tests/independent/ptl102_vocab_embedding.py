# expected: PTL102
# misuse: line 14 -- the field `special_ids: dict[str, int]` is declared static via field(metadata=dict(static=True)); create() fills it with a dict comprehension (line 19) held by each instance
"""Token embedding table that remembers the ids of its special tokens."""
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Embedding:
    table: jax.Array
    special_ids: dict[str, int] = field(metadata=dict(static=True))

    @classmethod
    def create(cls, key, vocab_size, dim, specials=("<pad>", "<bos>", "<eos>")):
        table = jax.random.normal(key, (vocab_size, dim)) * 0.02
        special_ids = {tok: i for i, tok in enumerate(specials)}
        return cls(table=table, special_ids=special_ids)

    def __call__(self, ids):
        emb = self.table[ids]
        pad = self.special_ids["<pad>"]
        return jnp.where((ids == pad)[..., None], 0.0, emb)


def examples():
    key = jax.random.PRNGKey(1)
    return [Embedding.create(key, 16, 4), Embedding.create(key, 16, 4)]
