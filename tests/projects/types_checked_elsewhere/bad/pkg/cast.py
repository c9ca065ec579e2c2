import jax.numpy as jnp


def to_ints(x):
    """An integer array, whatever the caller gave (a list of counts too)."""
    return jnp.astype(jnp.asarray(x), int)
