"""Registered classes inheriting the mixin whose `__init__` only stores; and the traps: a validating class
that rebuilds itself with an unflatten of its own, one that nothing registers, one registered with functions
of its own."""
import jax

from .mixins import TreeMixin


@jax.tree_util.register_pytree_node_class
class Box(TreeMixin):
    def __init__(self, x):
        self.x = x


@jax.tree_util.register_pytree_node_class
class Checked(TreeMixin):
    """Validates, but its own unflatten builds it without `__init__` (judged here: it never calls the class)."""

    def __init__(self, x):
        if x.ndim != 2:
            raise ValueError("x must be 2-D")
        self.x = x

    @classmethod
    def tree_unflatten(cls, aux, children):
        made = object.__new__(cls)
        made.x = children[0]
        return made


class Unregistered(TreeMixin):
    """Validates, but is no pytree: nothing registers it (JAX registers one type, not its subclasses)."""

    def __init__(self, x):
        if x.ndim != 2:
            raise ValueError("x must be 2-D")
        self.x = x


class Functions(TreeMixin):
    """Validates, registered with functions that never call it."""

    def __init__(self, x):
        if x.ndim != 2:
            raise ValueError("x must be 2-D")
        self.x = x


def _unflatten(aux, children):
    made = object.__new__(Functions)
    made.x = children[0]
    return made


jax.tree_util.register_pytree_node(Functions, lambda f: ((f.x,), None), _unflatten)
