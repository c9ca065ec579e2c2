"""An object another module's builder makes with a list, whose attribute is passed as a static argument;
an object of another module's class built with one and called at once."""
from .configs import default_config
from .padding import Padder, pad


def pad_with_config(x):
    config = default_config()
    return pad(x, widths=config.widths)  # expect: PTL403


def pad_twice(x):
    return Padder([(2, 2)])(x)


def reproduce():
    import jax.numpy as jnp

    return pad_with_config(jnp.ones(3))
