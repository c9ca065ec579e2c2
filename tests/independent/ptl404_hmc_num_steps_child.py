# expected: PTL404
# misuse: num_leapfrog_steps is returned as a child (traced under jit) but integrate() uses it in range(); report line 38 (the return of _leapfrog_flatten).
"""Hamiltonian Monte Carlo for a banana-shaped 2-d target."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node as reg


def log_density(q):
    x, y = q[0], q[1]
    return -0.5 * (x**2 / 4.0 + (y - 0.25 * x**2) ** 2)


class Leapfrog:
    """Leapfrog integrator with a diagonal inverse mass matrix."""

    def __init__(self, step_size, num_leapfrog_steps, inv_mass):
        self.step_size = step_size
        self.num_leapfrog_steps = num_leapfrog_steps
        self.inv_mass = inv_mass

    def integrate(self, q, p):
        grad = jax.grad(log_density)
        p = p + 0.5 * self.step_size * grad(q)
        for _ in range(self.num_leapfrog_steps - 1):
            q = q + self.step_size * self.inv_mass * p
            p = p + self.step_size * grad(q)
        q = q + self.step_size * self.inv_mass * p
        p = p + 0.5 * self.step_size * grad(q)
        return q, p

    def kinetic(self, p):
        return 0.5 * jnp.sum(self.inv_mass * p**2)


def _leapfrog_flatten(lf):
    # step size and mass matrix are adapted during warm-up, so all of them are leaves
    return (lf.step_size, lf.num_leapfrog_steps, lf.inv_mass), None


reg(Leapfrog, _leapfrog_flatten, lambda _, children: Leapfrog(*children))


@jax.jit
def hmc_step(integrator: Leapfrog, q, key):
    k_mom, k_acc = jax.random.split(key)
    p0 = jax.random.normal(k_mom, q.shape) / jnp.sqrt(integrator.inv_mass)
    q1, p1 = integrator.integrate(q, p0)
    h0 = -log_density(q) + integrator.kinetic(p0)
    h1 = -log_density(q1) + integrator.kinetic(p1)
    accept = jnp.log(jax.random.uniform(k_acc)) < h0 - h1
    return jnp.where(accept, q1, q), accept


def default_integrator():
    return Leapfrog(0.2, 10, jnp.ones(2))


def examples():
    return [default_integrator(), default_integrator()]


def reproduce():
    q = jnp.zeros(2)
    keys = jax.random.split(jax.random.PRNGKey(0), 5)
    samples = []
    for key in keys:
        q, _ = hmc_step(default_integrator(), q, key)
        samples.append(q)
    return jnp.stack(samples)
