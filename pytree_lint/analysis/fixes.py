"""Source edits that mend a finding, each labelled safe or unsafe.

Safe means the edit cannot change what the module does where it is correct: `--fix` applies only those.
Unsafe fixes are shown (`--diff`, JSON) and never applied. Two fixes exist:
- PTL303: an unflatten written `(children, aux_data)` gets its two parameters swapped in the signature, so
  each name holds what its body expects. Safe when nothing in the module calls the function itself (JAX
  calls it with `(aux_data, children)`; a call written for the swapped order would break).
- PTL102: a list or set held in aux_data, where it is built (`[...]`, `list(...)`, `{...}`, `set(...)`,
  a comprehension), becomes a tuple or frozenset. Safe when nothing in the module mutates it (`.append`,
  `x[i] = ...`, `+=`, ...) or asks whether it is a list or set; its printed form changes (`(1, 2)`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .index import FunctionInfo, ModuleIndex, nodes_of

MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "add", "discard", "update",
    "difference_update", "intersection_update", "symmetric_difference_update", "__setitem__", "__delitem__",
    "__iadd__", "setdefault", "popitem",
})


@dataclass(frozen=True)
class Fix:
    description: str
    safe: bool
    # (first node, last node, text): the source from the start of the first to the end of the last is replaced
    edits: tuple[tuple[cst.CSTNode, cst.CSTNode, str], ...]


def swap_parameters(index: ModuleIndex, function: FunctionInfo) -> Fix | None:
    """Swap the two parameters of an unflatten written `(children, aux_data)` (names and annotations)."""
    first, second = function.params
    if first.default is not None or second.default is not None:
        return None

    def spelled(param: cst.Param) -> str:
        annotation = f": {index.code(param.annotation.annotation)}" if param.annotation is not None else ""
        return param.name.value + annotation

    def span_node(param: cst.Param) -> cst.CSTNode:
        """The name with its annotation: the Param without its comma and trailing whitespace."""
        return param.annotation.annotation if param.annotation is not None else param.name

    called = _called_elsewhere(index, function)
    description = f"swap the parameters: `({spelled(second)}, {spelled(first)})`"
    if called:
        description += f" (unsafe: the module also calls `{function.name}` itself, at {called})"
    return Fix(description, safe=not called, edits=(
        (first.name, span_node(first), spelled(second)), (second.name, span_node(second), spelled(first))))


def _called_elsewhere(index: ModuleIndex, function: FunctionInfo) -> str | None:
    """A call of the function written in the module (`unflatten(...)`, `cls.tree_unflatten(...)`)."""
    if not isinstance(function.node, cst.FunctionDef):
        return None  # a lambda handed to the registration is referenced nowhere else
    name = function.name
    for call in nodes_of(index.module, cst.Call):
        func = call.func
        if (isinstance(func, cst.Name) and func.value == name) or (
                isinstance(func, cst.Attribute) and func.attr.value == name):
            return f"`{index.snippet(call)}`"
    return None


def immutable_container(index: ModuleIndex, origin: cst.CSTNode, names: list[str]) -> Fix | None:
    """Build the tuple or frozenset where the list or set is built; `names`: the attributes and locals
    that hold it on its way to aux_data, checked for mutation."""
    replacement = _immutable_spelling(index, origin)
    if replacement is None:
        return None
    mutated = _mutation(index, names)
    description = f"build a {'frozenset' if replacement.startswith('frozenset') else 'tuple'}: `{replacement}`"
    if mutated:
        description += f" (unsafe: the module changes or type-checks it: {mutated})"
    return Fix(description, safe=not mutated, edits=((origin, origin, replacement),))


def _immutable_spelling(index: ModuleIndex, node: cst.CSTNode) -> str | None:
    code = index.code
    if isinstance(node, cst.List) and not any(isinstance(e, cst.StarredElement) for e in node.elements):
        items = [code(e.value) for e in node.elements]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    if isinstance(node, cst.Set):
        return f"frozenset({code(node)})"
    if isinstance(node, cst.ListComp):
        return f"tuple({code(node)[1:-1].strip()})" if not node.lpar else None
    if isinstance(node, cst.SetComp):
        return f"frozenset({code(node)[1:-1].strip()})" if not node.lpar else None
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("list", "set")
            and index.is_builtin(node.func.value) and len(node.args) <= 1
            and not any(a.star or a.keyword for a in node.args)):
        contents = code(node.args[0].value) if node.args else ""
        return f"{'tuple' if node.func.value == 'list' else 'frozenset'}({contents})"
    return None


def _mutation(index: ModuleIndex, names: list[str]) -> str | None:
    """Where the module mutates `x` or `obj.x` for a name x of `names`, or checks it for list/set."""
    watched = set(names)

    def held(node: cst.CSTNode) -> bool:
        return (isinstance(node, cst.Name) and node.value in watched) or (
            isinstance(node, cst.Attribute) and node.attr.value in watched)

    for node in nodes_of(index.module, (cst.Call, cst.AugAssign, cst.Assign, cst.Del)):
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS and held(func.value):
                return f"`{index.snippet(node)}`"
            if (isinstance(func, cst.Name) and func.value == "isinstance" and node.args and held(node.args[0].value)):
                return f"`{index.snippet(node)}`"
        elif isinstance(node, cst.AugAssign):
            if held(node.target) or (isinstance(node.target, cst.Subscript) and held(node.target.value)):
                return f"`{index.snippet(node)}`"
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Subscript) and held(target.target.value):
                    return f"`{index.snippet(node)}`"
        elif isinstance(node.target, cst.Subscript) and held(node.target.value):
            return f"`{index.snippet(node)}`"
    return None
