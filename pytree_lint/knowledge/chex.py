"""chex: `@chex.dataclass` has no static fields: every field is a child."""

from .base import Convention, PytreeLibrary

LIBRARY = PytreeLibrary("chex", Convention.NONE,
                        decorators=frozenset({"chex.dataclass", "chex._src.dataclass.dataclass"}))
