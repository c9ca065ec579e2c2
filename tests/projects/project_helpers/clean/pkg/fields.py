import dataclasses


def static_field(**kwargs):
    """A dataclass field that jax.tree_util.register_dataclass keeps in the treedef."""
    return dataclasses.field(metadata={"static": True}, **kwargs)
