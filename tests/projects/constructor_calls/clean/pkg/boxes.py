"""A box whose metadata is its aux_data; other modules build it, through a chain of helpers."""
import jax


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x, meta):
        self.x = x
        self.meta = meta

    def tree_flatten(self):
        return (self.x,), self.meta

    @classmethod
    def tree_unflatten(cls, meta, children):
        return cls(children[0], meta)


def examples():
    import jax.numpy as jnp

    from .box_defaults import default_box

    return [default_box(jnp.ones(3)), default_box(jnp.ones(3))]
