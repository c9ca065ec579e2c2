"""chex: `@chex.dataclass` has no static fields: every field is a child. Its unflatten builds with
`__new__`, sets the fields and then calls `__post_init__` (chex/_src/dataclass.py, `_dataclass_unflatten`)."""

from .base import RUNS_POST_INIT, Convention, PytreeLibrary

LIBRARY = PytreeLibrary("chex", Convention.NONE,
                        decorators=frozenset({"chex.dataclass", "chex._src.dataclass.dataclass"}),
                        unflatten_runs=RUNS_POST_INIT, makes_dataclasses=True)
