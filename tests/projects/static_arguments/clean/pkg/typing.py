import jax

Array = jax.Array
