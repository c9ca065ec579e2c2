import jax


@jax.tree_util.register_pytree_node_class
class Mesh:
    """Vertex positions (traced) and the cell table (static)."""

    def __init__(self, coords, cells):
        self.coords = coords
        self.cells = cells

    def tree_flatten(self):
        return (self.coords,), self.cells  # expect: PTL101

    @classmethod
    def tree_unflatten(cls, cells, children):
        return cls(children[0], cells)
