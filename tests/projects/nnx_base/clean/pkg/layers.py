"""The project's own base layer: every subclass is a Flax NNX pytree."""
from flax import nnx


class Layer(nnx.Module):
    """A layer that knows its name."""

    def describe(self):
        return type(self).__name__


class Table(nnx.Variable):
    """A lookup table the model learns."""


class Gated(Layer):
    """A layer whose gate subclasses build when they need one: declared data, so None first is fine."""

    gate: nnx.Data[nnx.Linear | None]
