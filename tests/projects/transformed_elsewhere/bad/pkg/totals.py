import jax

from .labels import Labelled


def totals(labelled: Labelled):
    return jax.vmap(lambda one: one.value.sum())(labelled)
