# expected: none
# no misuse: aux_data is (module-level function jax.nn.gelu, tuple(sorted(names)), frozenset(categorical), tuple(edges.tolist())); all immutable with value equality (the function is a single module-level object)
"""Tabular feature encoder: bucketizes numeric columns with fixed bin edges."""
import jax
import jax.numpy as jnp
import numpy as onp
from jax.tree_util import GetAttrKey, register_pytree_with_keys


class FeatureEncoder:
    def __init__(self, proj, feature_names, categorical, bin_edges,
                 activation=jax.nn.gelu):
        self.proj = proj
        self.feature_names = tuple(sorted(feature_names))
        self.categorical = frozenset(categorical)
        self.bin_edges = tuple(onp.asarray(bin_edges, dtype=float).tolist())
        self.activation = activation

    def __call__(self, x):
        buckets = jnp.digitize(x, jnp.asarray(self.bin_edges))
        onehot = jax.nn.one_hot(buckets, len(self.bin_edges) + 1)
        return self.activation(onehot.reshape(x.shape[0], -1) @ self.proj)


def _aux(e):
    return (e.activation, e.feature_names, e.categorical, e.bin_edges)


def _encoder_flatten_with_keys(e):
    return ((GetAttrKey("proj"), e.proj),), _aux(e)


def _encoder_flatten(e):
    return (e.proj,), _aux(e)


def _encoder_unflatten(aux, children):
    enc = object.__new__(FeatureEncoder)
    (enc.proj,) = children
    enc.activation, enc.feature_names, enc.categorical, enc.bin_edges = aux
    return enc


register_pytree_with_keys(FeatureEncoder, _encoder_flatten_with_keys,
                          _encoder_unflatten, _encoder_flatten)


def examples():
    proj = jnp.ones((2 * 4, 3))
    mk = lambda: FeatureEncoder(proj, ["income", "age"], {"age"},
                                onp.linspace(0.0, 1.0, 3))
    return [mk(), mk()]
