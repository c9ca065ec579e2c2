# expected: PTL101
# misuse: line 32 -- tree_flatten returns self.weights inside the aux tuple; self.weights is assigned np.sqrt(np.asarray(feature_weights, dtype=np.float32)) in __init__ (line 16), a per-feature ndarray
"""Running mean/variance normalizer with fixed per-feature importance weights."""
import jax.numpy as jnp
import numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class RunningNormalizer:
    def __init__(self, mean, var, count, feature_weights, eps=1e-6):
        self.mean = mean
        self.var = var
        self.count = count
        self.eps = eps
        self.weights = np.sqrt(np.asarray(feature_weights, dtype=np.float32))

    @classmethod
    def zeros(cls, num_features, feature_weights, eps=1e-6):
        return cls(
            jnp.zeros(num_features),
            jnp.ones(num_features),
            jnp.zeros((), jnp.int32),
            feature_weights,
            eps,
        )

    def normalize(self, x):
        return (x - self.mean) / jnp.sqrt(self.var + self.eps) * self.weights

    def tree_flatten(self):
        return (self.mean, self.var, self.count), (self.eps, self.weights)

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.mean, obj.var, obj.count = children
        obj.eps, obj.weights = aux
        return obj


def examples():
    w = [1.0, 4.0, 0.25]
    return [RunningNormalizer.zeros(3, w), RunningNormalizer.zeros(3, w)]
