# expected: PTL403
# misuse: denoise calls the jitted smooth with the list display [1, 2, 4] at static position 2 (dilations); report line 59
"""A stack of dilated 1-D convolutions used to denoise a time series."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class ConvStack:
    def __init__(self, kernels, gains):
        self.kernels = kernels
        self.gains = gains

    @classmethod
    def init(cls, key, n_layers, width):
        keys = jax.random.split(key, n_layers)
        kernels = tuple(jax.nn.softmax(jax.random.normal(k, (width,))) for k in keys)
        return cls(kernels, jnp.ones(n_layers))

    def tree_flatten(self):
        return (self.kernels, self.gains), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        kernels, gains = children
        return cls(kernels, gains)


def dilate(kernel, rate):
    out = jnp.zeros((kernel.shape[0] - 1) * rate + 1)
    return out.at[::rate].set(kernel)


@partial(jax.jit, static_argnums=(2,))
def smooth(stack, signal, dilations):
    h = signal
    for i, (kernel, rate) in enumerate(zip(stack.kernels, dilations)):
        h = h + stack.gains[i] * (jnp.convolve(h, dilate(kernel, rate), mode="same") - h)
    return h


def denoising_loss(stack, noisy, clean, dilations):
    return jnp.mean((smooth(stack, noisy, dilations) - clean) ** 2)


def examples():
    key = jax.random.PRNGKey(0)
    return [ConvStack.init(key, 3, 5), ConvStack.init(key, 3, 5)]


def denoise(key):
    t = jnp.linspace(0.0, 4.0 * jnp.pi, 256)
    clean = jnp.sin(t) + 0.3 * jnp.sin(3.0 * t)
    noisy = clean + 0.2 * jax.random.normal(key, t.shape)
    stack = ConvStack.init(key, 3, 5)
    out = smooth(stack, noisy, [1, 2, 4])
    return jnp.mean((out - clean) ** 2)


def reproduce():
    return float(denoise(jax.random.PRNGKey(42)))
