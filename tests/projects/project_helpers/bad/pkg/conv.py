import numpy as np

from .nn import Layer, static


class Conv(Layer):
    kernel: np.ndarray
    offsets: np.ndarray = static()  # expect: PTL101
    stride: int = static(default=1)
