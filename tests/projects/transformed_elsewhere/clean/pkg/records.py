import jax


@jax.tree_util.register_pytree_node_class
class Batch:
    def __init__(self, inputs, split: str):
        self.inputs = inputs
        self.split = split

    def tree_flatten(self):
        return (self.inputs,), self.split

    @classmethod
    def tree_unflatten(cls, split, children):
        return cls(*children, split)
