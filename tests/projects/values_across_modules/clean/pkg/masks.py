"""Mask primitives."""


def prefix_mask(n, k):
    """True for the first `k` of `n` positions, as a hashable tuple."""
    return tuple(i < k for i in range(n))
