"""A name kept static through the partial helper of another module (serl's `nonpytree_field` on its agents'
configs): aux_data, so the jitted method sees no string leaf."""
import jax
from flax import struct

from .fields import nonpytree_field


class Agent(struct.PyTreeNode):
    state: jax.Array
    name: str = nonpytree_field()

    @jax.jit
    def update(self, batch):
        return self.state * batch
