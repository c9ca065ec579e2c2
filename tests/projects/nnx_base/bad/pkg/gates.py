from flax import nnx

from .layers import Gated


class GatedProjection(Gated):
    def __init__(self, width: int, gated: bool, rngs: nnx.Rngs):
        self.gate = None  # expect: PTL503
        if gated:
            self.gate = nnx.Linear(width, width, rngs=rngs)


def reproduce():
    return GatedProjection(3, True, nnx.Rngs(0))
