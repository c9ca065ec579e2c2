"""distrax: every `Distribution` and `Bijector` is a `Jittable`, registered when first instantiated. Its
flatten splits `self.__dict__` by value: what JAX can trace is a child, the rest (ints, strings,
callables, None) aux_data; unflatten sets `__dict__` on `object.__new__(cls)` (distrax 0.1.9,
`_src/utils/jittable.py`). Nothing is static by declaration, nor a child by declaration."""

from .base import Convention, PytreeLibrary

LIBRARY = PytreeLibrary(
    "distrax", Convention.NONE,
    bases=frozenset({"distrax._src.utils.jittable.Jittable", "distrax.Distribution", "distrax.Bijector"}),
    registered_prefixes=("distrax.",),
    fields_are_children=False,
)
