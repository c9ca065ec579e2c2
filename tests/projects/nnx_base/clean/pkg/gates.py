from flax import nnx

from .layers import Gated


class GatedProjection(Gated):
    def __init__(self, width: int, gated: bool, rngs: nnx.Rngs):
        self.gate = None
        if gated:
            self.gate = nnx.Linear(width, width, rngs=rngs)
