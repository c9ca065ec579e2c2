# expected: PTL404
# misuse: num_particles is a non-static field of the register_dataclass ParticleFilter and systematic_resample passes it to jnp.arange; report line 17
"""A bootstrap particle filter for a 1-D stochastic-volatility model."""
import dataclasses

import jax
import jax.numpy as jnp
from jax.scipy.stats import norm


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class ParticleFilter:
    phi: jax.Array
    sigma: jax.Array
    beta: jax.Array
    num_particles: int
    resampling: str = dataclasses.field(default="systematic", metadata=dict(static=True))

    def systematic_resample(self, key, weights):
        u = jax.random.uniform(key)
        positions = (jnp.arange(self.num_particles) + u) / self.num_particles
        return jnp.searchsorted(jnp.cumsum(weights), positions)

    def step(self, carry, inputs):
        particles, log_lik = carry
        y, key = inputs
        k_prop, k_res = jax.random.split(key)
        particles = self.phi * particles + self.sigma * jax.random.normal(k_prop, particles.shape)
        log_w = norm.logpdf(y, scale=self.beta * jnp.exp(particles / 2.0))
        log_norm = jax.nn.logsumexp(log_w)
        weights = jnp.exp(log_w - log_norm)
        if self.resampling == "systematic":
            idx = self.systematic_resample(k_res, weights)
        else:
            idx = jax.random.choice(k_res, particles.shape[0], particles.shape, p=weights)
        return (particles[idx], log_lik + log_norm - jnp.log(particles.shape[0])), particles.mean()

    def log_likelihood(self, key, observations, init_particles):
        keys = jax.random.split(key, observations.shape[0])
        (_, log_lik), means = jax.lax.scan(self.step, (init_particles, 0.0), (observations, keys))
        return log_lik, means


def make_filter(num_particles=256):
    return ParticleFilter(jnp.array(0.95), jnp.array(0.25), jnp.array(0.6), num_particles)


def examples():
    return [make_filter(), make_filter()]


def reproduce():
    key = jax.random.PRNGKey(0)
    k_obs, k_init, k_run = jax.random.split(key, 3)
    observations = 0.6 * jax.random.normal(k_obs, (50,))
    pf = make_filter()
    init = 0.5 * jax.random.normal(k_init, (pf.num_particles,))
    log_lik, means = jax.jit(ParticleFilter.log_likelihood)(pf, k_run, observations, init)
    return float(log_lik)
