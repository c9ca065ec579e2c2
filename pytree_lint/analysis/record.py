"""`@record`: how the analysis declares its facts. A dataclass compared by identity and without a generated
`__repr__` or frozen `__setattr__`: facts are never compared by value or printed, and every generated
method is compiled at import, on each keystroke's flake8 run (about 6 ms for the fifty-odd records)."""

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker needs to know: the annotated fields make the constructor
    from typing import TypeVar

    from typing_extensions import dataclass_transform

    T = TypeVar("T")

    @dataclass_transform(eq_default=False)
    def record(cls: type[T]) -> type[T]: ...
else:
    record = partial(dataclass, eq=False, repr=False)
