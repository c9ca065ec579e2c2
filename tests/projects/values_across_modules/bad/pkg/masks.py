"""Mask primitives."""
import jax.numpy as jnp


def prefix_mask(n, k):
    """True for the first `k` of `n` positions."""
    return jnp.arange(n) < k
