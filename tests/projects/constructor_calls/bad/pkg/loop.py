import jax
import jax.numpy as jnp

from .state import TrainState


def loss(params, x):
    return jnp.sum(params * x)


@jax.jit
def step(state, x):
    return state.scale_fn(state.apply_fn(state.params, x))


def train(params, batches):
    losses = []
    for x in batches:
        state = TrainState(params, loss, lambda v: v * 2.0)
        losses.append(step(state, x))
    return losses

