import jax.numpy as jnp

Array = jnp.ndarray
