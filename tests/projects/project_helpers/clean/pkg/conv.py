import numpy as np

from .nn import Layer, static


class Conv(Layer):
    kernel: np.ndarray
    offsets: tuple[int, ...] = static(default=(0, 0))
    stride: int = static(default=1)
