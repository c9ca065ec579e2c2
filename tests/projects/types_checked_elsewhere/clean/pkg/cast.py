import jax.numpy as jnp
import numpy as np

SCALARS = (int, float, np.integer, np.floating)


def to_int(x):
    """An int of a number, an integer array of an array (as the caller gave)."""
    if isinstance(x, SCALARS):
        return int(x)
    return jnp.astype(x, int)


def to_float(x):
    return float(x) if isinstance(x, SCALARS) else jnp.asarray(x, dtype=float)
