"""Stages: the base's `__init_subclass__` registers every subclass with the base's flatten, which puts the
stage's `config` in aux_data; the stages themselves are defined in other modules."""
import jax


class Stage:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        return (self.signal,), self.config

    @classmethod
    def tree_unflatten(cls, config, children):
        made = object.__new__(cls)
        made.signal, made.config = children[0], config
        return made


def examples():
    import jax.numpy as jnp

    from .loud import Loud

    return [Loud(jnp.arange(4.0), 2.0), Loud(jnp.arange(4.0), 2.0)]
