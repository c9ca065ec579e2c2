"""A stage two modules away from its base, through a stage of another module, all inheriting the base's
flatten: its config is a tuple of floats, hashable."""
from .gain import Gain


class Loud(Gain):
    def __init__(self, signal, factor):
        super().__init__(signal, factor)
        self.config = (float(factor), float(factor))
