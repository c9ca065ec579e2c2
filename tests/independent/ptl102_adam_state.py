# expected: PTL102
# misuse: line 42 -- the flatten return (and the keyed flatten return, line 38) puts self.hyper in aux_data; AdamState.create passes dict(lr=lr, b1=b1, b2=b2, eps=eps) (line 20) and __init__ keeps it as self.hyper
"""Minimal Adam optimizer state with its hyperparameters carried alongside."""
import jax
import jax.numpy as jnp
from jax.tree_util import GetAttrKey, register_pytree_with_keys


class AdamState:
    def __init__(self, mu, nu, count, hyper):
        self.mu = mu
        self.nu = nu
        self.count = count
        self.hyper = hyper

    @classmethod
    def create(cls, params, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return cls(zeros, zeros, jnp.zeros((), jnp.int32),
                   dict(lr=lr, b1=b1, b2=b2, eps=eps))

    def step(self, params, grads):
        h = self.hyper
        count = self.count + 1
        mu = jax.tree.map(lambda m, g: h["b1"] * m + (1 - h["b1"]) * g, self.mu, grads)
        nu = jax.tree.map(lambda v, g: h["b2"] * v + (1 - h["b2"]) * g * g, self.nu, grads)
        c1 = 1 - h["b1"] ** count
        c2 = 1 - h["b2"] ** count
        new_params = jax.tree.map(
            lambda p, m, v: p - h["lr"] * (m / c1) / (jnp.sqrt(v / c2) + h["eps"]),
            params, mu, nu,
        )
        return new_params, AdamState(mu, nu, count, h)


def _adam_flatten_with_keys(s):
    return ((GetAttrKey("mu"), s.mu), (GetAttrKey("nu"), s.nu),
            (GetAttrKey("count"), s.count)), s.hyper


def _adam_flatten(s):
    return (s.mu, s.nu, s.count), s.hyper


def _adam_unflatten(hyper, children):
    mu, nu, count = children
    return AdamState(mu, nu, count, hyper)


register_pytree_with_keys(AdamState, _adam_flatten_with_keys, _adam_unflatten,
                          _adam_flatten)


def examples():
    params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
    return [AdamState.create(params, lr=3e-4), AdamState.create(params, lr=3e-4)]
