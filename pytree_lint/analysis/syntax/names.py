"""Which library object a local name stands for, from the module's own import statements.

`jtu.register_pytree_node`, `reg` (from `... import register_pytree_node as reg`) and
`jax.tree_util.register_pytree_node` all qualify to the same dotted name, while a local
`def register_pytree_node` qualifies to nothing.
"""

from __future__ import annotations

import ast

from ...knowledge.jax import CANONICAL_MODULES
from ...knowledge.python import BUILTIN_NAMES


def dotted_name(node: ast.AST) -> str | None:
    """`a.b.c` for a Name/Attribute chain, None for anything else (calls, subscripts, ...)."""
    if type(node) is ast.Name:  # most are
        return node.id
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


# The attribute of a name copied from another module's code (a helper's returned expression, inlined at a
# call): the absolute name it stands for there, whatever this module's imports say.
MEANT = "pytree_lint_meant"


# The top packages of the modules CANONICAL_MODULES renames: a name that does not start with one is kept at once.
_RENAMED_PACKAGES = tuple(sorted({private.split(".", 1)[0] for private in CANONICAL_MODULES}))


def canonical(qualified: str) -> str:
    if not qualified.startswith(_RENAMED_PACKAGES):  # most names
        return qualified
    for private, public in CANONICAL_MODULES.items():
        if qualified == private or qualified.startswith(private + "."):
            return public + qualified[len(private):]
    return qualified


class AliasTable:
    """Local name -> fully qualified name, for names bound by import statements."""

    def __init__(self) -> None:
        self._aliases: dict[str, str] = {}
        self._star_modules: list[str] = []
        self._module_level_locals: set[str] = set()
        self._qualified: dict[str, str | None] = {}  # answers so far (forgotten when a name is bound)

    def add_import(self, node: ast.Import, module_level: bool) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self._bind(alias.asname, alias.name, module_level)
            else:
                # `import jax.numpy` binds `jax`; the attribute chain does the rest.
                head = alias.name.split(".")[0]
                self._bind(head, head, module_level)

    def add_import_from(self, node: ast.ImportFrom, module_level: bool) -> None:
        # A relative import keeps its dots (`.fields.static_field`): never a library name, but a project's
        # own helper named in the configuration can still be recognised through it.
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self._qualified.clear()
                self._star_modules.append(canonical(module))
                return
            self._bind(alias.asname or alias.name,
                       f"{module}.{alias.name}" if not module.endswith(".") else f"{module}{alias.name}",
                       module_level)

    def bind_alias(self, name: str, qualified: str) -> None:
        """A module-level `name = some.library.object` makes `name` another spelling of it."""
        self._qualified.clear()
        self._module_level_locals.discard(name)
        self._aliases[name] = qualified

    def shadow(self, name: str) -> None:
        """A module-level def, class or assignment rebinds `name` to something of the module's own."""
        self._qualified.clear()
        self._aliases.pop(name, None)
        self._module_level_locals.add(name)

    def _bind(self, local: str, qualified: str, module_level: bool) -> None:
        self._qualified.clear()
        if module_level:
            self._module_level_locals.discard(local)
            self._aliases[local] = canonical(qualified)
        elif local not in self._aliases and local not in self._module_level_locals:
            # An import inside a function: used where the module has no binding of its own.
            self._aliases[local] = canonical(qualified)

    def items(self):
        """(local name, qualified name) of every import and module-level alias."""
        return self._aliases.items()

    def imports(self, name: str) -> bool:
        """`name` is bound by an import (and not rebound since)."""
        return name in self._aliases

    @property
    def star_modules(self) -> list[str]:
        """The modules `from m import *` takes names from."""
        return self._star_modules

    def is_module_local(self, name: str) -> bool:
        return name in self._module_level_locals

    def qualify_name(self, dotted: str) -> str | None:
        """The dotted library name a dotted local spelling refers to, or None when it is not imported."""
        if dotted not in self._qualified:
            self._qualified[dotted] = self._qualify_name(dotted)
        return self._qualified[dotted]

    def _qualify_name(self, dotted: str) -> str | None:
        head, _, rest = dotted.partition(".")
        target = self._aliases.get(head)
        if target is None:
            if (len(self._star_modules) == 1 and head not in self._module_level_locals
                    and head not in BUILTIN_NAMES):
                target = f"{self._star_modules[0]}.{head}"
            else:
                return None
        return canonical(f"{target}.{rest}" if rest else target)

    def qualify(self, node: ast.AST) -> str | None:
        """The dotted library name `node` refers to, or None when it is not an imported name."""
        head: ast.AST = node
        if isinstance(node, ast.Name):  # most are
            dotted = node.id
        else:
            found = dotted_name(node)
            if found is None:
                return None
            dotted = found
            while isinstance(head, ast.Attribute):
                head = head.value
        meant = getattr(head, MEANT, None)
        if meant is not None:  # copied from another module: what it stands for there
            rest = dotted.partition(".")[2]
            return canonical(f"{meant}.{rest}" if rest else meant)
        return self.qualify_name(dotted)
