from functools import partial

import jax

from .helpers import setup


@partial(jax.jit, static_argnums=1)
def step(params, config):
    return jax.tree.map(lambda p: p * config["decay"], params)


def train(params):
    config, _steps = setup()
    return step(params, config)  # expect: PTL403


def reproduce():
    import jax.numpy as jnp

    return train({"w": jnp.ones(3)})
