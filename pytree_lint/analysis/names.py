"""Which library object a local name stands for, from the module's own import statements.

One cheap pass over the imports replaces libcst's QualifiedNameProvider: `jtu.register_pytree_node`,
`reg` (from `... import register_pytree_node as reg`) and `jax.tree_util.register_pytree_node` all
qualify to the same dotted name, while a local `def register_pytree_node` qualifies to nothing.
"""

from __future__ import annotations

import libcst as cst

from ..slicing import BUILTIN_NAMES  # `from numpy import *` does not make `int` or `tuple` numpy's.

# Private module paths that re-export the public API under another name.
_CANONICAL_MODULES = {
    "jax._src.tree_util": "jax.tree_util",
    "jax._src.tree": "jax.tree",
    "jax._src.numpy": "jax.numpy",
    "jax._src.random": "jax.random",
    "jax.experimental.numpy": "jax.numpy",
}


def dotted_name(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a Name/Attribute chain, None for anything else (calls, subscripts, ...)."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def canonical(qualified: str) -> str:
    for private, public in _CANONICAL_MODULES.items():
        if qualified == private or qualified.startswith(private + "."):
            return public + qualified[len(private):]
    return qualified


def _module_name(node: cst.BaseExpression | None) -> str:
    return dotted_name(node) if node is not None else ""


class AliasTable:
    """Local name -> fully qualified name, for names bound by import statements."""

    def __init__(self) -> None:
        self._aliases: dict[str, str] = {}
        self._star_modules: list[str] = []
        self._module_level_locals: set[str] = set()

    def add_import(self, node: cst.Import, module_level: bool) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name.value, full, module_level)
            else:
                # `import jax.numpy` binds `jax`; the attribute chain does the rest.
                head = full.split(".")[0]
                self._bind(head, head, module_level)

    def add_import_from(self, node: cst.ImportFrom, module_level: bool) -> None:
        # A relative import keeps its dots (`.fields.static_field`): never a library name, but a project's
        # own helper named in the configuration can still be recognised through it.
        module = "." * len(node.relative) + _module_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            self._star_modules.append(canonical(module))
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self._bind(local, f"{module}.{name}" if not module.endswith(".") else f"{module}{name}",
                       module_level)

    def bind_alias(self, name: str, qualified: str) -> None:
        """A module-level `name = some.library.object` makes `name` another spelling of it."""
        self._module_level_locals.discard(name)
        self._aliases[name] = qualified

    def shadow(self, name: str) -> None:
        """A module-level def, class or assignment rebinds `name` to something of the module's own."""
        self._aliases.pop(name, None)
        self._module_level_locals.add(name)

    def _bind(self, local: str, qualified: str, module_level: bool) -> None:
        if module_level:
            self._module_level_locals.discard(local)
            self._aliases[local] = canonical(qualified)
        elif local not in self._aliases and local not in self._module_level_locals:
            # An import inside a function: used where the module has no binding of its own.
            self._aliases[local] = canonical(qualified)

    def is_module_local(self, name: str) -> bool:
        return name in self._module_level_locals

    def qualify(self, node: cst.CSTNode) -> str | None:
        """The dotted library name `node` refers to, or None when it is not an imported name."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        target = self._aliases.get(head)
        if target is None:
            if (len(self._star_modules) == 1 and head not in self._module_level_locals
                    and head not in BUILTIN_NAMES):
                target = f"{self._star_modules[0]}.{head}"
            else:
                return None
        return canonical(f"{target}.{rest}" if rest else target)
