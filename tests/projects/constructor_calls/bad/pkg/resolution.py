"""A class registered static (the whole object is aux_data) without value equality: another module builds
one per call, so each jitted call sees a new aux_data and retraces."""
from jax.tree_util import register_static


@register_static  # expect: PTL104
class Resolution:
    def __init__(self, height, width):
        self.height = height
        self.width = width


def examples():
    from .inputs import make_input
    import jax.numpy as jnp

    return [make_input(jnp.ones((2, 3))), make_input(jnp.ones((2, 3)))]
