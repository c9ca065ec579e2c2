"""Filters: the base's `__init_subclass__` registers every subclass with its own `tree_flatten` and
`tree_unflatten` (the base's, or a subclass's override)."""
import jax


class Filter:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def tree_flatten(self):
        return (self.signal,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        made = object.__new__(cls)
        made.signal = children[0]
        return made
