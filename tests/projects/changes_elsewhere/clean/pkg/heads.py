"""An NNX block whose sublayers another module's function puts into an `nnx.Dict` while the block is
built: data, as NNX needs."""
from flax import nnx

from .layers import fill_heads


class Heads(nnx.Module):
    def __init__(self, dim: int, rngs: nnx.Rngs):
        self.heads = nnx.Dict()
        self.names = []  # expect: PTL901
        fill_heads(self, dim, rngs)

    def __call__(self, x):
        return sum(head(x) for head in self.heads.values())


def reproduce():
    return Heads(4, nnx.Rngs(0))
