import numpy as np

from .indexer import Index


def gathering(n):
    return Index(np.arange(n), "gather")
