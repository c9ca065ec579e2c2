# expected: PTL203
# misuse: `params.values()` (a dict view) is passed to jax.tree.leaves, where it is a single leaf; report line 37 (the jax.tree.leaves call).
"""A two-block convolutional encoder and the statistics logged for its parameters."""
import jax
import jax.numpy as jnp
import numpy as np


def init_encoder(key, channels=(1, 8, 16), kernel=3):
    params = {}
    keys = jax.random.split(key, len(channels) - 1)
    for i, (k, c_in, c_out) in enumerate(zip(keys, channels[:-1], channels[1:])):
        fan_in = c_in * kernel * kernel
        params[f"conv{i}"] = {
            "kernel": jax.random.normal(k, (kernel, kernel, c_in, c_out)) / np.sqrt(fan_in),
            "bias": jnp.zeros((c_out,)),
        }
    return params


def encode(params, images):
    x = images
    for name in sorted(params):
        layer = params[name]
        x = jax.lax.conv_general_dilated(
            x, layer["kernel"], window_strides=(2, 2), padding="SAME",
            dimension_numbers=("NHWC", "HWIO", "NHWC"))
        x = jax.nn.gelu(x + layer["bias"])
    return x.mean(axis=(1, 2))


def parameter_stats(params):
    """Number of weight tensors and of scalars, for the run's metadata file.

    The top level only names the blocks, so we look at the blocks themselves.
    """
    leaves = jax.tree.leaves(params.values())
    return {
        "tensors": len(leaves),
        "scalars": sum(int(np.size(leaf)) for leaf in leaves),
    }


def reproduce():
    params = init_encoder(jax.random.PRNGKey(42))
    feats = encode(params, jnp.ones((2, 16, 16, 1)))
    stats = parameter_stats(params)
    # expected {'tensors': 4, 'scalars': 1248}; gets {'tensors': 1, 'scalars': 1}
    return feats.shape, stats
