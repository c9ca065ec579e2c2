"""numpyro: every Distribution, Transform and Constraint subclass is registered (its own `tree_flatten`,
or a Distribution's `pytree_aux_fields`)."""

from .base import Convention, PytreeLibrary

AUX_FIELDS = "pytree_aux_fields"
LIBRARY = PytreeLibrary(
    "numpyro", Convention.NUMPYRO,
    bases=frozenset({"numpyro.distributions.Distribution", "numpyro.distributions.distribution.Distribution"}),
    registered_prefixes=("numpyro.distributions.",),
    fields_are_children=False,
)
