"""jax: tree_util registration, tree functions, jit, and what jax.numpy/jax.random calls return."""

import enum

# Private module paths that re-export the public API under another name.
CANONICAL_MODULES = {
    "jax._src.tree_util": "jax.tree_util",
    "jax._src.tree": "jax.tree",
    "jax._src.numpy": "jax.numpy",
    "jax._src.random": "jax.random",
    "jax.experimental.numpy": "jax.numpy",
}

TREE_UTIL = "jax.tree_util."


class Mechanism(enum.Enum):
    """jax.tree_util's registration functions, by the name they have there."""

    REGISTER_PYTREE_NODE = "register_pytree_node"
    REGISTER_PYTREE_NODE_CLASS = "register_pytree_node_class"
    REGISTER_PYTREE_WITH_KEYS = "register_pytree_with_keys"
    REGISTER_PYTREE_WITH_KEYS_CLASS = "register_pytree_with_keys_class"
    REGISTER_DATACLASS = "register_dataclass"
    REGISTER_STATIC = "register_static"

    @property
    def parameters(self) -> tuple[str, ...]:
        """Its positional parameter names, as in jax.tree_util."""
        return _PARAMETERS[self]


_PARAMETERS = {
    Mechanism.REGISTER_PYTREE_NODE: ("nodetype", "flatten_func", "unflatten_func", "flatten_with_keys_func"),
    Mechanism.REGISTER_PYTREE_WITH_KEYS: ("nodetype", "flatten_with_keys", "unflatten_func", "flatten_func"),
    Mechanism.REGISTER_DATACLASS: ("nodetype", "data_fields", "meta_fields", "drop_fields"),
    Mechanism.REGISTER_PYTREE_NODE_CLASS: ("cls",),
    Mechanism.REGISTER_PYTREE_WITH_KEYS_CLASS: ("cls",),
    Mechanism.REGISTER_STATIC: ("cls",),
}
MECHANISMS = {f"{TREE_UTIL}{m.value}": m for m in Mechanism}
# The registrations that flatten and unflatten by the class's own methods, looked up on it (so inherited), with
# the methods each reads.
BY_METHODS = {Mechanism.REGISTER_PYTREE_NODE_CLASS: ("tree_flatten", "tree_unflatten"),
              Mechanism.REGISTER_PYTREE_WITH_KEYS_CLASS: ("tree_flatten", "tree_flatten_with_keys", "tree_unflatten")}
STATIC_FIELD = "jax.tree.static"  # `x: int = jax.tree.static()` in a register_dataclass class

# Tree functions: qualified name -> (what it does, the position of its first tree argument).
_TREE_NAMES = ("map", "map_with_path", "leaves", "leaves_with_path", "flatten", "flatten_with_path", "structure",
               "reduce", "all")
MAP_KINDS = ("map", "map_with_path")  # the tree functions that apply a function over trees
_FUNCTION_FIRST = (*MAP_KINDS, "reduce")
TREE_FUNCTIONS = {
    **{f"jax.tree.{name}": (name, 1 if name in _FUNCTION_FIRST else 0) for name in _TREE_NAMES},
    **{f"jax.tree_util.tree_{name}": (name, 1 if name in _FUNCTION_FIRST else 0) for name in _TREE_NAMES},
    "jax.tree_map": ("map", 1), "jax.tree_leaves": ("leaves", 0), "jax.tree_flatten": ("flatten", 0),
    "jax.tree_structure": ("structure", 0), "jax.tree_reduce": ("reduce", 1),
}
# The names of the tree maps in their modules (`tree_map` of `jtu.tree_map`): what a line calling one spells,
# after a dot when called through its module, bare when imported by name (or through `*`).
MAP_NAMES = tuple(sorted({name.rsplit(".", 1)[1] for name, (kind, _) in TREE_FUNCTIONS.items() if kind in MAP_KINDS}))
SHAPE_FUNCTIONS = frozenset({"jax.numpy.shape", "numpy.shape"})

# `eqx.filter_jit` is not jit: it treats non-array leaves as static.
# Run-time checks that only work under `checkify.checkify`: any other trace of them raises.
CHECKIFY_CHECKS = frozenset({"jax.experimental.checkify.check"})
JIT = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})

# JAX transformations return a new function object, compared by identity, on every call.
TRANSFORMATIONS = frozenset({
    "jax.jit", "jax.vmap", "jax.pmap", "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev",
    "jax.hessian", "jax.checkpoint", "jax.remat", "jax.custom_jvp", "jax.custom_vjp",
})

# Mapping transformations and the position of their `in_axes`. An argument whose axis is None is passed
# through unmapped, its leaves untraced (`jax.vmap(f, in_axes=(0, None))(xs, config)` takes a str leaf in
# `config`, measured jax 0.10.2); `jax.pmap` is not one: it broadcasts such an argument, and rejects a str.
IN_AXES_POSITION = {"jax.vmap": 1}

# Calls that trace every argument after the function(s) they take: a pytree passed there reaches a trace
# as surely as one passed to a jitted function (`jax.lax.scan(body, init, xs)`: `init` and `xs`).
TRACING_CALLS = frozenset({
    "jax.eval_shape", "jax.jvp", "jax.vjp", "jax.linearize", "jax.make_jaxpr", "jax.lax.scan",
    "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.cond", "jax.lax.switch", "jax.lax.map",
    "jax.lax.associative_scan",
})

# Calls under these modules return arrays, except the names of JAX_NON_ARRAY and numpy.NON_ARRAY_FUNCTIONS.
ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.scipy.", "jax.nn.", "jax.lax.")
NON_ARRAY = frozenset({
    "jax.nn.initializers", "jax.lax.Precision", "jax.lax.DotAlgorithm", "jax.lax.RoundingMethod",
    "jax.lax.FftType", "jax.lax.GatherDimensionNumbers", "jax.lax.ScatterDimensionNumbers",
    "jax.lax.ConvDimensionNumbers", "jax.lax.conv_dimension_numbers", "jax.lax.GatherScatterMode",
    "jax.random.key_impl", "jax.random.PRNGKeyArray", "jax.lax.cond", "jax.lax.switch",
    "jax.lax.stop_gradient_p", "jax.random.default_prng_impl",
})
ARRAY_FUNCTIONS = frozenset({"jax.device_put", "jax.device_get"})
ACTIVATIONS = "jax.nn."  # `jax.nn.relu` and friends are functions: leaves jit rejects

# Array types by annotation (jaxtyping's, chex's and flax's aliases included).
ARRAY_TYPES = frozenset({
    "jax.Array", "jax.numpy.ndarray", "jax.numpy.DeviceArray", "jaxtyping.Array", "jaxtyping.PRNGKeyArray",
    "chex.Array", "chex.ArrayNumpy", "chex.ArrayDevice", "chex.PRNGKey", "flax.typing.Array", "jax.random.KeyArray",
})
JAXTYPING = "jaxtyping."
JAXTYPING_DTYPES = frozenset({
    "Float", "Float16", "Float32", "Float64", "BFloat16", "Int", "Int8", "Int16", "Int32", "Int64",
    "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Integer", "Bool", "Complex", "Complex64",
    "Complex128", "Inexact", "Real", "Num", "Shaped", "Key", "Scalar", "ScalarLike",
})

# Array constructors by short name (jax.numpy, numpy, jax.random): the positions and keywords that take a
# shape or a size, and the error a tracer raises there (measured, jax 0.10.2).
SHAPE_ERROR = "`TypeError: Shapes must be 1D sequences of concrete values of integer type`"
CONCRETIZATION = "`ConcretizationTypeError`"
SHAPE_MODULES = ("jax.numpy.", "numpy.", "jax.random.")
SHAPE_PARAMETERS: dict[str, tuple[tuple[int, ...], tuple[str, ...], str]] = {
    "zeros": ((0,), ("shape",), SHAPE_ERROR),
    "ones": ((0,), ("shape",), SHAPE_ERROR),
    "empty": ((0,), ("shape",), SHAPE_ERROR),
    "full": ((0,), ("shape",), SHAPE_ERROR),
    "eye": ((0, 1), ("N", "M"), SHAPE_ERROR),
    "identity": ((0,), ("n",), SHAPE_ERROR),
    "broadcast_to": ((1,), ("shape",), SHAPE_ERROR),
    "reshape": ((1,), ("shape", "newshape"), SHAPE_ERROR),
    "arange": ((0, 1, 2), ("start", "stop", "step"), CONCRETIZATION),
    "linspace": ((2,), ("num",), CONCRETIZATION),
    "normal": ((1,), ("shape",), SHAPE_ERROR),
    "uniform": ((1,), ("shape",), SHAPE_ERROR),
}
