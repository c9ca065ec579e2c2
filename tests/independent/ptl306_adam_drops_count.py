# expected: PTL306
# misuse: AdamState.tree_flatten returns only (mu, nu) although the constructor needs count, mu and nu, so the step counter is dropped; report line 21 (its return).
"""A hand-written Adam optimizer whose state is a custom pytree."""
import jax
import jax.numpy as jnp
import jax.tree_util as jtu


class AdamState:
    def __init__(self, count, mu, nu):
        self.count = count
        self.mu = mu
        self.nu = nu

    @classmethod
    def init(cls, params):
        zeros = jtu.tree_map(jnp.zeros_like, params)
        return cls(jnp.zeros([], jnp.int32), zeros, zeros)

    def tree_flatten(self):
        return (self.mu, self.nu), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)


jtu.register_pytree_node_class(AdamState)


def adam_update(grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    count = state.count + 1
    mu = jtu.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jtu.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, grads)
    mu_hat = jtu.tree_map(lambda m: m / (1 - b1**count), mu)
    nu_hat = jtu.tree_map(lambda v: v / (1 - b2**count), nu)
    updates = jtu.tree_map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
    return updates, AdamState(count, mu, nu)


def rosenbrock(p):
    return (1.0 - p["x"]) ** 2 + 100.0 * (p["y"] - p["x"] ** 2) ** 2


@jax.jit
def train_step(params, opt_state):
    grads = jax.grad(rosenbrock)(params)
    updates, opt_state = adam_update(grads, opt_state, lr=1e-2)
    params = jtu.tree_map(jnp.add, params, updates)
    return params, opt_state


def initial():
    params = {"x": jnp.array(-1.0), "y": jnp.array(2.0)}
    return params, AdamState.init(params)


def examples():
    return [initial()[1], initial()[1]]
