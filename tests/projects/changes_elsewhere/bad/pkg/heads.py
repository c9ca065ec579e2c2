"""An NNX block whose plain dict of sublayers another module's function fills while the block is built:
NNX makes the dict a static attribute, and holding layers there raises."""
from flax import nnx

from .layers import fill_heads


class Heads(nnx.Module):
    def __init__(self, dim: int, rngs: nnx.Rngs):
        self.heads = {}  # expect: PTL501
        fill_heads(self, dim, rngs)

    def __call__(self, x):
        return sum(head(x) for head in self.heads.values())


def reproduce():
    return Heads(4, nnx.Rngs(0))
