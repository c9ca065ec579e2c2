"""`@record`: how the analysis declares its facts. A dataclass compared by identity and without a generated
`__repr__` or frozen `__setattr__` (every generated method is compiled at import, on each keystroke's
flake8 run: about 6 ms for the fifty-odd records); one shared `__repr__` prints a fact readably in a failing
test or a debugger: its fields, a syntax node as its source text and line, a nested fact by its kind and name."""

import ast
import reprlib
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any

_SHOWN_CHARACTERS = 60  # of a syntax node's source text
_SHOWN_ITEMS = 4  # of a list, tuple, set or dict


@reprlib.recursive_repr()
def _readable(fact: Any) -> str:
    shown = ", ".join(f"{f.name}={_shown(getattr(fact, f.name, None))}" for f in fields(fact))
    return f"{type(fact).__name__}({shown})"


def _shown(value: Any) -> str:
    if isinstance(value, ast.AST):
        text = " ".join(ast.unparse(value).split()) if isinstance(value, (ast.expr, ast.stmt, ast.arg)) else ""
        text = text if len(text) <= _SHOWN_CHARACTERS else text[:_SHOWN_CHARACTERS - 3] + "..."
        return f"<{type(value).__name__} `{text}` line {getattr(value, 'lineno', '?')}>"
    if is_dataclass(value) and not isinstance(value, type):
        name = getattr(value, "name", None)
        return f"<{type(value).__name__}{f' {name}' if isinstance(name, str) else ''}>"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_shown(item) for item in list(value)[:_SHOWN_ITEMS]]
        more = f", ... {len(value) - _SHOWN_ITEMS} more" if len(value) > _SHOWN_ITEMS else ""
        return f"[{', '.join(items)}{more}]"
    if isinstance(value, dict):
        items = [f"{key!r}: {_shown(item)}" for key, item in list(value.items())[:_SHOWN_ITEMS]]
        more = f", ... {len(value) - _SHOWN_ITEMS} more" if len(value) > _SHOWN_ITEMS else ""
        return f"{{{', '.join(items)}{more}}}"
    return repr(value)


if TYPE_CHECKING:  # what a type checker needs to know: the annotated fields make the constructor
    from typing import TypeVar

    from typing_extensions import dataclass_transform

    T = TypeVar("T")

    @dataclass_transform(eq_default=False)
    def record(cls: type[T]) -> type[T]: ...
else:
    def record(cls):
        made = dataclass(cls, eq=False, repr=False)
        made.__repr__ = _readable
        return made
