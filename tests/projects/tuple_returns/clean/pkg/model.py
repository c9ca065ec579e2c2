import jax


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, values, meta):
        self.values = values
        self.meta = meta

    def tree_flatten(self):
        return (self.values,), self.meta

    @classmethod
    def tree_unflatten(cls, meta, children):
        return cls(children[0], meta)
