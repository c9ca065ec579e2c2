"""What Python's builtins and standard library mean for a value that reaches a pytree."""

import builtins

BUILTIN_NAMES = frozenset(dir(builtins))  # `from numpy import *` does not make `int` or `tuple` numpy's

# Annotations.
MUTABLE_TYPES = frozenset({
    "list", "dict", "set", "bytearray", "typing.List", "typing.Dict", "typing.Set",
    "typing.DefaultDict", "typing.OrderedDict", "typing.MutableMapping", "typing.MutableSequence",
    "typing.MutableSet", "collections.abc.MutableMapping", "collections.abc.MutableSequence",
    "collections.abc.MutableSet", "collections.OrderedDict", "collections.defaultdict",
    "collections.deque", "collections.Counter",
})
MUTABLE_TYPE_SHORT_NAMES = frozenset({"List", "Dict", "Set", "DefaultDict"})
SAFE_TYPES = frozenset({
    "int", "float", "str", "bool", "bytes", "complex", "frozenset", "type", "None",
    "typing.FrozenSet", "typing.Hashable", "numpy.dtype",
})
TUPLE_TYPES = frozenset({"tuple", "typing.Tuple"})
# Builtin types no array (nor NumPy scalar) is an instance of: `isinstance(x, tuple)` holding keeps arrays out.
NOT_ARRAY_TYPES = frozenset({"tuple", "list", "dict", "set", "frozenset", "str", "bytes"})
CALLABLE_TYPES = frozenset({"typing.Callable", "collections.abc.Callable", "Callable"})
CLASS_TYPES = frozenset({"typing.Type", "type"})
WRAPPER_TYPES = frozenset({"typing.Optional", "typing.Annotated", "typing_extensions.Annotated"})
WRAPPER_SHORT_NAMES = frozenset({"Optional", "Annotated", "Static"})
UNION_TYPES = frozenset({"typing.Union"})
ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
CLASS_VARIABLES = frozenset({"typing.ClassVar", "typing.Final"})
NAMED_TUPLE = "typing.NamedTuple"
# Types whose every value JAX flattens as a node (a subtree), never as one leaf.
PYTREE_CONTAINER_TYPES = frozenset({
    "list", "tuple", "dict", "typing.List", "typing.Tuple", "typing.Dict", "typing.Sequence", "typing.Mapping",
    "typing.MutableSequence", "typing.MutableMapping", "typing.OrderedDict", "typing.DefaultDict",
    "collections.abc.Sequence", "collections.abc.Mapping", "collections.abc.MutableSequence",
    "collections.abc.MutableMapping", "collections.OrderedDict", "collections.defaultdict",
})
KW_ONLY = "dataclasses.KW_ONLY"

# Calls.
MUTABLE_BUILTINS = frozenset({"list", "dict", "set", "bytearray", "sorted"})
SAFE_BUILTINS = frozenset({
    "tuple", "frozenset", "int", "float", "str", "bool", "bytes", "complex", "len", "hash", "repr",
    "range", "type", "abs", "round", "ord", "chr", "format",
})
# Of those, the conversions that make a hashable container of an iterable's items (hashable when they are).
HASHABLE_CONVERSIONS = frozenset({"tuple", "frozenset"})
MUTABLE_CALLS = frozenset({
    "collections.OrderedDict", "collections.defaultdict", "collections.deque", "collections.Counter",
})
COPY_CALLS = frozenset({"copy.copy", "copy.deepcopy"})  # a copy is what it copies
SAFE_CALLS = frozenset({"types.MappingProxyType", "operator.itemgetter", "operator.attrgetter"})
# New on every call: compared by identity, or different by design.
VOLATILE_CALLS = frozenset({
    "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
    "time.monotonic_ns", "time.process_time", "datetime.datetime.now", "datetime.datetime.utcnow",
    "datetime.now", "datetime.utcnow", "datetime.datetime.today", "uuid.uuid1", "uuid.uuid3",
    "uuid.uuid4", "uuid.uuid5", "os.urandom", "itertools.count", "functools.partial",
})
VOLATILE_MODULES = ("random.", "secrets.")
PARTIAL = "functools.partial"
# Decorators that memoise: a call with equal arguments returns the object an earlier call made.
MEMOIZERS = frozenset({"functools.lru_cache", "functools.cache"})
OBJECT_NEW = "object.__new__"
SETATTR_CALLS = frozenset({"object.__setattr__", "setattr"})

# Iterables that JAX's tree functions take as one leaf.
DICT_VIEWS = frozenset({"values", "keys", "items"})
ITERATOR_NAMES = frozenset({"zip", "map", "filter", "enumerate", "reversed", "iter"})
# Of those, the ones JAX takes as a leaf without a word (measured, jax 0.10.2 and 0.12.0.1: pitfalls PT25);
# the others give `DeprecationWarning: Python iterable type ... is treated as a leaf in PyTree`.
SILENT_LEAF_ITERABLES = frozenset({"keys", "items", "reversed"})
# Containers a call writes at a static position (PTL403).
UNHASHABLE_BUILTINS = frozenset({"list", "dict", "set", "sorted", "bytearray"})
# Methods that change a list, dict or set in place.
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "add", "discard", "update",
    "difference_update", "intersection_update", "symmetric_difference_update", "__setitem__", "__delitem__",
    "__iadd__", "setdefault", "popitem",
})
# Of those, the ones that put a value into a list, dict or set: the value is their last argument (for `extend`
# and `update`, what holds the values put in).
FILLING_METHODS = frozenset({"append", "insert", "extend", "update", "setdefault", "add"})
# Methods that read a container without handing it on (a copy is a new object).
READING_METHODS = frozenset({"get", "keys", "values", "items", "copy", "count", "index"})

# Classes: how their instances compare. The decorators that make a dataclass, but the pytree libraries' (their
# PytreeLibrary.makes_dataclasses: knowledge.DATACLASS_DECORATORS holds both).
DATACLASS_DECORATORS = frozenset({
    "dataclasses.dataclass", "attr.s", "attr.attrs", "attr.define", "attr.frozen", "attr.mutable", "attrs.define",
    "attrs.frozen", "attrs.mutable", "pydantic.dataclasses.dataclass",
})
# Bases whose subclasses compare by value, but the pytree libraries' (their PytreeLibrary.frozen_dataclasses:
# knowledge.VALUE_BASES holds both, as it does for the two tables after).
VALUE_BASES = frozenset({
    "typing.NamedTuple", "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag",
    "tuple", "int", "str", "float", "frozenset", "bytes",
})
NEUTRAL_BASES = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol"})
# Classes whose instances hash their fields without asking: frozen by default, or tuples.
FROZEN_BY_DEFAULT = frozenset({"attr.frozen", "attrs.frozen"})
FROZEN_BASES = frozenset({"typing.NamedTuple"})
# Methods that run on concrete values, never on the leaves of a transformed instance.
CONSTRUCTOR_METHODS = frozenset({"__init__", "__post_init__", "__new__", "setup", "__setstate__"})
NOT_TRACED_METHODS = frozenset({
    "__init__", "__post_init__", "__new__", "__repr__", "__str__", "__format__", "__hash__", "__eq__", "__ne__",
    "__getstate__", "__setstate__", "__reduce__", "__del__", "tree_flatten", "tree_unflatten",
    "tree_flatten_with_keys"})

# Syntax a newer Python reads that an older one's parser refuses: (the Python that reads it, what it is, a
# pattern of the line the parser stops at and one of its message; "": any). A file written for a newer Python
# than the one running the linter is then reported as needing it, not only as a syntax error.
NEWER_SYNTAX: tuple[tuple[tuple[int, int], str, str, str], ...] = (
    ((3, 12), "a `type` statement", r"^\s*type\s+[A-Za-z_]\w*\s*[\[=]", ""),
    ((3, 12), "a generic function, `def f[T](...)`", r"^\s*(?:async\s+)?def\s+\w+\s*\[", ""),
    ((3, 12), "a generic class, `class C[T]`", r"^\s*class\s+\w+\s*\[", ""),
    ((3, 12), "perhaps an f-string with quotes, backslashes or comments in its braces", "", r"^f-string"),
    ((3, 14), "a template string, `t\"...\"`", r"(?<![\w.'\"])(?:[tT][rR]?|[rR][tT])[\"']", ""),
    ((3, 14), "`except` with several types and no parentheses", r"^(?!.*\bas\b)\s*except",
     r"^multiple exception types must be parenthesized"),
)
