import jax


class Jittable:
    """Subclasses are pytrees whose children are the constructor's arguments."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls._flatten, cls._unflatten)

    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    def _flatten(self):
        return self._args, (len(self._args), tuple(sorted(self._kwargs.items())))

    @classmethod
    def _unflatten(cls, aux, children):
        return cls(*children, **dict(aux[1]))
