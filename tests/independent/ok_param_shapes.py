# expected: none
# near PTL201: shape tuples are only used as the second tree of tree.map, under is_leaf, or come from eval_shape (ShapeDtypeStruct leaves).
"""Parameter bookkeeping for a small MLP: counting, perturbing and zero-initialising."""
import jax
import jax.numpy as jnp
import numpy as np


def init_mlp(key, sizes=(4, 16, 3)):
    params = []
    for k, n_in, n_out in zip(jax.random.split(key, len(sizes) - 1), sizes[:-1], sizes[1:]):
        params.append({
            "w": jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros((n_out,)),
        })
    return params


def mlp_apply(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def count_params(params):
    shapes = jax.tree.map(lambda p: p.shape, params)
    return jax.tree.reduce(
        lambda total, shape: total + int(np.prod(shape)), shapes, 0,
        is_leaf=lambda x: isinstance(x, tuple))


def perturb(params, key, scale=1e-2):
    """Gaussian weight noise, e.g. for sharpness estimates."""
    shapes = jax.tree.map(jnp.shape, params)
    leaves, treedef = jax.tree.flatten(params)
    keys = jax.tree.unflatten(treedef, list(jax.random.split(key, len(leaves))))
    # shapes is the third tree: each tuple sits under a leaf of params and is passed whole
    return jax.tree.map(lambda p, k, s: p + scale * jax.random.normal(k, s), params, keys, shapes)


def zeros_like_model(key):
    """Accumulator with the model's structure, without materialising parameters."""
    abstract = jax.eval_shape(init_mlp, key)
    return jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), abstract)


def reproduce():
    key = jax.random.PRNGKey(0)
    params = init_mlp(key)
    noisy = perturb(params, jax.random.PRNGKey(1))
    acc = zeros_like_model(key)
    out = mlp_apply(noisy, jnp.ones((2, 4)))
    return count_params(params), out.shape, jax.tree.map(jnp.shape, acc) == jax.tree.map(jnp.shape, params)
