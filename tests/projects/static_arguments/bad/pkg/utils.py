from functools import partial

import jax

jit_static_sizes = partial(jax.jit, static_argnames=("sizes",))


def make_config():
    return dict(decay=0.9)

jit_static_mask = partial(jax.jit, static_argnames=("mask",))


def jit_static(*names):
    return partial(jax.jit, static_argnames=names)
