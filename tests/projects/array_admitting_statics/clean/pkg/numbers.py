"""The project's own number type: a union that admits an array."""
from typing import Union

import jax

Numeric = Union[int, float, jax.Array]
