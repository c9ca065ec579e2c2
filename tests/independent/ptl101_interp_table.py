# expected: PTL101
# misuse: line 22 -- the flatten return puts t.grid in aux_data; t.grid is assigned onp.linspace(lo, hi, num) in __init__ (line 15), an ndarray with num (=8) elements
"""Piecewise-linear lookup table for a learned 1-D response curve."""
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as onp


class InterpTable:
    """Values sampled on a fixed uniform grid; only the values are trainable."""

    def __init__(self, values, lo=0.0, hi=1.0, num=None):
        num = values.shape[0] if num is None else num
        self.values = values
        self.grid = onp.linspace(lo, hi, num)

    def __call__(self, x):
        return jnp.interp(x, self.grid, self.values)


def _table_flatten(t):
    return (t.values,), t.grid


def _table_unflatten(grid, children):
    t = object.__new__(InterpTable)
    (t.values,) = children
    t.grid = grid
    return t


jtu.register_pytree_node(InterpTable, _table_flatten, _table_unflatten)


def examples():
    vals = jnp.linspace(0.0, 2.0, 8) ** 2
    return [InterpTable(vals, 0.0, 1.0), InterpTable(vals, 0.0, 1.0)]
