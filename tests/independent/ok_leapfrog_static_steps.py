# expected: none
# near PTL404/PTL307: the number of leapfrog steps lives in aux_data and drives range(); tree_flatten_with_keys and tree_flatten agree on order and content.
"""Hamiltonian Monte Carlo for a banana-shaped 2-d target."""
import jax
import jax.numpy as jnp
from jax.tree_util import GetAttrKey, register_pytree_with_keys_class


def log_density(q):
    return -0.5 * (q[0] ** 2 / 4.0 + (q[1] - 0.25 * q[0] ** 2) ** 2)


@register_pytree_with_keys_class
class Leapfrog:
    def __init__(self, step_size, inv_mass, num_steps=10):
        self.step_size = step_size
        self.inv_mass = inv_mass
        self.num_steps = num_steps

    def tree_flatten_with_keys(self):
        children = ((GetAttrKey("step_size"), self.step_size), (GetAttrKey("inv_mass"), self.inv_mass))
        return children, self.num_steps

    def tree_flatten(self):
        return (self.step_size, self.inv_mass), self.num_steps

    @classmethod
    def tree_unflatten(cls, num_steps, children):
        return cls(*children, num_steps=num_steps)

    def integrate(self, q, p):
        grad = jax.grad(log_density)
        p = p + 0.5 * self.step_size * grad(q)
        for _ in range(self.num_steps - 1):
            q = q + self.step_size * self.inv_mass * p
            p = p + self.step_size * grad(q)
        q = q + self.step_size * self.inv_mass * p
        return q, p + 0.5 * self.step_size * grad(q)


@jax.jit
def hmc_step(integrator: Leapfrog, q, key):
    k_mom, k_acc = jax.random.split(key)
    p0 = jax.random.normal(k_mom, q.shape) / jnp.sqrt(integrator.inv_mass)
    q1, p1 = integrator.integrate(q, p0)
    h0 = -log_density(q) + 0.5 * jnp.sum(integrator.inv_mass * p0**2)
    h1 = -log_density(q1) + 0.5 * jnp.sum(integrator.inv_mass * p1**2)
    accept = jnp.log(jax.random.uniform(k_acc)) < h0 - h1
    return jnp.where(accept, q1, q), accept


def examples():
    return [Leapfrog(jnp.asarray(0.2), jnp.ones(2), 10), Leapfrog(jnp.asarray(0.2), jnp.ones(2), 10)]


def reproduce():
    q, accepted = jnp.zeros(2), 0
    for key in jax.random.split(jax.random.PRNGKey(0), 20):
        q, acc = hmc_step(Leapfrog(jnp.asarray(0.2), jnp.ones(2), 10), q, key)
        accepted += int(acc)
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(examples()[0])]
    return q, accepted, hmc_step._cache_size(), paths
