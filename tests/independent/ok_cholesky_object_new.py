# expected: none
# near PTL301/PTL303/PTL305: __init__ validates and converts, but tree_unflatten bypasses it with object.__new__; (aux_data, children) order; flatten returns a 1-tuple of children.
"""Multivariate normal parameterised by a Cholesky factor, for a Gaussian-process posterior."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class CholeskyCovariance:
    def __init__(self, chol, jitter=1e-6):
        chol = jnp.asarray(chol, dtype=jnp.float32)
        if chol.ndim != 2 or chol.shape[0] != chol.shape[1]:
            raise ValueError(f"expected a square matrix, got shape {chol.shape}")
        self.chol = jnp.tril(chol)
        self.jitter = float(jitter)

    @classmethod
    def from_kernel(cls, k, jitter=1e-6):
        return cls(jnp.linalg.cholesky(k + jitter * jnp.eye(k.shape[0])), jitter)

    def tree_flatten(self):
        return (self.chol,), (self.jitter,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        (obj.chol,) = children
        (obj.jitter,) = aux_data
        return obj

    def solve(self, b):
        y = jax.scipy.linalg.solve_triangular(self.chol, b, lower=True)
        return jax.scipy.linalg.solve_triangular(self.chol.T, y, lower=False)

    def logdet(self):
        return 2.0 * jnp.sum(jnp.log(jnp.diag(self.chol)))


def rbf(x, lengthscale=0.5):
    return jnp.exp(-0.5 * (x[:, None] - x[None, :]) ** 2 / lengthscale**2)


def neg_log_marginal(cov: CholeskyCovariance, y):
    return 0.5 * y @ cov.solve(y) + 0.5 * cov.logdet() + 0.5 * y.size * jnp.log(2 * jnp.pi)


def make_cov():
    return CholeskyCovariance.from_kernel(rbf(jnp.linspace(0.0, 1.0, 5)), jitter=1e-4)


def examples():
    return [make_cov(), make_cov()]


def reproduce():
    cov, y = make_cov(), jnp.sin(jnp.linspace(0.0, 3.0, 5))
    nll = jax.jit(neg_log_marginal)(cov, y)
    g = jax.grad(neg_log_marginal)(cov, y)
    rows = jax.vmap(lambda c: c.chol.sum())(jax.tree.map(lambda x: x[None], cov))
    jac = jax.jacobian(lambda c: c.chol.sum())(cov)
    shapes = jax.tree.map(lambda x: x.shape, cov)
    return nll, g.chol.shape, rows.shape, jac.chol.shape, shapes.chol
