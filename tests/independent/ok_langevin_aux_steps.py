# expected: none
# near PTL404: num_steps and thin are returned in aux_data, so range() over them is fine; the children are only used through .shape and `is None`
"""Preconditioned unadjusted Langevin sampler for a correlated Gaussian target."""
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np

TARGET_PRECISION = np.array([[2.0, 0.9], [0.9, 1.0]])


def log_target(x):
    return -0.5 * x @ TARGET_PRECISION @ x


class LangevinSampler:
    def __init__(self, step_size, preconditioner=None, num_steps=40, thin=4):
        self.step_size = step_size
        self.preconditioner = preconditioner
        self.num_steps = num_steps
        self.thin = thin

    def tree_flatten(self):
        return (self.step_size, self.preconditioner), (self.num_steps, self.thin)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children, *aux_data)

    def drift(self, x):
        g = jax.grad(log_target)(x)
        if self.preconditioner is None:
            return g
        return self.preconditioner @ g

    def noise(self, key, x):
        z = jax.random.normal(key, (x.shape[0],))
        if self.preconditioner is None:
            return z
        return jnp.linalg.cholesky(self.preconditioner) @ z

    def sample(self, key, x0):
        x, draws = x0, []
        for _ in range(self.num_steps // self.thin):
            for _ in range(self.thin):
                key, sub = jax.random.split(key)
                x = x + self.step_size * self.drift(x) + jnp.sqrt(2 * self.step_size) * self.noise(sub, x)
            draws.append(x)
        return jnp.stack(draws)


jtu.register_pytree_node_class(LangevinSampler)


def examples():
    return [LangevinSampler(0.05, jnp.eye(2)), LangevinSampler(0.05, jnp.eye(2))]


def reproduce():
    key = jax.random.PRNGKey(0)
    precond = jnp.linalg.inv(TARGET_PRECISION)
    sampler = LangevinSampler(jnp.asarray(0.05), precond, num_steps=40, thin=4)
    plain = LangevinSampler(jnp.asarray(0.02))
    run = jax.jit(lambda s, k, x: s.sample(k, x))
    draws = run(sampler, key, jnp.zeros(2))
    draws_plain = run(plain, key, jnp.zeros(2))
    return draws.shape, draws_plain.shape, jnp.cov(draws.T)
