# expected: PTL302
# misuse: _normal_flatten emits (loc, scale) but _normal_unflatten unpacks them as (scale, loc), so every rebuild swaps the two; report line 38 (the unpacking of children in the unflatten body).
"""Mean-field Gaussian variational family for black-box variational inference."""
import jax
import jax.numpy as jnp
import jax.tree_util as jtu


class Normal:
    """Diagonal Gaussian q(z) = N(loc, scale**2)."""

    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    def sample(self, key, n):
        eps = jax.random.normal(key, (n,) + jnp.shape(self.loc))
        return self.loc + self.scale * eps

    def log_prob(self, z):
        var = self.scale**2
        return jnp.sum(-0.5 * (z - self.loc) ** 2 / var - 0.5 * jnp.log(2 * jnp.pi * var), axis=-1)

    def entropy(self):
        return jnp.sum(0.5 * jnp.log(2 * jnp.pi * jnp.e * self.scale**2))

    def __repr__(self):
        return f"Normal(loc={self.loc}, scale={self.scale})"


def _normal_flatten(dist):
    children = (dist.loc, dist.scale)
    return children, None


def _normal_unflatten(aux_data, children):
    del aux_data
    scale, loc = children
    return Normal(loc, scale)


jtu.register_pytree_node(Normal, _normal_flatten, _normal_unflatten)


def log_joint(z):
    """Unnormalised posterior of a 2-d correlated Gaussian target."""
    prec = jnp.array([[2.0, -0.9], [-0.9, 1.0]])
    return -0.5 * jnp.einsum("...i,ij,...j->...", z - 1.0, prec, z - 1.0)


def neg_elbo(q, key, n=64):
    z = q.sample(key, n)
    return -(jnp.mean(log_joint(z)) + q.entropy())


@jax.jit
def vi_step(q, key, lr=0.05):
    grads = jax.grad(neg_elbo)(q, key)
    new = jtu.tree_map(lambda p, g: p - lr * g, q, grads)
    return Normal(new.loc, jnp.maximum(new.scale, 1e-3))


def examples():
    return [Normal(jnp.zeros(2), jnp.ones(2)), Normal(jnp.zeros(2), jnp.ones(2))]
