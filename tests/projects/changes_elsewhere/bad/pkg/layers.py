from __future__ import annotations

from typing import TYPE_CHECKING

from flax import nnx

if TYPE_CHECKING:
    from .heads import Heads
    from .network import Tower


def fill_heads(block: Heads, dim: int, rngs: nnx.Rngs) -> None:
    for name in ("query", "key"):
        block.heads[name] = nnx.Linear(dim, dim, rngs=rngs)


def add_layer(tower: Tower, rngs: nnx.Rngs) -> None:
    tower.layers.append(nnx.Linear(tower.dim, tower.dim, rngs=rngs))
