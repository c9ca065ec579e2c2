from functools import partial

import jax


@partial(jax.jit, static_argnums=(1,))
def step(params, config):
    return jax.tree.map(lambda p: p * (1 - config["decay"]), params)


@partial(jax.jit, static_argnames=("weights",))  # expect: PTL405
def weighted_sum(x, weights):
    return sum(w * x[i] for i, w in enumerate(weights))


def reproduce():
    import jax.numpy as jnp

    return weighted_sum(jnp.ones(3), weights=jnp.ones(3))
