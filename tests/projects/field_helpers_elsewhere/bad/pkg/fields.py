"""Static-field helpers of the project: a lambda and a def, each returning a library field call, and a
`functools.partial` of one (serl's `nonpytree_field`)."""
import dataclasses
import functools

from flax import struct

static_field = lambda default=dataclasses.MISSING: dataclasses.field(default=default, metadata=dict(static=True))


def static_axes(default=dataclasses.MISSING):
    return dataclasses.field(default=default, metadata=dict(static=True))


nonpytree_field = functools.partial(struct.field, pytree_node=False)
