"""Whether JSON read back from the result cache's manifests has the shape written, so a damaged file (a full
disk, another tool, an older layout) is read as missing, linted again and rewritten. (The database's entries
carry a checksum instead: see cachedir.EntryDatabase.)"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from functools import cache
from typing import Union, get_args, get_origin, get_type_hints


def conforms(value, hint) -> bool:
    """`value`, read from JSON, has the shape JSON gives the type `hint` (records as arrays, tuples as
    lists); bare `tuple` and `dict` hold literals of any kind."""
    return _checker(hint)(value)


@cache
def _checker(hint) -> Callable[[object], bool]:
    """The check of one type, made once: the caches read thousands of values of a few types."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        alternatives = tuple(_checker(arg) for arg in args)
        return lambda value: any(check(value) for check in alternatives)
    if hint is type(None):
        return lambda value: value is None
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        hints = _field_types(hint)
        fields = tuple(_checker(hints[name]) for name in hint._fields)
        return lambda value: (isinstance(value, list) and len(value) == len(fields)
                              and all(check(item) for check, item in zip(fields, value)))
    if hint is tuple or origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is str:  # the common case (names, modules), checked without a call per item
                return lambda value: isinstance(value, list) and all(type(item) is str for item in value)
            each = _checker(args[0])
            return lambda value: isinstance(value, list) and all(each(item) for item in value)
        if not args:
            return lambda value: isinstance(value, list)
        items = tuple(_checker(arg) for arg in args)
        return lambda value: (isinstance(value, list) and len(value) == len(items)
                              and all(check(item) for check, item in zip(items, value)))
    if hint is dict or origin is dict:
        if not args:
            return lambda value: isinstance(value, dict)
        key_check, item_check = _checker(args[0]), _checker(args[1])
        return lambda value: isinstance(value, dict) and all(
            key_check(key) and item_check(item) for key, item in value.items())
    if hint in (bool, int):
        return lambda value: type(value) is hint
    return lambda value: hint is str and isinstance(value, str)


def _field_types(record: type) -> dict:
    """A record's field types: its annotations, written as strings, read in its module with one `eval` (a
    process reading the caches made its checks in 3 ms, `get_type_hints` compiling each annotation apart)."""
    annotations = record.__annotations__
    if not all(isinstance(annotation, str) for annotation in annotations.values()):
        return get_type_hints(record)
    evaluated = eval(f"({', '.join(annotations.values())},)", vars(sys.modules[record.__module__]))
    return dict(zip(annotations, evaluated))
