import jax


def add_updates(params, updates):
    """Maps its parameters as the trees: the first one gives the structure."""
    return jax.tree.map(lambda p, u: p + u, params, updates)


def add_where_given(params, updates):
    return jax.tree.map(lambda p, u: u if p is None else p + u, params, updates, is_leaf=lambda x: x is None)
