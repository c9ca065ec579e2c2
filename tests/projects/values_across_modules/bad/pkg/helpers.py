"""Masks as the models ask for them."""
from .masks import prefix_mask


def make_mask(n, k):
    if k is None:
        return prefix_mask(n, n)
    return prefix_mask(n, k)
