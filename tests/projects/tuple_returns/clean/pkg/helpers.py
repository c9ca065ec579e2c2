"""Helpers that return several values at once: a mask and a count, a config and a step count."""
import jax.numpy as jnp


def split(values, keep):
    return jnp.arange(values.shape[0]) < keep, int(keep)


def setup():
    return {"decay": 0.9}, 10
