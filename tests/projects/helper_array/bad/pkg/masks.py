"""Mask helpers shared by the models."""
import jax.numpy as jnp


def make_mask(n, k):
    """True for the first `k` of `n` positions."""
    return jnp.arange(n) < k
