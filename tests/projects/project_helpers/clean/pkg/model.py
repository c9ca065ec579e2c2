from pkg import Array, static_field
from pkg.struct import pytree_dataclass


@pytree_dataclass
class Embedding:
    table: Array
    padding: tuple[int, ...] = static_field(default=(0, 0))
    size: int = static_field(default=8)
