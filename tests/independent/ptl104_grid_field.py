# expected: PTL104
# misuse: line 27 -- the field `grid: GridSpec` is in meta_fields; create() builds GridSpec(nx, ny, dx) per instance (line 32), a plain class without __eq__
"""Scalar field on a uniform 2-D grid with a finite-difference Laplacian."""
import functools
from dataclasses import dataclass

import jax
import jax.numpy as jnp


class GridSpec:
    def __init__(self, nx, ny, dx):
        self.nx = nx
        self.ny = ny
        self.dx = dx

    @property
    def area(self):
        return self.nx * self.ny * self.dx * self.dx


@functools.partial(jax.tree_util.register_dataclass,
                   data_fields=["values"], meta_fields=["grid"])
@dataclass
class ScalarField:
    values: jax.Array
    grid: GridSpec

    @classmethod
    def create(cls, values, dx=0.1):
        nx, ny = values.shape
        return cls(values=values, grid=GridSpec(nx, ny, dx))

    def laplacian(self):
        v = self.values
        lap = (jnp.roll(v, 1, 0) + jnp.roll(v, -1, 0)
               + jnp.roll(v, 1, 1) + jnp.roll(v, -1, 1) - 4 * v)
        return lap / self.grid.dx ** 2


def examples():
    v = jnp.arange(16.0).reshape(4, 4)
    return [ScalarField.create(v), ScalarField.create(v)]
