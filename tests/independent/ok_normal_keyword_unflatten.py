# expected: none
# near PTL302/PTL303: flatten emits (loc, scale); unflatten is (aux_data, children), unpacks in the same order and rebuilds by keyword in another order; the constructor only assigns.
"""Mean-field Gaussian variational family for black-box variational inference."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class Normal:
    def __init__(self, scale, loc):
        self.scale = scale
        self.loc = loc

    def sample(self, key, n):
        return self.loc + self.scale * jax.random.normal(key, (n,) + jnp.shape(self.loc))

    def entropy(self):
        return jnp.sum(0.5 * jnp.log(2 * jnp.pi * jnp.e * self.scale**2))

    def __repr__(self):
        return f"Normal(loc={self.loc}, scale={self.scale})"


def flatten_normal(dist):
    return (dist.loc, dist.scale), None


def unflatten_normal(aux_data, children):
    loc, scale = children
    return Normal(scale=scale, loc=loc)


register_pytree_node(Normal, flatten_normal, unflatten_normal)


def log_joint(z):
    prec = jnp.array([[2.0, -0.9], [-0.9, 1.0]])
    return -0.5 * jnp.einsum("...i,ij,...j->...", z - 1.0, prec, z - 1.0)


def neg_elbo(q, key, n=64):
    z = q.sample(key, n)
    return -(jnp.mean(log_joint(z)) + q.entropy())


@jax.jit
def vi_step(q, key, lr=0.05):
    grads = jax.grad(neg_elbo)(q, key)
    new = jax.tree.map(lambda p, g: p - lr * g, q, grads)
    return Normal(loc=new.loc, scale=jnp.maximum(new.scale, 1e-3))


def examples():
    return [Normal(loc=jnp.zeros(2), scale=jnp.ones(2)), Normal(loc=jnp.zeros(2), scale=jnp.ones(2))]


def reproduce():
    q = examples()[0]
    same = jax.tree.map(lambda x: x, q)
    assert bool(jnp.all(same.scale == 1.0)) and bool(jnp.all(same.loc == 0.0))
    for key in jax.random.split(jax.random.PRNGKey(0), 200):
        q = vi_step(q, key)
    return q
