"""A train state whose aux_data holds its apply function and a scaling callable, as given: another module
builds it once (a builder called at import) and steps it, so jit traces once."""
import jax


@jax.tree_util.register_pytree_node_class
class TrainState:
    def __init__(self, params, apply_fn, scale_fn):
        self.params = params
        self.apply_fn = apply_fn
        self.scale_fn = scale_fn

    def tree_flatten(self):
        return (self.params,), (self.apply_fn, self.scale_fn)

    @classmethod
    def tree_unflatten(cls, aux, children):
        made = object.__new__(cls)
        (made.params,) = children
        made.apply_fn, made.scale_fn = aux
        return made



def examples():
    from .loop import STATE

    return [STATE, STATE]
