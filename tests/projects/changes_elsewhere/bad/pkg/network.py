"""An NNX network that grows: another module's function appends layers to its plain list after it is
built, so they stay static, and are never trained."""
from flax import nnx

from .layers import add_layer


class Tower(nnx.Module):
    def __init__(self, dim: int):
        self.dim = dim
        self.layers = []  # expect: PTL502

    def grow(self, rngs: nnx.Rngs):
        add_layer(self, rngs)

    def __call__(self, x):
        for layer in self.layers:
            x = nnx.relu(layer(x))
        return x


def reproduce():
    tower = Tower(4)
    tower.grow(nnx.Rngs(0))
    tower.grow(nnx.Rngs(1))
    return tower
