import jax


@jax.tree_util.register_pytree_node_class
class Batch:
    def __init__(self, inputs, split: str):
        self.inputs = inputs
        self.split = split

    def tree_flatten(self):
        return (self.inputs, self.split), None  # expect: PTL401

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
