"""A registered dataclass whose str field is a child: another module's function, given one through a
parameter annotated with the class, maps over it with vmap, which meets the str as a leaf."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Labelled:
    value: jax.Array
    label: str  # expect: PTL401


def reproduce():
    from .totals import totals

    return totals(Labelled(jnp.ones((2, 3)), "a"))
