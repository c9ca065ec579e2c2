"""The same mixin: no class that inherits its unflatten and registers it validates in `__init__`."""


class TreeMixin:
    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
