# expected: PTL103
# misuse: line 23 -- the flatten return puts snap.created_at in the aux tuple; __init__ assigns it time.time() (line 16), different for every instance
"""Training snapshot that records when it was taken, for logging."""
import time

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node as reg


class Snapshot:
    def __init__(self, params, step, tag="train"):
        self.params = params
        self.step = step
        self.tag = tag
        self.created_at = time.time()

    def age(self):
        return time.time() - self.created_at


def _snapshot_flatten(snap):
    return (snap.params, snap.step), (snap.tag, snap.created_at)


def _snapshot_unflatten(aux, children):
    snap = Snapshot.__new__(Snapshot)
    snap.params, snap.step = children
    snap.tag, snap.created_at = aux
    return snap


reg(Snapshot, _snapshot_flatten, _snapshot_unflatten)


def examples():
    params = {"w": jnp.ones((2, 2))}
    return [Snapshot(params, jnp.asarray(0)), Snapshot(params, jnp.asarray(1))]
