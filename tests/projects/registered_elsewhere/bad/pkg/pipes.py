"""Pipes: the base's `__init_subclass__` registers every subclass with the base's flatten, which puts the
pipe's `bore` in aux_data; the pipes are defined in other modules, each deriving from the one before."""
import jax


class Pipe:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        return (self.flow,), self.bore  # expect: PTL101

    @classmethod
    def tree_unflatten(cls, bore, children):
        made = object.__new__(cls)
        made.flow, made.bore = children[0], bore
        return made


def examples():
    import jax.numpy as jnp

    from .sluice import Sluice

    return [Sluice(jnp.arange(4.0), 3.0), Sluice(jnp.arange(4.0), 3.0)]
