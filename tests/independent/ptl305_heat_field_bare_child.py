# expected: PTL305
# misuse: tree_flatten returns the bare `self.values` array as children, so JAX iterates it into one scalar leaf per grid point and tree_unflatten keeps only the first; report line 33 (its return).
"""Explicit finite-difference solver for the 1-d heat equation on a periodic grid."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class GridField:
    """Samples of a scalar field on a uniform periodic grid with spacing dx."""

    def __init__(self, values, dx):
        self.values = values
        self.dx = dx

    @classmethod
    def from_function(cls, fn, n=64, length=1.0):
        x = jnp.arange(n) * (length / n)
        return cls(fn(x), length / n)

    def laplacian(self):
        v = self.values
        return (jnp.roll(v, 1) - 2.0 * v + jnp.roll(v, -1)) / self.dx**2

    def total_heat(self):
        return jnp.sum(self.values) * self.dx

    def __repr__(self):
        return f"GridField(values={self.values}, dx={self.dx})"

    def tree_flatten(self):
        # dx is a fixed property of the grid, only the samples are traced
        return self.values, (self.dx,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (dx,) = aux_data
        return cls(children[0], dx)


@jax.jit
def heat_step(field: GridField, kappa=0.1):
    dt = 0.25 * field.dx**2 / kappa
    return GridField(field.values + dt * kappa * field.laplacian(), field.dx)


def evolve(field, n_steps):
    return jax.lax.fori_loop(0, n_steps, lambda _, f: heat_step(f), field)


def initial_bump():
    return GridField.from_function(lambda x: jnp.exp(-100.0 * (x - 0.5) ** 2), n=32)


def examples():
    return [initial_bump(), initial_bump()]
