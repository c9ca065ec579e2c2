# expected: PTL104
# misuse: line 41 -- tree_flatten (and tree_flatten_with_keys, line 38) return self.schedule as aux_data; __init__ builds WarmupCosine(peak_lr, warmup_steps, total_steps) per instance (line 29), a plain class without __eq__
"""Train state that owns its learning-rate schedule."""
import math

import jax
import jax.numpy as jnp
import jax.tree_util as jtu


class WarmupCosine:
    def __init__(self, peak_lr, warmup_steps, total_steps):
        self.peak_lr = peak_lr
        self.warmup_steps = warmup_steps
        self.total_steps = total_steps

    def __call__(self, step):
        warm = self.peak_lr * step / self.warmup_steps
        frac = (step - self.warmup_steps) / (self.total_steps - self.warmup_steps)
        cos = 0.5 * self.peak_lr * (1 + jnp.cos(math.pi * jnp.clip(frac, 0.0, 1.0)))
        return jnp.where(step < self.warmup_steps, warm, cos)


@jtu.register_pytree_with_keys_class
class TrainState:
    def __init__(self, params, step, peak_lr=1e-3, warmup_steps=100, total_steps=1000):
        self.params = params
        self.step = step
        self.schedule = WarmupCosine(peak_lr, warmup_steps, total_steps)

    def apply_gradients(self, grads):
        lr = self.schedule(self.step)
        new = jax.tree.map(lambda p, g: p - lr * g, self.params, grads)
        return TrainState.tree_unflatten(self.schedule, (new, self.step + 1))

    def tree_flatten_with_keys(self):
        return ((jtu.GetAttrKey("params"), self.params),
                (jtu.GetAttrKey("step"), self.step)), self.schedule

    def tree_flatten(self):
        return (self.params, self.step), self.schedule

    @classmethod
    def tree_unflatten(cls, schedule, children):
        state = object.__new__(cls)
        state.params, state.step = children
        state.schedule = schedule
        return state


def examples():
    params = {"w": jnp.ones(3)}
    return [TrainState(params, jnp.asarray(0)), TrainState(params, jnp.asarray(0))]
