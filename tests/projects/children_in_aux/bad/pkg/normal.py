import jax


@jax.tree_util.register_pytree_node_class
class Normal:
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    def tree_flatten(self):
        return (self.loc, self.scale), self.__dict__  # expect: PTL101

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
