"""SciPy: its sparse matrices and arrays behave as arrays under `==` (an elementwise result, whose truth
value raises), so in aux_data they fail as NumPy arrays do (numpyro's `CAR(is_sparse=True)` holds one)."""

_FORMATS = ("bsr", "coo", "csc", "csr", "dia", "dok", "lil")
SPARSE_CONSTRUCTORS = frozenset({
    *(f"scipy.sparse.{kind}_{shape}" for kind in _FORMATS for shape in ("matrix", "array")),
    "scipy.sparse.eye", "scipy.sparse.identity", "scipy.sparse.diags", "scipy.sparse.random",
    "scipy.sparse.kron", "scipy.sparse.block_diag", "scipy.sparse.hstack", "scipy.sparse.vstack",
})
