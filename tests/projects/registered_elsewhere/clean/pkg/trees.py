"""The project's registering decorator: a dataclass, registered with its own flatten and unflatten."""
import dataclasses

import jax


def pytree(cls):
    cls = dataclasses.dataclass(cls)
    names = [f.name for f in dataclasses.fields(cls)]

    def flatten(obj):
        return [getattr(obj, name) for name in names], None

    def unflatten(aux, children):
        made = object.__new__(cls)
        for name, child in zip(names, children):
            object.__setattr__(made, name, child)
        return made

    jax.tree_util.register_pytree_node(cls, flatten, unflatten)
    return cls
