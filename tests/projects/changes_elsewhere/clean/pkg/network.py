"""An NNX network that grows: another module's function appends layers to its `nnx.List`, so they are
data and trained."""
from flax import nnx

from .layers import add_layer


class Tower(nnx.Module):
    def __init__(self, dim: int):
        self.dim = dim
        self.layers = nnx.List()

    def grow(self, rngs: nnx.Rngs):
        add_layer(self, rngs)

    def __call__(self, x):
        for layer in self.layers:
            x = nnx.relu(layer(x))
        return x


def reproduce():
    tower = Tower(4)
    tower.grow(nnx.Rngs(0))
    return tower
