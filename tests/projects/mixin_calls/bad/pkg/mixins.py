"""Mixins whose flatten and unflatten registered classes of other modules inherit, each class registered by a
call rather than a decorator: `Tile` by its own module after its statement (pkg/tiles.py), `Plate` by a third
module (pkg/registry.py). Each unflatten calls the class, running its validating `__init__` on the leaves a
transformation gives. Reported here, at the call."""


class TreeMixin:
    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)  # expect: PTL301


class KeyedMixin:
    def tree_flatten_with_keys(self):
        import jax

        return ((jax.tree_util.GetAttrKey("x"), self.x),), None

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0])  # expect: PTL301


def examples():
    import jax.numpy as jnp

    from . import registry  # noqa: F401  (registers Plate)
    from .plates import Plate
    from .tiles import Tile

    return [Tile(jnp.ones((2, 2))), Tile(jnp.ones((2, 2))), Plate(jnp.ones(3)), Plate(jnp.ones(3))]
