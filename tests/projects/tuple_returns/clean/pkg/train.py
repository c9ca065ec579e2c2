from functools import partial

import jax

from .helpers import setup


@partial(jax.jit, static_argnums=1)
def scale(params, steps):
    return jax.tree.map(lambda p: p * steps, params)


def train(params):
    _config, steps = setup()
    return scale(params, steps)
