"""The project's pytree metaclass: every class it makes is registered with that class's own tree_flatten
and tree_unflatten."""
import jax


class PytreeMeta(type):
    def __new__(mcls, name, bases, namespace):
        made = super().__new__(mcls, name, bases, namespace)
        jax.tree_util.register_pytree_node(made, made.tree_flatten, made.tree_unflatten)
        return made
