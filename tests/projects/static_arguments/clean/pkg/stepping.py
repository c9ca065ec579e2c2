import jax.numpy as jnp

from .stepper import Stepper


def fit(x):
    stepper = Stepper()
    return stepper.step(x, (3,))


def reproduce():
    return fit(jnp.ones(2))
