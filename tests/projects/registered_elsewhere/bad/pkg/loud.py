"""A stage two modules away from its base, through a stage of another module, all inheriting the base's
flatten: its config is an array, and the second jitted call with a new, equal config raises."""
import jax.numpy as jnp

from .gain import Gain


class Loud(Gain):
    def __init__(self, signal, factor):
        super().__init__(signal, factor)
        self.config = jnp.full(2, factor)
