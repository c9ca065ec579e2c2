import dataclasses

import jax
from flax import struct


def pytree_dataclass(cls):
    return jax.tree_util.register_dataclass(dataclasses.dataclass(cls))


def frozen(cls):
    return struct.dataclass(cls)
