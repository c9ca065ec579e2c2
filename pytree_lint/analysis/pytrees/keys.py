"""Attributes whose value the module uses as a lookup key: `_traces[self.tag]`, `state[leaf.marker]`,
`cache.get(obj.token)`, `obj.marker in seen`.

A per-instance object (`object()`, a field-less token) in aux_data retraces jit for each new instance.
When the module also keys a mapping with it, that identity is the design: each object owns its entry
(equinox's trace counters and state markers), the objects are long-lived, and value equality would
merge what must stay apart. PTL103 and PTL104 leave such attributes alone.
"""

from __future__ import annotations

import ast

from ..syntax.model import ModuleIndex, nodes_of

_LOOKUPS = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})


class LookupKeys:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._asked: dict[str, bool] = {}

    def is_key(self, attribute: str) -> bool:
        """Some `x.<attribute>` of the module indexes a mapping, is looked up in one, or tested with `in`."""
        if attribute not in self._asked:
            self._asked[attribute] = any(self._keys(statement, attribute)
                                         for statement in self.index.statements_mentioning((attribute,)))
        return self._asked[attribute]

    @staticmethod
    def _keys(statement: ast.stmt, attribute: str) -> bool:
        def named(node: ast.AST) -> bool:
            return isinstance(node, ast.Attribute) and node.attr == attribute

        for node in nodes_of(statement, (ast.Subscript, ast.Call, ast.Compare)):
            if isinstance(node, ast.Subscript) and named(node.slice):
                return True
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOOKUPS
                    and node.args and named(node.args[0])):
                return True
            if (isinstance(node, ast.Compare) and named(node.left)
                    and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)):
                return True
        return False
