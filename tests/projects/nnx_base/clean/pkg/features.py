import jax.numpy as jnp
from flax import nnx

from . import layers

Table = layers.Table


class Features(layers.Layer):
    def __init__(self, names: tuple[str, ...], *, kind: Table | nnx.Param = Table):
        self.tables = nnx.Dict({name: kind(jnp.zeros(3)) for name in names})
