"""A stepper that jits its step method once and keeps it on itself (`self.step`)."""
import jax


class Stepper:
    def __init__(self):
        self.step = jax.jit(self._step, static_argnums=1)

    def _step(self, x, sizes):
        return x * len(sizes)
