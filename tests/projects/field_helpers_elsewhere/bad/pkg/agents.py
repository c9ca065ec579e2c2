"""An array kept static through the partial helper of another module: the second jitted call with a new,
equal agent raises (`Exception raised while checking equality of metadata fields`)."""
import jax
import jax.numpy as jnp
from flax import struct

from .fields import nonpytree_field


class Agent(struct.PyTreeNode):
    state: jax.Array
    mask: jax.Array = nonpytree_field()  # expect: PTL101

    @jax.jit
    def update(self, batch):
        return self.state * batch


def fresh(state):
    return Agent(state, state > 0)


def examples():
    return [fresh(jnp.ones(3)), fresh(jnp.ones(3))]
