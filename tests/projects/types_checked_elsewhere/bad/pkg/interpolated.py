import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

from .image import Image


@register_pytree_node_class
class Interpolated:
    """Built from an Image only: its dtype check reads the Image's aux_data, whatever the leaves are."""

    def __init__(self, image, flux=1.0):
        if not isinstance(image, Image):
            raise TypeError("an Image is needed")
        if image.dtype not in (jnp.float32, jnp.float64):
            raise ValueError("a float image is needed")
        self.image = image
        self.flux = flux

    def tree_flatten(self):
        return (self.image, self.flux), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def examples():
    return [Interpolated(Image(jnp.ones((2, 2)))), Interpolated(Image(jnp.ones((2, 2))), 2.0)]
