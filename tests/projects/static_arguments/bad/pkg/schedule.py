"""A frozen dataclass holding a list as static metadata: another module passes its objects as a static
argument of a jitted function, and jit hashes them, list included."""
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Schedule:
    scale: jax.Array
    milestones: list = field(metadata=dict(static=True))  # expect: PTL102


def reproduce():
    from .decay import decayed

    return decayed(3, Schedule(jnp.ones(()), [10, 20]))
