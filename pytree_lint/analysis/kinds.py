"""The vocabulary rules use to ask about values and classes; importable without libcst."""

import enum


class Kind(enum.Enum):
    """What the evidence says a value is."""

    ARRAY = "array"
    MUTABLE = "mutable"
    VOLATILE = "volatile"
    INSTANCE = "instance"
    SAFE = "safe"  # known hashable with value equality: str, numbers, tuple(...), .shape, ...


# How messages name a value jit cannot trace as a leaf (Evidence.leaf).
LEAF_NAMES = {"str": "a string", "callable": "a callable", "class": "a class object"}


class Equality(enum.Enum):
    """How instances of a class compare."""

    IDENTITY = "identity"  # object.__eq__: only the same object is equal
    GENERATED = "generated"  # dataclass / NamedTuple: field by field
    CUSTOM = "custom"  # the class (or a base in this module) defines __eq__
    UNKNOWN = "unknown"  # a base class we cannot see may define __eq__
