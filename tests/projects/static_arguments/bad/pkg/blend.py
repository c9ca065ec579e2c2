"""A jitted function declaring static a parameter another module's function gives an array (its own
parameter annotated as one): every call raises, the declaration is what is wrong."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))  # expect: PTL405
def blend(x, weights):
    return jnp.sum(x * weights)


def reproduce():
    from .mix import mix

    return mix(jnp.ones(3), jnp.ones(3))
