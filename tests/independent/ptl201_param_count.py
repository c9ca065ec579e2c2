# expected: PTL201
# misuse: the shape tuples made by tree_map(lambda p: p.shape) are reduced as a pytree without is_leaf, so every dimension becomes a leaf; report line 42 (the tree_reduce call).
"""A small MLP classifier and the model summary printed before training."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.tree_util import tree_map, tree_reduce


def init_mlp(key, sizes):
    """He-initialised dense layers, one dict per layer."""
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:]):
        params.append({
            "w": jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros((n_out,)),
        })
    return params


def mlp_apply(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


@jax.jit
def loss_fn(params, x, y):
    logits = mlp_apply(params, x)
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def model_summary(params):
    """Returns the per-tensor shapes and the total number of trainable scalars."""
    shapes = tree_map(lambda p: p.shape, params)
    lines = [
        f"layer {i}: w{layer['w']} b{layer['b']}" for i, layer in enumerate(shapes)
    ]
    # total parameter count for the log header
    n_params = tree_reduce(lambda total, shape: total + int(np.prod(shape)), shapes, 0)
    return "\n".join(lines), n_params


def reproduce():
    params = init_mlp(jax.random.PRNGKey(0), [4, 16, 3])
    text, n_params = model_summary(params)
    # 4*16 + 16 + 16*3 + 3 = 131 scalars are trained; the summary reports 58
    return n_params
