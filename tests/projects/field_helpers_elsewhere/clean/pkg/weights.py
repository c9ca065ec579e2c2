"""Array placeholders whose shape and axis names are static through the helpers of another module: a jitted
function given them sees no string leaf (jax-llm-examples' `ArrayInfo`, its helper in a module of its own)."""
import dataclasses

import jax

from .fields import static_axes, static_field


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class ArrayInfo:
    shape: tuple = static_axes()
    logical_axes: tuple = static_field()


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Weights:
    w: jax.Array | ArrayInfo

    @classmethod
    def abstract(cls):
        return Weights(w=ArrayInfo((3,), ("embed",)))


@jax.jit
def step(weights: Weights):
    return jax.tree.leaves(weights)
