"""A batch of estimates whose aux_data holds the function that combines their means, as given: a builder
registered with a dispatcher (and called by no module by its name) makes a new lambda for each batch, so a
jitted statistic of the batches retraces for each one."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Batch:
    def __init__(self, data, combinator):
        self.data = data
        self.combinator = combinator

    def tree_flatten(self):
        return (self.data,), self.combinator  # expect: PTL103

    @classmethod
    def tree_unflatten(cls, combinator, children):
        return cls(children[0], combinator)


@jax.jit
def statistic(batch):
    return batch.combinator(jnp.mean(batch.data, axis=0))


def examples():
    from .correlators import Pair
    from .dispatch import estimators

    return [estimators(Pair(jnp.ones((4, 2)))) for _ in range(2)]  # as each estimate of a run does
