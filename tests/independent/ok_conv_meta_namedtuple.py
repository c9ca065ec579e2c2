# expected: none
# no misuse: meta_fields hold a NamedTuple of ints (Window), a shape tuple built with tuple(int(d) for d in kernel.shape), an np.dtype and a str; all have value equality
"""1-D convolution kernel with static window geometry."""
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util


class Window(NamedTuple):
    stride: int
    padding: int


@dataclass
class Conv1D:
    kernel: jax.Array
    kernel_shape: tuple[int, ...]
    window: Window
    compute_dtype: np.dtype
    name: str

    @classmethod
    def create(cls, kernel, stride=1, padding=0, dtype=jnp.float32, name="conv"):
        return cls(kernel=kernel,
                   kernel_shape=tuple(int(d) for d in kernel.shape),
                   window=Window(stride, padding),
                   compute_dtype=np.dtype(dtype),
                   name=name)

    def __call__(self, x):
        x = jnp.pad(x.astype(self.compute_dtype), self.window.padding)
        y = jnp.convolve(x, self.kernel.astype(self.compute_dtype), mode="valid")
        return y[:: self.window.stride]


tree_util.register_dataclass(
    Conv1D,
    data_fields=["kernel"],
    meta_fields=["kernel_shape", "window", "compute_dtype", "name"],
)


def examples():
    k = jnp.array([0.25, 0.5, 0.25])
    return [Conv1D.create(k, stride=2, padding=1), Conv1D.create(k, stride=2, padding=1)]
