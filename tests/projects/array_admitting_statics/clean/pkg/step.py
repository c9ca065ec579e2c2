"""Static fields declared to admit an array, given numbers wherever the project builds the object."""
import dataclasses

import jax

from .numbers import Numeric


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Step:
    x: jax.Array
    scale: Numeric = dataclasses.field(metadata={"static": True})
    shift: jax.typing.ArrayLike = dataclasses.field(default=0.0, metadata={"static": True})
    rate: Numeric = dataclasses.field(default=1.0, metadata={"static": True})
