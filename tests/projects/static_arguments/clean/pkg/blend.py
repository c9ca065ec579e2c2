"""A jitted function tracing the weights another module's function gives it as an array."""
import jax
import jax.numpy as jnp


@jax.jit
def blend(x, weights):
    return jnp.sum(x * weights)


def reproduce():
    from .mix import mix

    return mix(jnp.ones(3), jnp.ones(3))
