"""A registered dataclass whose str field is static: another module's function, given one through a
parameter annotated with the class, maps over it with vmap, which meets only the array."""
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Labelled:
    value: jax.Array
    label: str = field(metadata=dict(static=True))


def reproduce():
    from .totals import totals

    return totals(Labelled(jnp.ones((2, 3)), "a"))
