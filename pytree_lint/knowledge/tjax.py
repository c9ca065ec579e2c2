"""tjax: `@tjax.dataclasses.dataclass` makes a frozen dataclass and registers it with
`jax.tree_util.register_dataclass`, static with `tjax.dataclasses.field(static=True)` (tjax 1.3.13,
`_src/dataclasses/dataclass.py` and `helpers.py`). JAX's dataclass unflatten calls the class, so
`__init__` and `__post_init__` run on the leaves. (`tjax.JaxAbstractClass` registers nothing: it jits
abstract methods.)"""

from .base import RUNS_INIT, Convention, FlagHelper, PytreeLibrary

_FIELD = FlagHelper("static", "static", False)
LIBRARY = PytreeLibrary(
    "tjax", Convention.STATIC,
    decorators=frozenset({"tjax.dataclasses.dataclass", "tjax._src.dataclasses.dataclass.dataclass"}),
    flag_helpers={"tjax.dataclasses.field": _FIELD, "tjax._src.dataclasses.helpers.field": _FIELD},
    unflatten_runs=RUNS_INIT,
    makes_dataclasses=True,
)
