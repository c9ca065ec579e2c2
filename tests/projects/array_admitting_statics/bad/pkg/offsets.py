import jax.numpy as jnp


def zero_offsets(x):
    return jnp.zeros_like(x)
