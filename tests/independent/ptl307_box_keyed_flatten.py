# expected: PTL307
# misuse: the plain flatten_func returns (upper, lower) while flatten_with_keys and unflatten use (lower, upper), so tree.map swaps the bounds; report line 38 (the return of _box_flatten).
"""Projected gradient descent on a box-constrained least-squares problem."""
import jax
import jax.numpy as jnp
import jax.tree_util as jtu


class Box:
    """The feasible set {x : lower <= x <= upper}."""

    def __init__(self, lower, upper):
        self.lower = lower
        self.upper = upper

    def project(self, x):
        return jnp.clip(x, self.lower, self.upper)

    def width(self):
        return self.upper - self.lower

    def __repr__(self):
        return f"Box(lower={self.lower}, upper={self.upper})"


def _box_flatten_with_keys(box):
    children = ((jtu.GetAttrKey("lower"), box.lower), (jtu.GetAttrKey("upper"), box.upper))
    return children, None


def _box_unflatten(aux_data, children):
    lower, upper = children
    return Box(lower, upper)


def _box_flatten(box):
    # fast path without keys, used by tree_map/jit
    return (box.upper, box.lower), None


jtu.register_pytree_with_keys(Box, _box_flatten_with_keys, _box_unflatten, _box_flatten)


def objective(x, a, b):
    return 0.5 * jnp.sum((a @ x - b) ** 2)


@jax.jit
def pgd_step(x, box, a, b, lr=0.05):
    g = jax.grad(objective)(x, a, b)
    return box.project(x - lr * g)


def scaled(box, factor):
    """Widen/shrink the box around the origin (used for continuation)."""
    return jax.tree.map(lambda bound: factor * bound, box)


def unit_box(n=3):
    return Box(-jnp.ones(n), jnp.ones(n))


def examples():
    return [unit_box(), unit_box()]
