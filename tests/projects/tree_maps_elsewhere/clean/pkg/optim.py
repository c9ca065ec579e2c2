from .trees import add_updates


def apply(params, updates):
    """A plain wrapper: its parameters reach `add_updates`'s trees, so it maps them too."""
    return add_updates(params, updates)
