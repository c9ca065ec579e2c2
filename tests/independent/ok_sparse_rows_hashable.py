# expected: none
# no misuse: aux_data is (HashableArray, shape tuple of ints, np.dtype); HashableArray defines __eq__ via onp.array_equal and __hash__ via tobytes, so equal-valued fresh instances compare equal
"""Row-sparse matrix with a static sparsity pattern (mjx-style hashable index wrapper)."""
import jax.numpy as jnp
import numpy as onp
from jax.tree_util import register_pytree_node_class


class HashableArray:
    """Immutable NumPy array wrapper with value equality, safe as pytree metadata."""

    def __init__(self, arr):
        self.arr = onp.array(arr)
        self.arr.setflags(write=False)

    def __eq__(self, other):
        return (isinstance(other, HashableArray)
                and self.arr.dtype == other.arr.dtype
                and onp.array_equal(self.arr, other.arr))

    def __hash__(self):
        return hash((self.arr.shape, self.arr.dtype.str, self.arr.tobytes()))


@register_pytree_node_class
class RowSparse:
    def __init__(self, rows, row_ids, shape, dtype=jnp.float32):
        self.rows = rows
        self.row_ids = HashableArray(onp.asarray(row_ids, dtype=onp.int32))
        self.shape = tuple(int(d) for d in shape)
        self.dtype = onp.dtype(dtype)

    def todense(self):
        out = jnp.zeros(self.shape, self.dtype)
        return out.at[self.row_ids.arr].set(self.rows)

    def tree_flatten(self):
        return (self.rows,), (self.row_ids, self.shape, self.dtype)

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        (obj.rows,) = children
        obj.row_ids, obj.shape, obj.dtype = aux
        return obj


def examples():
    rows = jnp.ones((2, 3))
    return [RowSparse(rows, [0, 4], (5, 3)), RowSparse(rows, [0, 4], (5, 3))]
