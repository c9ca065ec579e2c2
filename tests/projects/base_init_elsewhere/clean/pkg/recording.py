"""Unflatten builds the object with `__new__`, puts the children on it and runs the base `__init__` of another
module, which only stores the rate: None leaves pass through."""
import jax

from .signal import Signal


@jax.tree_util.register_pytree_node_class
class Recording(Signal):
    def __init__(self, samples, rate):
        self.samples = samples
        super().__init__(rate)

    def tree_flatten(self):
        return (self.samples,), self.rate

    @classmethod
    def tree_unflatten(cls, rate, children):
        made = object.__new__(cls)
        setattr(made, "samples", children[0])
        Signal.__init__(made, rate)
        return made


@jax.tree_util.register_pytree_node_class
class Take(Signal):
    def __init__(self, samples, rate):
        self.samples = samples
        super().__init__(rate)

    def tree_flatten(self):
        return (self.samples,), self.rate

    @classmethod
    def tree_unflatten(cls, rate, children):
        made = object.__new__(cls)
        (made.samples,) = children
        Signal.__init__(made, rate)
        return made


@jax.tree_util.register_pytree_node_class
class Clip(Signal):
    """Rebuilt by calling the class: its `__init__` sets the samples, then runs the base's through `super()`."""

    def __init__(self, samples, rate):
        self.samples = samples
        super().__init__(rate)

    def tree_flatten(self):
        return (self.samples,), self.rate

    @classmethod
    def tree_unflatten(cls, rate, children):
        return cls(*children, rate)
