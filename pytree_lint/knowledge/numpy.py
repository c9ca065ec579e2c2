"""NumPy (and the NumPy-compatible part of jax.numpy): which functions make arrays, which give scalars."""

# numpy names that are arrays whatever their arguments.
ARRAY_CONSTRUCTORS = frozenset({
    "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy", "arange",
    "linspace", "logspace", "geomspace", "zeros", "ones", "empty", "full", "zeros_like", "ones_like",
    "empty_like", "full_like", "eye", "identity", "diag", "diagflat", "tri", "tril", "triu", "vander",
    "meshgrid", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "block",
    "tile", "repeat", "reshape", "ravel", "transpose", "swapaxes", "moveaxis", "expand_dims",
    "squeeze", "flip", "fliplr", "flipud", "roll", "rot90", "broadcast_to", "atleast_1d",
    "atleast_2d", "atleast_3d", "outer", "kron", "cumsum", "cumprod", "sort", "argsort", "unique",
    "nonzero", "argwhere", "flatnonzero", "frombuffer", "fromfunction", "fromiter", "fromstring",
    "loadtxt", "genfromtxt", "load", "indices", "packbits", "unpackbits", "pad", "cross", "diff",
    "linalg.inv", "linalg.pinv", "linalg.cholesky", "linalg.qr", "linalg.svd", "linalg.eig",
    "linalg.eigh", "linalg.solve", "linalg.lstsq", "linalg.matrix_power",
    "random.permutation", "random.rand", "random.randn",
})
# The short names of array constructors that a call written at a static position is judged by (PTL403).
CONSTRUCTOR_SHORT_NAMES = frozenset({
    "array", "asarray", "arange", "zeros", "ones", "full", "empty", "linspace", "eye", "identity",
    "zeros_like", "ones_like", "full_like", "empty_like", "concatenate", "stack", "hstack", "vstack", "tile",
})
# numpy/jax.numpy names that never return an array.
NON_ARRAY_FUNCTIONS = frozenset({
    "dtype", "iinfo", "finfo", "issubdtype", "isdtype", "result_type", "promote_types", "can_cast",
    "shape", "ndim", "size", "isscalar", "iscomplexobj", "isrealobj", "array_equal", "array_equiv",
    "allclose", "printoptions", "set_printoptions", "get_printoptions", "errstate", "seterr",
    "ndarray", "broadcast_shapes", "obj2sctype", "sctype2char", "format_float_positional",
    "array2string", "array_repr", "array_str", "save", "savez", "savetxt",
    "random.seed", "random.default_rng", "random.RandomState", "random.Generator",
})
# NumPy's scalar types by their names in numpy: `np.float32(x)` makes a scalar, hashable and compared by value.
SCALAR_CONSTRUCTORS = frozenset({
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
    "float32", "float64", "complex64", "complex128", "intp", "uintp", "longlong", "double", "single",
    "half", "int_", "float_", "complex_", "str_", "bytes_", "longdouble", "clongdouble",
})
# Reductions that give a NumPy scalar (hashable, compared by value) unless an axis keeps an array.
REDUCTIONS = frozenset({
    "sum", "prod", "max", "min", "amax", "amin", "mean", "median", "std", "var", "any", "all", "ptp",
    "argmax", "argmin", "count_nonzero", "average", "nansum", "nanmax", "nanmin", "nanmean", "linalg.norm",
    "linalg.det", "trace", "dot", "vdot", "inner",
})
VOLATILE_WITHOUT_ARGUMENTS = frozenset({"random.rand", "random.randn"})
# Conversions that fail on None and ShapeDtypeStruct leaves (measured: jacobian, eval_shape).
CONVERSIONS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "numpy.asarray", "numpy.array",
                         "numpy.asanyarray"})
# The same, and casts: each makes an array of its first argument.
ARRAY_CASTS = CONVERSIONS | {"jax.numpy.astype", "numpy.astype"}
# Types whose instances are scalars, never arrays: a value that fails `isinstance(x, <these>)` may be an array
# given (`def to_int(x): return int(x) if isinstance(x, int) else jnp.astype(x, int)` keeps an array an
# array and makes an int of an int).
SCALAR_TYPES = frozenset({"int", "float", "complex", "bool", "numbers.Number", "numbers.Real", "numbers.Integral",
                          "numpy.integer", "numpy.floating", "numpy.number", "numpy.generic", "numpy.bool_"})
# Types no leaf a transformation unflattens with is an instance of (a tracer, None, a ShapeDtypeStruct, a
# PartitionSpec): what only they let through never runs in an unflatten (`if isinstance(x, np.number):
# x = np.array(x)`, jax_scalify's `ScaledArray`).
CONCRETE_TYPES = SCALAR_TYPES | {"str", "bytes", "numpy.ndarray"}

# What an array's attributes and methods give.
SAFE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "weak_type"})
SHAPE_ATTRIBUTES = frozenset({"ndim", "shape", "size"})  # what a batch axis changes
CHECKED_ATTRIBUTES = SHAPE_ATTRIBUTES | {"dtype"}  # fail on None and placeholder leaves
# The same read as a function, static under tracing (`jnp.ndim(x)` of a tracer is an int); of None it is 0,
# `()`, 1 (measured, jax 0.10.2: with a deprecation warning), so a check of it fails rather than raising.
SHAPE_FUNCTIONS = {f"{module}.{name}": name for module in ("numpy", "jax.numpy") for name in SHAPE_ATTRIBUTES}
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})
ARRAY_METHODS = frozenset({
    "astype", "reshape", "copy", "flatten", "ravel", "squeeze", "transpose", "swapaxes", "clip",
    "round", "conj", "view", "set", "add", "multiply", "get", "repeat", "cumsum", "cumprod",
    "block_until_ready", "__array__",
})
SAFE_METHODS = frozenset({"item", "tobytes", "__hash__"})
TOLIST = "tolist"
# Every member an array has (a reduction is a method too: `x.sum()`); an object read through another one
# (`op.hilbert`) is no array leaf.
ARRAY_MEMBERS = SAFE_ATTRIBUTES | ARRAY_ATTRIBUTES | ARRAY_METHODS | SAFE_METHODS | {
    name for name in REDUCTIONS if "." not in name} | {TOLIST, "at", "nonzero", "argsort", "sort", "searchsorted"}

# Array types by annotation: these names, and any type imported under one of the short names.
ARRAY_TYPES = frozenset({"numpy.ndarray", "numpy.typing.NDArray"})
ARRAY_TYPE_NAMES = frozenset({"Array", "ndarray", "NDArray"})
ARRAY_TYPE_SUFFIXES = ("Array", "ndarray", "NDArray")
SCALAR_ANNOTATIONS = frozenset({"int", "float", "complex", "bool", "numbers.Number", "numbers.Real"})
