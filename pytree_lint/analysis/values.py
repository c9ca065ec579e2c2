"""What an expression can evaluate to, as far as the module's own text proves it.

`ValueInference.infer(expr, context)` follows local variables, parameters (annotations and defaults),
`self.x` / `obj.x` to every assignment of that attribute in the class, class-level fields and
module-level names, and returns the `Evidence` it found: an array, a mutable container, a volatile value
(new on every call), an instance of a class of this module, or a value known to be safe. An expression
it cannot follow yields no evidence, and rules stay silent on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import libcst as cst

from .frameworks import Frameworks, declared_fields
from .index import ClassInfo, FunctionInfo, ModuleIndex, keyword_arguments, live_bindings
from .kinds import Kind


@dataclass(frozen=True)
class Hop:
    """One step of the path a value takes to the place it is reported: `via` `relation` `node`."""

    via: str
    relation: str
    node: cst.CSTNode


@dataclass(frozen=True)
class Evidence:
    kind: Kind
    node: cst.CSTNode
    what: str
    trail: tuple[Hop, ...] = ()
    shared: bool = False  # one module-level object: the same object on every flatten
    cls: ClassInfo | None = None  # INSTANCE: the class
    constructed: bool = False  # INSTANCE: built by a constructor call, not only annotated
    leaf: str | None = None  # a Python value jit cannot trace as a leaf: a key of kinds.LEAF_NAMES

    @property
    def proves_leaf(self) -> bool:
        """A leaf jit rejects, for certain: a `Callable` annotation alone is not (a `jax.tree_util.Partial`
        or a flax/equinox module is a callable pytree), an assigned function or lambda is."""
        return self.leaf is not None and not (self.leaf == "callable" and self.what == "a callable type")

    def through(self, via: str, relation: str, node: cst.CSTNode) -> Evidence:
        return replace(self, trail=(Hop(via, relation, node), *self.trail))

    @property
    def held_outside(self) -> bool:
        """The value is held beyond the expression that made it: by an attribute (`self.x`) or a
        module-level name; not a container a flatten function builds afresh on every call."""
        return self.shared or any("." in hop.via for hop in self.trail)


@dataclass(frozen=True)
class Context:
    """Where an expression is evaluated: its function and the names known to be class instances."""

    function: FunctionInfo | None = None
    instances: tuple[tuple[str, ClassInfo], ...] = ()
    statement: cst.CSTNode | None = None  # the statement being evaluated: only earlier assignments reach it

    def instance_class(self, name: str) -> ClassInfo | None:
        for known, cls in self.instances:
            if known == name:
                return cls
        return None


MODULE_CONTEXT = Context()

ARRAY_TYPES = frozenset({
    "jaxsim.typing.Array", "jaxsim.typing.Matrix", "jaxsim.typing.Vector",
    "jax.Array", "jax.numpy.ndarray", "jax.numpy.DeviceArray", "numpy.ndarray", "numpy.typing.NDArray",
    "jaxtyping.Array", "jaxtyping.PRNGKeyArray", "chex.Array", "chex.ArrayNumpy", "chex.ArrayDevice",
    "chex.PRNGKey", "flax.typing.Array", "jax.random.KeyArray",
})
# A type imported from anywhere under one of these names is an array type.
ARRAY_TYPE_NAMES = frozenset({"Array", "ndarray", "NDArray"})
JAXTYPING_DTYPES = frozenset({
    "Float", "Float16", "Float32", "Float64", "BFloat16", "Int", "Int8", "Int16", "Int32", "Int64",
    "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Integer", "Bool", "Complex", "Complex64",
    "Complex128", "Inexact", "Real", "Num", "Shaped", "Key", "Scalar", "ScalarLike",
})
MUTABLE_TYPES = frozenset({
    "list", "dict", "set", "bytearray", "typing.List", "typing.Dict", "typing.Set",
    "typing.DefaultDict", "typing.OrderedDict", "typing.MutableMapping", "typing.MutableSequence",
    "typing.MutableSet", "collections.abc.MutableMapping", "collections.abc.MutableSequence",
    "collections.abc.MutableSet", "collections.OrderedDict", "collections.defaultdict",
    "collections.deque", "collections.Counter",
})
SAFE_TYPES = frozenset({
    "int", "float", "str", "bool", "bytes", "complex", "frozenset", "type", "None",
    "typing.FrozenSet", "typing.Hashable", "numpy.dtype",
})
TUPLE_TYPES = frozenset({"tuple", "typing.Tuple"})
CALLABLE_TYPES = frozenset({"typing.Callable", "collections.abc.Callable", "Callable"})
WRAPPER_TYPES = frozenset({"typing.Optional", "typing.Annotated", "jax_dataclasses.Static",
                           "typing_extensions.Annotated"})
UNION_TYPES = frozenset({"typing.Union"})

MUTABLE_BUILTINS = frozenset({"list", "dict", "set", "bytearray", "sorted"})
SAFE_BUILTINS = frozenset({
    "tuple", "frozenset", "int", "float", "str", "bool", "bytes", "complex", "len", "hash", "repr",
    "range", "type", "abs", "round", "ord", "chr", "format",
})
MUTABLE_CALLS = frozenset({
    "collections.OrderedDict", "collections.defaultdict", "collections.deque", "collections.Counter",
})
COPY_CALLS = frozenset({"copy.copy", "copy.deepcopy"})  # a copy is what it copies
# Reductions that give a NumPy scalar (hashable, compared by value) unless an axis keeps an array.
NUMPY_REDUCTIONS = frozenset({
    "sum", "prod", "max", "min", "amax", "amin", "mean", "median", "std", "var", "any", "all", "ptp",
    "argmax", "argmin", "count_nonzero", "average", "nansum", "nanmax", "nanmin", "nanmean", "linalg.norm",
    "linalg.det", "trace", "dot", "vdot", "inner",
})
VOLATILE_CALLS = frozenset({
    "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "datetime.datetime.now", "datetime.datetime.utcnow",
    "datetime.now", "datetime.utcnow", "datetime.datetime.today", "uuid.uuid1", "uuid.uuid3",
    "uuid.uuid4", "uuid.uuid5", "os.urandom", "itertools.count", "functools.partial",
    # JAX transformations return a new function object, compared by identity, on every call.
    "jax.jit", "jax.vmap", "jax.pmap", "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev",
    "jax.hessian", "jax.checkpoint", "jax.remat", "jax.custom_jvp", "jax.custom_vjp",
})
VOLATILE_MODULES = ("random.", "secrets.")
# Attributes that are plain hashable metadata of an array.
SAFE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "weak_type"})
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})
ARRAY_METHODS = frozenset({
    "astype", "reshape", "copy", "flatten", "ravel", "squeeze", "transpose", "swapaxes", "clip",
    "round", "conj", "view", "set", "add", "multiply", "get", "repeat", "cumsum", "cumprod",
    "block_until_ready", "__array__",
})
SAFE_METHODS = frozenset({"item", "tobytes", "__hash__"})

# numpy names that are arrays whatever their arguments.
NUMPY_ARRAY_CONSTRUCTORS = frozenset({
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
# numpy/jax.numpy names that never return an array.
NON_ARRAY_FUNCTIONS = frozenset({
    "dtype", "iinfo", "finfo", "issubdtype", "isdtype", "result_type", "promote_types", "can_cast",
    "shape", "ndim", "size", "isscalar", "iscomplexobj", "isrealobj", "array_equal", "array_equiv",
    "allclose", "printoptions", "set_printoptions", "get_printoptions", "errstate", "seterr",
    "ndarray", "broadcast_shapes", "obj2sctype", "sctype2char", "format_float_positional",
    "array2string", "array_repr", "array_str", "save", "savez", "savetxt",
    "random.seed", "random.default_rng", "random.RandomState", "random.Generator",
})
NUMPY_SCALAR_TYPES = frozenset({
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
    "float32", "float64", "complex64", "complex128", "intp", "uintp", "longlong", "double", "single",
    "half", "int_", "float_", "complex_", "str_", "bytes_", "longdouble", "clongdouble",
})
JAX_ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.scipy.", "jax.nn.", "jax.lax.")
JAX_NON_ARRAY = frozenset({
    "jax.nn.initializers", "jax.lax.Precision", "jax.lax.DotAlgorithm", "jax.lax.RoundingMethod",
    "jax.lax.FftType", "jax.lax.GatherDimensionNumbers", "jax.lax.ScatterDimensionNumbers",
    "jax.lax.ConvDimensionNumbers", "jax.lax.conv_dimension_numbers", "jax.lax.GatherScatterMode",
    "jax.random.key_impl", "jax.random.PRNGKeyArray", "jax.lax.cond", "jax.lax.switch",
    "jax.lax.stop_gradient_p", "jax.random.default_prng_impl",
})
JAX_ARRAY_FUNCTIONS = frozenset({"jax.device_put", "jax.device_get"})

CONSTRUCTOR_METHODS = frozenset({"__init__", "__post_init__", "__new__", "setup", "__setstate__"})
_MAX_DEPTH = 12


def _union(groups) -> list[Evidence]:
    found: list[Evidence] = []
    for group in groups:
        found.extend(group)
    return found


@dataclass
class ValueInference:
    index: ModuleIndex
    frameworks: Frameworks
    _attribute_cache: dict[tuple[int, str], list[Evidence]] = field(default_factory=dict)
    _active: set[int] = field(default_factory=set)

    # public --------------------------------------------------------------------------------------
    def infer(self, expr: cst.BaseExpression, context: Context = MODULE_CONTEXT) -> list[Evidence]:
        key = id(expr)
        if key in self._active or len(self._active) > _MAX_DEPTH:
            return []
        self._active.add(key)
        try:
            return self._infer(expr, context)
        finally:
            self._active.discard(key)

    def attribute(self, cls: ClassInfo, attr: str, via: str) -> list[Evidence]:
        """Everything `cls` instances' attribute `attr` can hold, reported as reached through `via`."""
        key = (id(cls), attr)
        if key not in self._attribute_cache:
            self._attribute_cache[key] = []  # guards recursion through self-referencing classes
            # A fresh depth budget: what is cached must not depend on how deep the first asker was.
            outer, self._active = self._active, set()
            try:
                self._attribute_cache[key] = self._attribute_sources(cls, attr)
            finally:
                self._active = outer
        return [_rename(e, via) for e in self._attribute_cache[key]]

    def annotation(self, annotation: cst.BaseExpression) -> list[Evidence]:
        """What an annotation says a value is (an array, a mutable container, an instance, ...)."""
        if isinstance(annotation, cst.SimpleString):
            try:
                parsed = cst.parse_expression(annotation.evaluated_value)
            except (cst.ParserSyntaxError, TypeError, ValueError):
                return []
            # The parsed nodes are not in the module: report the string itself.
            return [replace(e, node=annotation) for e in self.annotation(parsed)]
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            return self._union_annotation([annotation.left, annotation.right])
        if isinstance(annotation, cst.Subscript):
            return self._subscript_annotation(annotation)
        cls = self.index.resolve_class(annotation)
        if cls is not None:
            return [Evidence(Kind.INSTANCE, annotation, f"a `{cls.name}`", cls=cls)]
        name = self._type_name(annotation)
        if name is None:
            return []
        if name in ARRAY_TYPES or name.rsplit(".", 1)[-1] in ARRAY_TYPE_NAMES:
            return [Evidence(Kind.ARRAY, annotation, "an array type")]
        if name in MUTABLE_TYPES:
            return [Evidence(Kind.MUTABLE, annotation, f"a `{name.rsplit('.', 1)[-1]}`")]
        if name in SAFE_TYPES or name in TUPLE_TYPES:
            leaf = {"str": "str", "type": "class"}.get(name)
            return [Evidence(Kind.SAFE, annotation, "a hashable type", leaf=leaf)]
        if name in CALLABLE_TYPES:
            return [Evidence(Kind.SAFE, annotation, "a callable type", leaf="callable")]
        return []

    # annotations ---------------------------------------------------------------------------------
    def _type_name(self, node: cst.BaseExpression) -> str | None:
        """`jax.Array`, `list`, `typing.Optional`, ... for a type expression, builtins included."""
        qualified = self.index.qualify(node)
        if qualified is not None:
            return qualified
        if isinstance(node, cst.Name):
            if node.value == "None" or not self.index.aliases.is_module_local(node.value):
                return node.value
        return None

    def _union_annotation(self, alternatives: list[cst.BaseExpression]) -> list[Evidence]:
        """`A | B | None`: an array (a container, a leaf jit rejects, ...) only when every alternative but
        None is one (`int | Array` is no array, `str | Array` neither)."""
        evidence = [self.annotation(a) for a in alternatives
                    if not (isinstance(a, cst.Name) and a.value == "None")]
        found: list[Evidence] = []
        for concern in (lambda e: e.kind is Kind.ARRAY, lambda e: e.kind is Kind.MUTABLE,
                        lambda e: e.kind is Kind.INSTANCE, lambda e: e.leaf is not None):
            if evidence and all(any(concern(e) for e in alternative) for alternative in evidence):
                found.extend(e for alternative in evidence for e in alternative if concern(e))
        return found

    def _subscript_annotation(self, annotation: cst.Subscript) -> list[Evidence]:
        base = self._type_name(annotation.value) or ""
        short = base.rsplit(".", 1)[-1]
        args = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
        if not args:
            return []
        if base in WRAPPER_TYPES or short in ("Optional", "Annotated", "Static"):
            return self.annotation(args[0])
        if base in UNION_TYPES or short == "Union":
            return self._union_annotation(args)
        if base in MUTABLE_TYPES or short in ("List", "Dict", "Set", "DefaultDict"):
            return [Evidence(Kind.MUTABLE, annotation, f"a `{short}`")]
        if base in CALLABLE_TYPES:
            return [Evidence(Kind.SAFE, annotation, "a callable type", leaf="callable")]
        if base in ("typing.Type", "type"):
            return [Evidence(Kind.SAFE, annotation, "a class", leaf="class")]
        if base in TUPLE_TYPES:
            inner = [e for a in args for e in self.annotation(a) if e.kind is Kind.ARRAY]
            return [replace(e, node=annotation, what="a tuple of arrays") for e in inner[:1]] or [
                Evidence(Kind.SAFE, annotation, "a tuple")]
        if base.startswith("jaxtyping.") and short in JAXTYPING_DTYPES:
            if any(e.kind is Kind.ARRAY for e in self.annotation(args[0])):
                return [Evidence(Kind.ARRAY, annotation, "an array type")]
            return []
        if base in ARRAY_TYPES:
            return [Evidence(Kind.ARRAY, annotation, "an array type")]
        return []

    # expressions ---------------------------------------------------------------------------------
    def _infer(self, expr: cst.BaseExpression, context: Context) -> list[Evidence]:
        if isinstance(expr, cst.Name):
            return self._name(expr, context)
        if isinstance(expr, cst.Attribute):
            return self._attribute(expr, context)
        if isinstance(expr, cst.Call):
            return self._call(expr, context)
        if isinstance(expr, cst.FormattedString):
            volatile = [e for part in expr.parts if isinstance(part, cst.FormattedStringExpression)
                        for e in self.infer(part.expression, context) if e.kind is Kind.VOLATILE]
            return volatile or [Evidence(Kind.SAFE, expr, "a string", leaf="str")]
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
            return [Evidence(Kind.SAFE, expr, "a string", leaf="str")]
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
            return [Evidence(Kind.SAFE, expr, "a literal")]
        if isinstance(expr, cst.Tuple):
            return self._elements(expr.elements, context)
        if isinstance(expr, (cst.List, cst.Set)):
            kind = "list" if isinstance(expr, cst.List) else "set"
            return [Evidence(Kind.MUTABLE, expr, f"a {kind} display"),
                    *self._elements(expr.elements, context)]
        if isinstance(expr, cst.Dict):
            values = [e.value for e in expr.elements if isinstance(e, cst.DictElement)]
            return [Evidence(Kind.MUTABLE, expr, "a dict display"),
                    *_union(self.infer(v, context) for v in values)]
        if isinstance(expr, (cst.ListComp, cst.SetComp)):
            kind = "list" if isinstance(expr, cst.ListComp) else "set"
            return [Evidence(Kind.MUTABLE, expr, f"a {kind} comprehension"),
                    *self._problems(self.infer(expr.elt, context))]
        if isinstance(expr, cst.DictComp):
            return [Evidence(Kind.MUTABLE, expr, "a dict comprehension"),
                    *self._problems(self.infer(expr.value, context))]
        if isinstance(expr, cst.Lambda):
            return [Evidence(Kind.VOLATILE, expr, "a lambda", leaf="callable")]
        if isinstance(expr, (cst.BinaryOperation, cst.Comparison, cst.UnaryOperation)):
            return self._arithmetic(expr, context)
        if isinstance(expr, cst.BooleanOperation):
            return self.infer(expr.left, context) + self.infer(expr.right, context)
        if isinstance(expr, cst.IfExp):
            return self.infer(expr.body, context) + self.infer(expr.orelse, context)
        if isinstance(expr, cst.NamedExpr):
            return self.infer(expr.value, context)
        if isinstance(expr, cst.Subscript):
            return self._subscript(expr, context)
        return []

    @staticmethod
    def _problems(evidence: list[Evidence]) -> list[Evidence]:
        return [e for e in evidence if e.kind is not Kind.SAFE]

    def _elements(self, elements, context: Context) -> list[Evidence]:
        found = [self.infer(e.value, context) for e in elements if not isinstance(e, cst.StarredElement)]
        return _union(found)

    def _arithmetic(self, expr, context: Context) -> list[Evidence]:
        if isinstance(expr, cst.UnaryOperation):
            if isinstance(expr.operator, cst.Not):
                return [Evidence(Kind.SAFE, expr, "a bool")]
            operands = [expr.expression]
        elif isinstance(expr, cst.BinaryOperation):
            operands = [expr.left, expr.right]
        else:
            if all(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn))
                   for c in expr.comparisons):
                return [Evidence(Kind.SAFE, expr, "a bool")]
            operands = [expr.left, *(c.comparator for c in expr.comparisons)]
        arrays = [e for operand in operands for e in self.infer(operand, context)
                  if e.kind is Kind.ARRAY]
        return arrays[:1]

    def _subscript(self, expr: cst.Subscript, context: Context) -> list[Evidence]:
        sliced = any(isinstance(e.slice, cst.Slice) for e in expr.slice)
        if not sliced:
            return []
        return [e for e in self.infer(expr.value, context) if e.kind is Kind.ARRAY][:1]

    def _name(self, expr: cst.Name, context: Context) -> list[Evidence]:
        name = expr.value
        if name in ("None", "True", "False"):
            return []  # placeholders such as `x: jax.Array = None` say nothing against the annotation
        function = context.function
        if function is not None:
            found: list[Evidence] = []
            bound = function.bindings_before(name, context.statement)
            param = function.all_params.get(name)
            for binding in bound:
                value = binding.value
                if isinstance(value, cst.FunctionDef):
                    found.append(Evidence(Kind.VOLATILE, value,
                                          f"a function defined inside `{function.name}`", leaf="callable"))
                elif value is not None:
                    found.extend(e.through(name, "is assigned", value)
                                 for e in self.infer(value, replace(context, statement=binding.statement)))
            if param is not None:
                found.extend(self._parameter(param, context))
            if bound or param is not None:
                return found
        if not self.index.aliases.is_module_local(name):
            return []
        if name in self.index.functions:
            return [Evidence(Kind.SAFE, expr, f"the function `{name}`", leaf="callable")]
        if name in self.index.classes:
            return [Evidence(Kind.SAFE, expr, f"the class `{name}`", leaf="class")]
        found = []
        for value in self.index.bindings.get(name, ()):
            if value is not None:
                found.extend(replace(e, shared=True).through(name, "is assigned", value)
                             for e in self.infer(value, MODULE_CONTEXT))
        return found

    def _parameter(self, param: cst.Param, context: Context) -> list[Evidence]:
        name = param.name.value
        found: list[Evidence] = []
        if param.annotation is not None:
            annotation = param.annotation.annotation
            found.extend(e.through(name, "is annotated", annotation) for e in self.annotation(annotation))
        if param.default is not None:
            found.extend(replace(e, shared=True).through(name, "defaults to", param.default)
                         for e in self.infer(param.default, context))
        function = context.function
        if function is not None and function.cls is not None and function.name == "__init__":
            position = next((i for i, p in enumerate(function.params) if p is param), None)
            if position != 0:  # position 0 is `self`
                found.extend(self.constructor_arguments(function.cls, name,
                                                        None if position is None else position - 1))
        return found

    def constructor_arguments(self, cls: ClassInfo, name: str, position: int | None, via: str | None = None,
                              everywhere: bool = False) -> list[Evidence]:
        """What the constructor calls in the class's body or at module level (see
        ModuleIndex.constructor_calls) pass as the argument `name` (or positional argument `position`);
        `via` names the value in the trail (default: `name`). `everywhere`: the calls in every function too,
        their arguments judged by module-level names only."""
        calls = self.index.constructor_calls(cls) if not everywhere else [
            (call, None) for call, _in_function in self.index.all_calls if self.index.resolve_class(call.func) is cls]
        found = []
        for call, method in calls:
            positional = [a for a in call.args if a.keyword is None]
            if any(a.star for a in call.args):
                continue
            argument = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)
            if argument is None and position is not None and position < len(positional):
                argument = positional[position].value
            if argument is None:
                continue
            if method is None:
                relation, context = "is given", MODULE_CONTEXT
            else:
                instances = ((method.self_name, cls),) if method.self_name else ()
                relation, context = f"is given by `{method.name}()`", Context(method, instances)
            # A value passed at module level is still one per instance: not `shared`.
            found.extend(replace(e, shared=False).through(via or name, relation, argument)
                         for e in self.infer(argument, context))
        return found

    def _attribute(self, expr: cst.Attribute, context: Context) -> list[Evidence]:
        owner, attr = expr.value, expr.attr.value
        if isinstance(owner, cst.Name):
            cls = context.instance_class(owner.value)
            if cls is not None:
                return self.attribute(cls, attr, f"{owner.value}.{attr}")
        if attr in SAFE_ATTRIBUTES:
            return [Evidence(Kind.SAFE, expr, f"`.{attr}`")]
        qualified = self.index.qualify(expr)
        if qualified is not None:
            if qualified.startswith("jax.nn.") and attr.islower() and attr not in ("initializers",):
                return [Evidence(Kind.SAFE, expr, f"the function `{qualified}`", leaf="callable")]
            return []  # a library constant such as `np.pi` or `jnp.float32`
        if attr in ARRAY_ATTRIBUTES:
            return [e for e in self.infer(owner, context) if e.kind is Kind.ARRAY][:1]
        return []

    def _call(self, expr: cst.Call, context: Context) -> list[Evidence]:
        func = expr.func
        if isinstance(func, cst.Name) and self.index.is_builtin(func.value, context.function):
            return self._builtin_call(func.value, expr, context)
        qualified = self.index.qualify(func)
        if qualified is not None:
            return self._library_call(qualified, expr, context)
        cls = self.index.resolve_class(func)
        if cls is not None:
            return [Evidence(Kind.INSTANCE, expr, f"a new `{cls.name}`", cls=cls, constructed=True)]
        if isinstance(func, cst.Attribute):
            return self._method_call(func, expr, context)
        return []

    def _builtin_call(self, name: str, expr: cst.Call, context: Context) -> list[Evidence]:
        if name in MUTABLE_BUILTINS:
            return [Evidence(Kind.MUTABLE, expr, f"a `{name}`" if name != "sorted" else "a list")]
        if name in ("id", "object") and (name == "id" or not expr.args):
            return [Evidence(Kind.VOLATILE, expr, f"`{name}()`")]
        if name in SAFE_BUILTINS:
            # A conversion is hashable, but keeps what makes its input volatile (`str(uuid4())`), and a
            # tuple keeps the arrays it is built from (`tuple(np.asarray(v) for v in vs)`).
            kept = (Kind.VOLATILE, Kind.ARRAY) if name in ("tuple", "frozenset") else (Kind.VOLATILE,)
            inner = [e for arg in expr.args for e in self._contents(arg.value, context) if e.kind in kept]
            return inner or [Evidence(Kind.SAFE, expr, f"`{name}(...)`", leaf="str" if name == "str" else None)]
        return []

    def _contents(self, expr: cst.BaseExpression, context: Context) -> list[Evidence]:
        """Evidence about what an iterable yields (the elements of a display or comprehension)."""
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return self._elements(expr.elements, context)
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.infer(expr.elt, context)
        return self.infer(expr, context)

    def _library_call(self, qualified: str, expr: cst.Call, context: Context) -> list[Evidence]:
        if qualified in VOLATILE_CALLS or qualified.startswith(VOLATILE_MODULES):
            callable_result = qualified == "functools.partial" or qualified.startswith("jax.")
            return [Evidence(Kind.VOLATILE, expr, f"`{qualified}(...)`", leaf="callable" if callable_result else None)]
        if qualified in MUTABLE_CALLS:
            return [Evidence(Kind.MUTABLE, expr, f"a `{qualified.rsplit('.', 1)[-1]}`")]
        if qualified in COPY_CALLS:
            return self.infer(expr.args[0].value, context) if expr.args else []
        if qualified.startswith("numpy."):
            return self._numpy_call(qualified[len("numpy."):], expr, context)
        if qualified in JAX_ARRAY_FUNCTIONS or (
                qualified.startswith(JAX_ARRAY_MODULES)
                and not qualified.startswith(tuple(JAX_NON_ARRAY))
                and qualified.split(".", 2)[-1] not in NON_ARRAY_FUNCTIONS):
            return [Evidence(Kind.ARRAY, expr, "a JAX array")]
        if qualified in ("types.MappingProxyType", "operator.itemgetter", "operator.attrgetter"):
            return [Evidence(Kind.SAFE, expr, f"`{qualified}(...)`")]
        return []

    def _numpy_call(self, name: str, expr: cst.Call, context: Context) -> list[Evidence]:
        if name in NON_ARRAY_FUNCTIONS:
            return [Evidence(Kind.SAFE, expr, f"`numpy.{name}(...)`")]
        if name in NUMPY_SCALAR_TYPES:
            return [Evidence(Kind.SAFE, expr, "a NumPy scalar")]
        if name in NUMPY_ARRAY_CONSTRUCTORS:
            if name in ("random.rand", "random.randn") and not expr.args:
                return [Evidence(Kind.VOLATILE, expr, f"`numpy.{name}()`")]
            return [Evidence(Kind.ARRAY, expr, "a NumPy array")]
        if name.startswith("random."):
            sized = any(a.keyword is not None and a.keyword.value == "size" for a in expr.args)
            return [Evidence(Kind.ARRAY, expr, "a NumPy array")] if sized else []
        if name in NUMPY_REDUCTIONS:
            keeps_axis = len(expr.args) > 1 or any(a.keyword is not None and a.keyword.value in ("axis", "keepdims")
                                                   for a in expr.args)
            if not keeps_axis:
                return [Evidence(Kind.SAFE, expr, "a NumPy scalar")]
        # Any other numpy function returns an array when it is given one (np.exp(w), np.where(m, a, b)).
        for arg in expr.args:
            if any(e.kind is Kind.ARRAY for e in self.infer(arg.value, context)):
                return [Evidence(Kind.ARRAY, expr, "a NumPy array")]
        return []

    def _method_call(self, func: cst.Attribute, expr: cst.Call, context: Context) -> list[Evidence]:
        method = func.attr.value
        if method not in ARRAY_METHODS and method not in SAFE_METHODS and method != "tolist":
            return []
        owner = self.infer(func.value, context)
        if not any(e.kind is Kind.ARRAY for e in owner):
            return []
        if method == "tolist":
            return [Evidence(Kind.MUTABLE, expr, "a list (`.tolist()`)")]
        if method in SAFE_METHODS:
            return [Evidence(Kind.SAFE, expr, f"`.{method}()`")]
        return [Evidence(Kind.ARRAY, expr, "an array")]

    # attributes of a class -------------------------------------------------------------------------
    def _attribute_sources(self, cls: ClassInfo, attr: str) -> list[Evidence]:
        found: list[Evidence] = []
        for owner in self.index.class_and_bases(cls):
            for assignment in self._live_assignments(owner.assignments.get(attr, ())):
                method = assignment.method
                if assignment.augmented:
                    if method.name not in CONSTRUCTOR_METHODS:
                        found.append(Evidence(Kind.VOLATILE, assignment.statement,
                                              f"a value `{method.name}()` changes",
                                              trail=(Hop(_PLACEHOLDER, "is updated by", assignment.statement),)))
                    continue
                if assignment.value is None:
                    continue
                context = Context(method, ((method.self_name or "self", cls),), assignment.statement)
                found.extend(e.through(_PLACEHOLDER, "is assigned", assignment.value)
                             for e in self.infer(assignment.value, context))
        method = self.index.find_method(cls, attr)
        if not found and method is not None and not method.decorator_names:
            found.append(Evidence(Kind.SAFE, method.node, f"the bound method `{cls.name}.{attr}`", leaf="callable"))
        declared = [owner.fields[attr] for owner in self.index.class_and_bases(cls) if attr in owner.fields]
        for class_field in declared[:1]:
            found.extend(self._field_default(class_field, cls))
            if self.index.find_method(cls, "__init__") is None:  # a dataclass or NamedTuple: fields in order
                found.extend(self.constructor_arguments(cls, attr, self.field_position(cls, attr), _PLACEHOLDER))
            # The declared type speaks unless a value built per instance says otherwise.
            if class_field.annotation is not None and all(e.shared for e in found):
                found.extend(e.through(_PLACEHOLDER, "is annotated", class_field.annotation)
                             for e in self.annotation(class_field.annotation))
        return found

    def field_position(self, cls: ClassInfo, attr: str) -> int | None:
        """The position of a generated constructor's argument for field `attr`: annotated fields, bases first
        (None when a field is keyword-only, or anything else makes the order unsure)."""
        if any("kw_only" in self.index.code(d.decorator) for d in cls.node.decorators):
            return None
        order: list[str] = []
        for owner in reversed(self.index.class_and_bases(cls)):
            for declared in declared_fields(self.index, owner):
                if self.index.qualify(declared.annotation) == "dataclasses.KW_ONLY":
                    break
                if declared.name not in order:
                    order.append(declared.name)
        return order.index(attr) if attr in order else None

    @staticmethod
    def _live_assignments(assignments):
        """Per method, the assignments the method's last unconditional assignment does not overwrite."""
        by_method: dict[int, list] = {}
        for assignment in assignments:
            by_method.setdefault(id(assignment.method), []).append(assignment)
        live = []
        for group in by_method.values():
            live.extend(live_bindings(group))
        return live

    def _field_default(self, class_field, cls: ClassInfo) -> list[Evidence]:
        value = class_field.value
        if value is None:
            return []
        if isinstance(value, cst.Call) and self.frameworks.is_field_call(value):
            args = keyword_arguments(value.args)
            found: list[Evidence] = []
            converter = args.get("converter")
            if converter is not None and self._array_function(converter):
                found.append(Evidence(Kind.ARRAY, converter, "an array").through(
                    _PLACEHOLDER, "is converted by", converter))
            if "default" in args:
                found.extend(replace(e, shared=True).through(_PLACEHOLDER, "defaults to", args["default"])
                             for e in self.infer(args["default"]))
            factory = args.get("default_factory")
            if factory is not None:
                found.extend(e.through(_PLACEHOLDER, "defaults to", factory)
                             for e in self._factory(factory))
            return found
        return [replace(e, shared=True).through(_PLACEHOLDER, "defaults to", value)
                for e in self.infer(value)]

    def _factory(self, factory: cst.BaseExpression) -> list[Evidence]:
        """What a `default_factory` builds: `list` builds a list, `lambda: np.zeros(3)` an array."""
        if isinstance(factory, cst.Lambda):
            return self.infer(factory.body)
        if isinstance(factory, cst.Name) and self.index.is_builtin(factory.value):
            built = self._builtin_call(factory.value, cst.Call(factory), MODULE_CONTEXT)
            return [replace(e, node=factory) for e in built]
        qualified = self.index.qualify(factory)
        if qualified in MUTABLE_CALLS:
            return [Evidence(Kind.MUTABLE, factory, f"a `{qualified.rsplit('.', 1)[-1]}`")]
        return []

    def _array_function(self, function: cst.BaseExpression) -> bool:
        """`jnp.asarray`, `np.array`, ...: a function that makes arrays (as a `converter=`)."""
        qualified = self.index.qualify(function) or ""
        if qualified.startswith("numpy."):
            return qualified[len("numpy."):] in NUMPY_ARRAY_CONSTRUCTORS
        return qualified in JAX_ARRAY_FUNCTIONS or (
            qualified.startswith(JAX_ARRAY_MODULES) and qualified.split(".", 2)[-1] not in NON_ARRAY_FUNCTIONS)


_PLACEHOLDER = "\0"


def _rename(evidence: Evidence, via: str) -> Evidence:
    """Attribute evidence is cached once per class; the access path (`self.x`, `obj.x`) is filled in."""
    trail = tuple(replace(h, via=via) if h.via == _PLACEHOLDER else h for h in evidence.trail)
    return replace(evidence, trail=trail)
