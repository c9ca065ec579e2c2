"""The same mixins: no class that inherits an unflatten of theirs and is registered by its methods validates
in `__init__` (pkg/tiles.py, pkg/plates.py); the traps: a validating class registered by a call with
functions of its own, one registered as static (no flatten), one a module only mentions."""


class TreeMixin:
    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class KeyedMixin:
    def tree_flatten_with_keys(self):
        import jax

        return ((jax.tree_util.GetAttrKey("x"), self.x),), None

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0])


def examples():
    import jax.numpy as jnp

    from . import registry  # noqa: F401  (registers Plate)
    from .plates import Plate
    from .tiles import Tile

    return [Tile(jnp.ones((2, 2))), Tile(jnp.ones((2, 2))), Plate(jnp.ones(3)), Plate(jnp.ones(3))]
