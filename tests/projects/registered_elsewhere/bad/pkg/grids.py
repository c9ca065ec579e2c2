"""Grids another module registers in a loop: the coarse grid keeps its array of spacings in aux_data, and
the second jitted call with a new, equal grid raises."""
import jax.numpy as jnp


class Fine:
    def __init__(self, values):
        self.values = values

    def flatten(self):
        return (self.values,), None

    @classmethod
    def unflatten(cls, aux, children):
        return cls(children[0])


class Coarse:
    def __init__(self, values, n):
        self.values = values
        self.spacing = jnp.full(n, 1.0 / n)

    def flatten(self):
        return (self.values,), self.spacing  # expect: PTL101

    @classmethod
    def unflatten(cls, spacing, children):
        made = object.__new__(cls)
        made.values, made.spacing = children[0], spacing
        return made


def examples():
    from . import registry  # noqa: F401  (registers the grids)

    return [Coarse(jnp.ones(4), 2), Coarse(jnp.ones(4), 2)]
