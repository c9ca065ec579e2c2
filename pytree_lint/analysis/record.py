"""`@record`: how the analysis declares its facts. A class with a generated `__init__` over its annotated
fields (defaults and this module's `field(default_factory=...)` as a dataclass reads `dataclasses.field`'s,
base records' fields first), compared by identity. Made here rather than by `dataclasses.dataclass`, whose
field processing took 20 ms of the plugin's import, paid on each keystroke's flake8 run: one `exec` per
class, when its first object is made; and importing `dataclasses` imports `inspect`, 40 M instructions of
every run's start. The immutable facts are `NamedTuple`s, this module's: typing's to a type checker, made at
run time without compiling each string annotation into a `ForwardRef` no one reads (13 M instructions of
every run's start).
One shared `__repr__` prints a fact readably in a failing test or a debugger: its fields, a syntax node as
its source text and line, a nested fact by its kind and name."""

import ast
import collections
import reprlib
from typing import TYPE_CHECKING, Any, TypeVar

_SHOWN_CHARACTERS = 60  # of a syntax node's source text
_SHOWN_ITEMS = 4  # of a list, tuple, set or dict


@reprlib.recursive_repr()
def _readable(fact: Any) -> str:
    shown = ", ".join(f"{name}={_shown(getattr(fact, name, None))}" for name in type(fact).__record_fields__)
    return f"{type(fact).__name__}({shown})"


def _shown(value: Any) -> str:
    if isinstance(value, ast.AST):
        text = " ".join(ast.unparse(value).split()) if isinstance(value, (ast.expr, ast.stmt, ast.arg)) else ""
        text = text if len(text) <= _SHOWN_CHARACTERS else text[:_SHOWN_CHARACTERS - 3] + "..."
        return f"<{type(value).__name__} `{text}` line {getattr(value, 'lineno', '?')}>"
    if (hasattr(value, "__record_fields__") or hasattr(value, "__dataclass_fields__")) and not isinstance(value, type):
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


T = TypeVar("T")


class _Missing:
    """No default given."""


MISSING: Any = _Missing()


class Field:
    """A field's default, or the factory that makes a fresh one per object: what `field` returns."""

    def __init__(self, default: Any, default_factory: Any) -> None:
        self.default = default
        self.default_factory = default_factory


def field(*, default: Any = MISSING, default_factory: Any = MISSING) -> Any:
    """A record field's default (`dataclasses.field`'s two arguments): `field(default_factory=dict)` gives
    each object its own."""
    return Field(default, default_factory)


if TYPE_CHECKING:  # what a type checker needs to know: the annotated fields make the constructor
    from typing_extensions import dataclass_transform

    @dataclass_transform(eq_default=False, field_specifiers=(field,))
    def record(cls: type[T]) -> type[T]: ...
else:
    def record(cls):
        fields: dict[str, Any] = {}  # name -> its default, a Field with a default_factory, or MISSING
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "__record_fields__", {}))
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063 - as dataclass reads them
            if not str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                fields[name] = cls.__dict__.get(name, MISSING)
        for name, default in fields.items():  # the class keeps a plain default, as a dataclass does
            if isinstance(default, Field) and name in cls.__dict__:
                if default.default is MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, default.default)

        def first_init(self, *args, **kwargs):
            cls.__init__ = _generated_init(cls, fields)
            cls.__init__(self, *args, **kwargs)

        cls.__init__ = first_init
        cls.__record_fields__ = fields
        cls.__repr__ = _readable
        return cls

    def _generated_init(cls, fields: dict[str, Any]):
        """The `__init__` of a record, compiled when its first object is made: a run makes objects of about
        half of the records (`exec` for all took 25 M instructions of every run's start)."""
        parameters, body, scope = [], [], {"MISSING": MISSING}
        for name, default in fields.items():
            if isinstance(default, Field) and default.default_factory is not MISSING:
                scope[f"_factory_{name}"] = default.default_factory
                parameters.append(f"{name}=MISSING")
                body.append(f"self.{name} = _factory_{name}() if {name} is MISSING else {name}")
                continue
            if isinstance(default, Field):
                default = default.default
            if default is MISSING:
                parameters.append(name)
            else:
                scope[f"_default_{name}"] = default
                parameters.append(f"{name}=_default_{name}")
            body.append(f"self.{name} = {name}")
        exec(f"def __init__(self, {', '.join(parameters)}):\n    " + "\n    ".join(body or ["pass"]), scope)
        generated = scope["__init__"]
        generated.__qualname__ = f"{cls.__qualname__}.__init__"
        return generated


def remade(fact: T, **changes) -> T:
    """A copy of a record with some fields changed (what `dataclasses.replace` does for a dataclass)."""
    names = type(fact).__record_fields__  # type: ignore[attr-defined]
    return type(fact)(**{name: changes.get(name, getattr(fact, name)) for name in names})


if TYPE_CHECKING:
    from typing import NamedTuple
else:
    class _NamedTupleMaker(type):
        """Makes `class Fact(NamedTuple): ...` with `collections.namedtuple` over its annotated fields and
        defaults, the rest of its body (methods, docstring) set on it, as typing does."""

        def __new__(cls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(cls, name, bases, namespace)
            fields = namespace.get("__annotations__", {})
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in list(fields)[len(fields) - len(defaults):]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = collections.namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__annotations__ = dict(fields)
            for key, value in namespace.items():
                if key not in fields and key not in ("__module__", "__annotations__"):
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleMaker):
        """The base of an immutable fact: `class Hop(NamedTuple): ...`."""
