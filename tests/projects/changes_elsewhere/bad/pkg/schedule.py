"""A step counter kept as aux_data that another module's function advances (`s.step += 1`): a new aux
value after every step, so every jitted call after one retraces."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Schedule:
    def __init__(self, x):
        self.x = x
        self.step = 0

    def tree_flatten(self):
        return (self.x,), self.step  # expect: PTL103

    @classmethod
    def tree_unflatten(cls, step, children):
        obj = cls(children[0])
        obj.step = step
        return obj


def examples():
    from .counters import tick

    first, second = Schedule(jnp.ones(2)), Schedule(jnp.ones(2))
    tick(first)
    tick(second)
    tick(second)
    return [first, second]
