"""PTL2xx: the trees given to JAX's tree functions (`jax.tree.map`, `tree_leaves`, ...)."""
