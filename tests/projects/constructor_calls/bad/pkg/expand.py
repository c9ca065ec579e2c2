import numpy as np

from .indexer import Indexer


def gather(x, n):
    return Indexer(x, np.arange(n))
