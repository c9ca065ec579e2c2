from .layers import crop, pad, padded
from .train import step
from .utils import make_config


def local_config():
    return {"decay": 0.99}


def main(params):
    config = {"decay": 0.9}
    return step(params, config)  # expect: PTL403


def with_local_config(params):
    return step(params, local_config())  # expect: PTL403


def with_made_config(params):
    model_kwargs = make_config()
    return step(params, model_kwargs)  # expect: PTL403


def padded_once(x):
    return pad(x, sizes=[(1, 1)])  # expect: PTL403


def cropped(x):
    return crop(x, widths=[1, 2])  # expect: PTL403


def padded_twice(x):
    return padded(x, [(2, 2)])  # expect: PTL403


def reproduce():
    """Each function passes a list or dict as a static argument, and each raises: a code path apiece."""
    import jax.numpy as jnp

    params, x = {"w": jnp.ones(3)}, jnp.ones(4)
    return [lambda: main(params), lambda: with_local_config(params), lambda: with_made_config(params),
            lambda: padded_once(x), lambda: cropped(x), lambda: padded_twice(x)]
