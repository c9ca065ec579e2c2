from pkg import Array, static_field
from pkg.struct import pytree_dataclass


@pytree_dataclass
class Embedding:
    table: Array
    padding_mask: Array = static_field()  # expect: PTL101
    size: int = static_field(default=8)
