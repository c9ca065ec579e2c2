"""A mixin whose flatten and unflatten the registered classes of other modules inherit (pkg/boxes.py, and
pkg/grids.py through a base of pkg/bases.py): its unflatten calls the class, running each one's validating
`__init__` on the leaves a transformation gives. Reported here, at the call."""


class TreeMixin:
    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)  # expect: PTL301


def examples():
    import jax.numpy as jnp

    from .boxes import Box
    from .grids import Grid

    return [Box(jnp.ones((2, 2))), Box(jnp.ones((2, 2))), Grid(jnp.ones((2, 2))), Grid(jnp.ones((2, 2)))]
