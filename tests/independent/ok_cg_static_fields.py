# expected: none
# near PTL404/PTL401: restarts and preconditioner are static dataclass fields (range() and a str compare are fine); the traced child max_iter is only a lax.fori_loop bound
"""Restarted, Jacobi-preconditioned conjugate gradients for a 2-D Poisson problem."""
import dataclasses
from typing import Optional

import jax
import jax.numpy as jnp
from jax.tree_util import register_dataclass


@register_dataclass
@dataclasses.dataclass
class CGSolver:
    matrix: jax.Array
    max_iter: int
    shift: Optional[jax.Array] = None
    restarts: int = dataclasses.field(default=2, metadata=dict(static=True))
    preconditioner: str = dataclasses.field(default="jacobi", metadata=dict(static=True))

    def operator(self, x):
        y = self.matrix @ x
        return y if self.shift is None else y + self.shift * x

    def precondition(self, r):
        if self.preconditioner == "jacobi":
            return r / jnp.diag(self.matrix)
        return r

    def cg_pass(self, b, x):
        r = b - self.operator(x)
        z = self.precondition(r)

        def body(_, carry):
            x, r, z, p = carry
            ap = self.operator(p)
            alpha = (r @ z) / (p @ ap)
            x_new, r_new = x + alpha * p, r - alpha * ap
            z_new = self.precondition(r_new)
            p_new = z_new + ((r_new @ z_new) / (r @ z)) * p
            return x_new, r_new, z_new, p_new

        return jax.lax.fori_loop(0, self.max_iter, body, (x, r, z, z))[0]

    def solve(self, b):
        x = jnp.zeros(b.shape[0])
        for _ in range(self.restarts):
            x = self.cg_pass(b, x)
        return x


def poisson_2d(n):
    lap = 2.0 * jnp.eye(n) - jnp.eye(n, k=1) - jnp.eye(n, k=-1)
    return jnp.kron(lap, jnp.eye(n)) + jnp.kron(jnp.eye(n), lap)


def examples():
    return [CGSolver(poisson_2d(4), 10), CGSolver(poisson_2d(4), 10)]


def reproduce():
    solver = CGSolver(poisson_2d(6), max_iter=20, shift=jnp.asarray(0.1), restarts=2)
    rhs = jax.random.normal(jax.random.PRNGKey(0), (3, 36))
    xs = jax.jit(jax.vmap(CGSolver.solve, in_axes=(None, 0)))(solver, rhs)
    residual = jax.vmap(solver.operator)(xs) - rhs
    return float(jnp.max(jnp.abs(residual)))
