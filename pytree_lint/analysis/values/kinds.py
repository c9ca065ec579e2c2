"""The vocabulary rules use to ask about values and classes."""

import enum


class Kind(enum.Enum):
    """What the evidence says a value is."""

    ARRAY = "array"
    MUTABLE = "mutable"
    VOLATILE = "volatile"
    INSTANCE = "instance"
    SAFE = "safe"  # known hashable with value equality: str, numbers, tuple(...), .shape, ...
    # Whatever another project module's name holds or its function returns, written into a summary as the
    # name (summaries read one module alone) and looked up in the project when a lint reads it.
    REFERENCE = "reference"


class Leaf(enum.Enum):
    """A Python value jit cannot trace as a leaf, by how messages name it."""

    STR = "a string"
    CALLABLE = "a callable"
    CLASS = "a class object"


class Relation(enum.Enum):
    """One step of a value's way to where it is reported (a hop), by the verb messages write for it."""

    ASSIGNED = "is assigned"
    ANNOTATED = "is annotated"
    DEFAULTS_TO = "defaults to"
    RETURNS = "returns"
    UPDATED_BY = "is updated by"
    FILLED_WITH = "is filled with"  # a value put into the container an attribute holds (`self.d[k] = v`)
    CONVERTED_BY = "is converted by"
    GIVEN = "is given"  # a constructor argument, at module level (or by a method: Hop.by)
    # A nested function's free name, read from the function around it, which makes it once per call of its own.
    ENCLOSED = "is read by a nested function from"
    HOLDS_CHILDREN = "holds the children"
    ALSO_A_CHILD = "is also among the children"


class Volatility(enum.Enum):
    """Why a value differs from one flatten (or one object) to the next."""

    IDENTITY = "id()"  # `id(self)`: each object's own
    OBJECT = "object()"  # a fresh `object()`: nothing but an identity
    CHANGED = "changed by a method"  # an attribute a method keeps updating (`self.step += 1`)
    NEW = "made anew"  # a lambda, a nested function, a clock, a random draw, a uuid


class Equality(enum.Enum):
    """How instances of a class compare."""

    IDENTITY = "identity"  # object.__eq__: only the same object is equal
    GENERATED = "generated"  # dataclass / NamedTuple: field by field
    TREE_EQUAL = "tree_equal"  # leaf by leaf, arrays reduced to one bool (equinox's Module): never raises
    CUSTOM = "custom"  # the class (or a base in this module) defines __eq__
    UNKNOWN = "unknown"  # a base class we cannot see may define __eq__


class NnxStatus(enum.Enum):
    """What Flax NNX makes of a value assigned to an attribute (analysis/pytrees/nnx.py)."""

    DATA = "data"  # a Variable, array, Module or other graph node: a child
    STATIC = "static"  # anything else: part of the GraphDef
    CONTAINER_WITH_DATA = "container with data"  # a plain list/dict/tuple holding data: NNX raises
    EXPLICIT_DATA = "nnx.data"
    EXPLICIT_STATIC = "nnx.static"
    UNKNOWN = "unknown"
