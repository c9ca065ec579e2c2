"""Whether JSON read back from a cache has the shape written: the caches' one check, so a damaged file
(a full disk, another tool, an older layout) is read as missing, linted again and rewritten."""

from __future__ import annotations

import types
from functools import cache
from typing import Union, get_args, get_origin, get_type_hints


def conforms(value, hint) -> bool:
    """`value`, read from JSON, has the shape JSON gives the type `hint` (records as arrays, tuples as
    lists); bare `tuple` and `dict` hold literals of any kind."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        return any(conforms(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        hints = _record_hints(hint)
        return (isinstance(value, list) and len(value) == len(hint._fields)
                and all(conforms(item, hints[name]) for item, name in zip(value, hint._fields)))
    if hint is tuple or origin is tuple:
        if not isinstance(value, list):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is str:  # the common case (names, modules), checked without a call per item
                return all(type(item) is str for item in value)
            return all(conforms(item, args[0]) for item in value)
        return not args or (len(value) == len(args) and all(map(conforms, value, args)))
    if hint is dict or origin is dict:
        return isinstance(value, dict) and (not args or all(
            conforms(key, args[0]) and conforms(item, args[1]) for key, item in value.items()))
    if hint in (bool, int):
        return type(value) is hint
    return hint is str and isinstance(value, str)


@cache
def _record_hints(record: type) -> dict:
    return get_type_hints(record)
