# expected: PTL401
# misuse: the flatten lambda registered for ChainState returns the string state.kernel among the children; report line 28
"""Random-walk Metropolis-Hastings on a 2-D banana density, many chains in parallel."""
import jax
import jax.numpy as jnp
import jax.tree_util as jtu


def log_banana(x):
    return -0.5 * (x[0] ** 2 / 4.0 + (x[1] - 0.25 * x[0] ** 2) ** 2)


class ChainState:
    """Position, its log density and a record of which kernel produced it."""

    def __init__(self, position, log_prob, kernel="rwmh"):
        self.position = position
        self.log_prob = log_prob
        self.kernel = kernel

    @classmethod
    def start(cls, position):
        return cls(position, log_banana(position))


jtu.register_pytree_node(
    ChainState,
    lambda state: ((state.position, state.log_prob, state.kernel), None),
    lambda _, children: ChainState(*children),
)


def rwmh_step(state, key, scale=0.5):
    k_prop, k_acc = jax.random.split(key)
    proposal = state.position + scale * jax.random.normal(k_prop, state.position.shape)
    lp_prop = log_banana(proposal)
    accept = jnp.log(jax.random.uniform(k_acc)) < lp_prop - state.log_prob
    position = jnp.where(accept, proposal, state.position)
    log_prob = jnp.where(accept, lp_prop, state.log_prob)
    return ChainState(position, log_prob, state.kernel), accept


def run_chain(state, key, num_samples=200):
    def body(carry, k):
        carry, accepted = rwmh_step(carry, k)
        return carry, (carry.position, accepted)

    keys = jax.random.split(key, num_samples)
    return jax.lax.scan(body, state, keys)


def examples():
    x0 = jnp.array([0.5, -0.5])
    return [ChainState.start(x0), ChainState.start(x0)]


def reproduce():
    key = jax.random.PRNGKey(0)
    starts = jax.random.normal(key, (8, 2))
    states = ChainState(starts, jax.vmap(log_banana)(starts))
    chain_keys = jax.random.split(key, 8)
    final, (samples, accepted) = jax.jit(jax.vmap(run_chain))(states, chain_keys)
    return samples.mean(axis=(0, 1)), accepted.mean()
