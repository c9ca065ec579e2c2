"""Static-field helpers of the project, a lambda and a def, each returning a library field call."""
import dataclasses

static_field = lambda default=dataclasses.MISSING: dataclasses.field(default=default, metadata=dict(static=True))


def static_axes(default=dataclasses.MISSING):
    return dataclasses.field(default=default, metadata=dict(static=True))
