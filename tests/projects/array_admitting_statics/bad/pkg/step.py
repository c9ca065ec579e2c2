"""Static fields declared to admit an array, with the project's own alias or JAX's: the declaration alone
says nothing; another module's builder gives two of them arrays."""
import dataclasses

import jax

from .numbers import Numeric


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Step:
    x: jax.Array
    scale: Numeric = dataclasses.field(metadata={"static": True})  # expect: PTL101
    shift: jax.typing.ArrayLike = dataclasses.field(default=0.0, metadata={"static": True})  # expect: PTL101
    rate: Numeric = dataclasses.field(default=1.0, metadata={"static": True})


def examples():
    import jax.numpy as jnp

    from .build import make_step

    return [make_step(jnp.ones(2)), make_step(jnp.ones(2))]
