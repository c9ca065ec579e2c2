from functools import partial

import jax
import jax.numpy as jnp

from .schedule import Schedule


@partial(jax.jit, static_argnums=1)
def learning_rate(step, schedule):
    return schedule.scale * (step < schedule.milestones[0])


def decayed(step, schedule):
    return learning_rate(step, schedule)


def default_rate(step):
    warmup = Schedule(jnp.ones(()), (10, 20))
    return learning_rate(step, warmup)
