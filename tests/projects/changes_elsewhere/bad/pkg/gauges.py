"""Gauges whose names are aux_data, renamed in place by another module's function that loops over the
values of a dict of them: jit's cache keeps the trace made with the old names."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Gauges:
    def __init__(self, values, names):
        self.values = values
        self.names = list(names)

    def tree_flatten(self):
        return (self.values,), self.names  # expect: PTL102

    @classmethod
    def tree_unflatten(cls, names, children):
        return cls(children[0], names)


@jax.jit
def width(gauges):
    return jnp.sum(gauges.values) * len(gauges.names)


def reproduce():
    from .bulk import extend_all

    gauges = Gauges(jnp.ones(2), ["a"])
    before = width(gauges)
    extend_all({"main": gauges}, "b")
    return before, width(gauges)
