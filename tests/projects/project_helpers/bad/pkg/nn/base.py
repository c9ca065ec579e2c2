import equinox as eqx


class Layer(eqx.Module):
    """The base of the project's layers."""


def static(**kwargs):
    return eqx.field(static=True, **kwargs)
