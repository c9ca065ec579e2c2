"""A dataclass another module registers, naming `weights_mask` static: the module itself spells no
registering word."""
import dataclasses

import jax
import numpy as np


@dataclasses.dataclass
class Params:
    w: jax.Array
    weights_mask: np.ndarray  # expect: PTL101


def examples():
    import jax.numpy as jnp

    from . import register_params  # noqa: F401 (registers Params)

    return [Params(jnp.ones(3), np.array([True, False, True])), Params(jnp.ones(3), np.array([True, False, True]))]
