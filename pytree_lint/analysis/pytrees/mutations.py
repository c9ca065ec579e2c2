"""Where the module changes a list, dict or set in place: the evidence that a container held in aux_data
can go stale (PTL102) rather than merely could (PTL901).

A mutation is an in-place method (`.append`, `.update`, ...), an item or slice assignment, `del x[i]`, or
an augmented assignment (`x += [...]` extends a list in place), made after the container can reach a jit:
not while a constructor builds it (`self.sizes.append(...)` in `__init__`), nor by a method the module
calls only on objects it has just built (`u = Updates.create(); u.append(k, v)`: a builder filling its
object before anything can flatten it), nor at module level before the pytree's class exists (a list
filled at import). It is made on the container through any name
that holds it: an attribute of the class's instances (`self.sizes`, `box.sizes` for a `box = Box(...)`,
a local alias `sizes = self.sizes`), a local or parameter of the function that passes it on, or a
module-level name. Only the top-level statements that spell one of those names are walked (a change
through `x` spells `x`), each once, and the changes found are indexed by the name they go through.
"""

from __future__ import annotations

import ast
import sys
from functools import cached_property
from itertools import repeat

from ...knowledge.python import CONSTRUCTOR_METHODS, MUTATING_METHODS, READING_METHODS
from ..record import record
from ..syntax.model import (
    FUNCTIONS,
    ClassInfo,
    FunctionInfo,
    ModuleIndex,
    child_nodes,
    is_collection,
    is_name,
    nodes_of,
    written_as,
)
from ..values.inference import Elsewhere, Holder


@record
class Mutation:
    """A statement or call that changes `receiver` in place, inside `function` (None: module level)."""

    node: ast.AST | Elsewhere  # Elsewhere: a change another module makes (receiver: the attribute's name)
    receiver: ast.expr
    function: ast.AST | None
    order: tuple[int, int]  # where it is written: source order


class Mutations:
    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._walked: set[int] = set()  # the top-level statements already walked
        self._by_name: dict[str, list[Mutation]] = {}  # by the name the change goes through
        self._on_self: dict[tuple[str, int], list[Mutation]] = {}  # `self.x` changes, by (x, the method's class)
        self._calls_by_method: dict[str, list[ast.Call]] = {}  # `x.<name>(...)` calls, by name: _method_calls
        self._filled: dict[tuple[str, int], bool] = {}  # per (local, its function's node id): _filled_before_use
        self._in_function: dict[int, list[Mutation]] = {}  # per def (node id): its body's own changes
        self._asking: set[int] = set()  # the methods whose calls are being judged (a recursion ends there)

    def _index(self, names: tuple[str, ...]) -> None:
        """Walk the top-level statements that spell one of `names` (each once), indexing their changes."""
        for statement in self.index.statements_mentioning(names):
            if id(statement) in self._walked:
                continue
            self._walked.add(id(statement))
            for site in _mutations_in(statement):
                function = self._functions.get(id(site.function)) if site.function is not None else None
                receiver = _unaliased(site.receiver, function)
                if (isinstance(receiver, ast.Attribute) and function is not None and function.cls is not None
                        and isinstance(receiver.value, ast.Name) and receiver.value.id == function.self_name):
                    # A constructor builds it, as does a method that has just assigned it a new one: no jit
                    # saw that object yet.
                    if function.name not in CONSTRUCTOR_METHODS and not _rebuilt_before(function, receiver.attr,
                                                                                        site.node):
                        self._on_self.setdefault((receiver.attr, id(function.cls)), []).append(site)
                    continue
                for name in {receiver_name(site.receiver), receiver_name(receiver)} - {None}:
                    self._by_name.setdefault(name, []).append(site)

    @cached_property
    def _functions(self) -> dict[int, FunctionInfo]:
        """The methods and module-level functions of the index, by node."""
        found = {id(f.node): f for f in self.index.functions.values()}
        found.update((id(m.node), m) for cls in self.index.all_classes for m in cls.methods.values())
        return found

    @cached_property
    def _relatives(self) -> dict[int, list[ClassInfo]]:
        """Each class's bases and subclasses in the module, itself included."""
        found: dict[int, list[ClassInfo]] = {}
        for cls in self.index.all_classes:
            for base in self.index.class_and_bases(cls):
                found.setdefault(id(base), []).append(cls)
                if base is not cls:
                    found.setdefault(id(cls), []).append(base)
        return found

    def first(self, holders: list[Holder], defined_at: int = 0) -> Mutation | None:
        """The first mutation, in source order, of the container through any of `holders`; module-level
        ones count from line `defined_at` on (where the pytree's class is defined)."""
        self._index(tuple({holder.name for holder in holders}))
        matches = []
        for holder in holders:
            if holder.cls is not None:
                matches.extend(site for related in self._relatives.get(id(holder.cls), [holder.cls])
                               for site in self._on_self.get((holder.name, id(related)), ()))
            matches.extend(site for site in self._by_name.get(holder.name, ()) if self._through(site, holder)
                           and (site.function is not None or site.order[0] >= defined_at))
        matches = [site for site in matches if not self._while_building(site)]
        if not matches:
            matches = [site for holder in holders if holder.cls is not None for site in self._elsewhere(holder)]
        return min(matches, key=lambda site: site.order) if matches else None

    def _elsewhere(self, holder: Holder) -> list[Mutation]:
        """The changes other project modules make to the holder's attribute through a parameter annotated
        with its class (or a class related to it here), after all of this module's own."""
        if holder.cls is None:
            return []
        return [Mutation(Elsewhere(change.text, summary.display_path, change.line), ast.Name(holder.name), None,
                         (sys.maxsize, change.line))
                for related in self._relatives.get(id(holder.cls), [holder.cls])
                for change, summary in self.index.changes_elsewhere(related.name)
                if change.attribute == holder.name
                and not self._calls_while_building(change.function, change.position)]

    def _while_building(self, site: Mutation) -> bool:
        """A change on `self` made by a method that the module calls, and calls only on objects built just
        before in the calling function (`updates = Updates.create(); updates.append(key, value)`, or an
        element of `{k: Updates.create() for k in keys}`). A call counts as one of this method when its
        receiver is seen holding an instance of the class (a construction, an annotation naming it): other
        calls of the same name (`paths.append(p)` on a list) are not."""
        function = self._functions.get(id(site.function)) if site.function is not None else None
        if function is not None and function.cls is None:
            return self._helper_while_building(site, function)
        if function is None or function.cls is None or function.name in CONSTRUCTOR_METHODS:
            return False
        if not self._calls_on_objects(function) and self._registered_elsewhere(function.cls):
            return True  # its callers are where the class is registered, out of sight: no evidence here
        return self._called_on_fresh_objects(function)

    def _registered_elsewhere(self, cls: ClassInfo) -> bool:
        project = self.index.project
        return project is not None and cls.parent is None and bool(project.registrations_elsewhere(cls.name))

    def _called_on_fresh_objects(self, method: FunctionInfo) -> bool:
        """The module calls the method, and only on objects its callers have just built (or are building:
        `self.build_interface()` in `__init__`, and so on down the methods it calls on `self`)."""
        if id(method.node) in self._asking:
            return False  # a method that calls itself: judged by its other calls
        self._asking.add(id(method.node))
        try:
            ours = self._calls_on_objects(method)
        finally:
            self._asking.discard(id(method.node))
        return bool(ours) and all(ours)

    def _calls_on_objects(self, method: FunctionInfo) -> list[bool]:
        """For each call of the method on an object of its class: whether the caller has just built it."""
        verdicts = [self._receiver(call, method.cls) for call in self._method_calls(method.name)]  # type: ignore
        return [fresh for fresh in verdicts if fresh is not None]

    def _calls_while_building(self, function: str, position: int) -> bool:
        """Every call this module makes of another module's function (absolute name) passes the object a
        constructor builds, at `position` (see _helper_while_building); and it makes some."""
        calls = self.index.calls_to(function)
        return position >= 0 and bool(calls) and all(self._builds_through(call, position) for call in calls)

    def _builds_through(self, call: ast.Call, position: int) -> bool:
        """The call passes, at `position`, the `self` of a constructor, or of a method the module calls only
        on objects just built."""
        caller = self.index.enclosing_function(call)
        argument = call.args[position] if position < len(call.args) else None
        if caller is None or caller.cls is None or not isinstance(argument, ast.Name) \
                or argument.id != caller.self_name:
            return False
        return caller.name in CONSTRUCTOR_METHODS or self._called_on_fresh_objects(caller)

    def _helper_while_building(self, site: Mutation, helper: FunctionInfo) -> bool:
        """A change through a parameter of a module function (`def fill(model: "MLP", n): model.items.append(n)`)
        that the module calls only on the object a constructor builds (`fill(self, n)` in `__init__`), or
        from a method called only on objects just built: the object is being built."""
        root = site.receiver
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        positions = [p.name for p in helper.positional_params]
        if not isinstance(root, ast.Name) or root.id not in positions:
            return False
        position = positions.index(root.id)
        calls = self.index.calls_named(helper.name)
        return bool(calls) and all(self._builds_through(call, position) for call in calls)

    def _method_calls(self, name: str) -> list[ast.Call]:
        """The module's `x.<name>(...)` calls, found once per name (every mutation site of a method asks)."""
        if name not in self._calls_by_method:
            self._calls_by_method[name] = [
                call for call, _ in self.index.calls_mentioning((name,))
                if isinstance(call.func, ast.Attribute) and call.func.attr == name]
        return self._calls_by_method[name]

    def _receiver(self, call: ast.Call, cls: ClassInfo) -> bool | None:
        """For `receiver.method(...)`: True when the receiver is an object of `cls` the caller has just built,
        False when it may be any other object of `cls`, None when nothing says it is one."""
        receiver, caller = call.func.value, self.index.enclosing_function(call)
        if caller is not None and caller.cls is not None and is_name(receiver, caller.self_name) \
                and self._related(caller.cls, cls) and (caller.name in CONSTRUCTOR_METHODS
                                                        or self._called_on_fresh_objects(caller)):
            return True  # on the object a constructor builds (its `self`), at any depth of such calls
        element = isinstance(receiver, ast.Subscript)  # `updates[prefix].append(...)`
        base = receiver.value if element else receiver
        if isinstance(base, ast.Attribute):
            return None if not self._assigned_instance(base.attr, cls) else False
        if not isinstance(base, ast.Name) or caller is None:
            return None
        param = caller.all_params.get(base.id)
        if param is not None and param.annotation is not None and self._names_class(param.annotation, cls):
            return False
        bound = [written_as(v, caller, self.index) if isinstance(v, ast.Call) else v
                 for v in caller.local_bindings.get(base.id, []) if isinstance(v, ast.expr)]
        made = [v.elt if isinstance(v, (ast.ListComp, ast.SetComp)) else v.value if isinstance(v, ast.DictComp)
                else v for v in bound] if element else bound
        built = [isinstance(v, ast.Call) and self._builds(v, caller, cls) for v in made]
        if not any(built):
            return None if not any(self._names_class(v, cls) for v in made) else False
        return all(built)

    def _names_class(self, node: ast.AST, cls: ClassInfo) -> bool:
        return any((named := self.index.class_named(name)) is not None and self._related(named, cls)
                   for name in nodes_of(node, ast.Name))

    def _assigned_instance(self, attribute: str, cls: ClassInfo) -> bool:
        """Some class of the module stores a `cls` it builds in `attribute` (`self.updates = Updates()`)."""
        return any(isinstance(a.value, ast.Call) and self._names_class(a.value.func, cls)
                   for owner in self.index.all_classes for a in owner.assignments.get(attribute, ()))

    def _builds(self, call: ast.Call, caller: FunctionInfo, cls: ClassInfo) -> bool:
        """`Cls(...)`, a factory `Cls.create(...)`, or a classmethod's `cls(...)`."""
        func = call.func.value if isinstance(call.func, ast.Attribute) else call.func
        built = self.index.class_named(func)
        if built is None and isinstance(func, ast.Name) and caller.is_classmethod \
                and func.id == ClassInfo.name_of_cls(caller):
            built = caller.cls
        return built is not None and self._related(built, cls)

    def _through(self, site: Mutation, holder: Holder) -> bool:
        """A change (not on `self`: those are indexed by class) goes through `holder`."""
        function = self._functions.get(id(site.function)) if site.function is not None else None
        receiver = _unaliased(site.receiver, function)
        if holder.cls is not None:
            return (isinstance(receiver, ast.Attribute) and receiver.attr == holder.name
                    and self._instance_of(receiver.value, function, holder.cls))
        if not isinstance(receiver, ast.Name) or receiver.id != holder.name:
            return False
        if holder.function is not None:
            return site.function is holder.function.node and not self._filled_before_use(holder) \
                and not _made_by_constructor(holder.name, holder.function)
        return site.function is None or (function is not None and holder.name not in function.local_bindings
                                         and holder.name not in function.all_params)

    def changed_after(self, name: str, function: FunctionInfo, node: ast.AST) -> Mutation | None:
        """The first in-place change of the local `name` of `function` made after `node` (later in the
        source, or in a loop around both): what a value handed over at `node` undergoes after."""
        if self._filled_before_use(Holder(name, function=function)):
            return None
        at = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        loops = [loop for loop in function.nodes(ast.For, ast.AsyncFor, ast.While)
                 if loop.lineno <= at[0] <= (loop.end_lineno or loop.lineno)]
        later = [site for site in self._changes_of_local(name, function) if site.order > at or any(
            loop.lineno <= site.order[0] <= (loop.end_lineno or loop.lineno) for loop in loops)]
        return min(later, key=lambda site: site.order) if later else None

    def _changes_of_local(self, name: str, function: FunctionInfo) -> list[Mutation]:
        """The in-place changes a function's own body makes through its local `name`, from one walk of the
        function (see _through: a local holder's)."""
        if id(function.node) not in self._in_function:
            self._in_function[id(function.node)] = [site for site in _mutations_in(function.node)
                                                    if site.function is function.node]
        return [site for site in self._in_function[id(function.node)]
                if isinstance(receiver := _unaliased(site.receiver, function), ast.Name) and receiver.id == name]

    def _filled_before_use(self, holder: Holder) -> bool:
        """A local that its function fills in place (`keys.append(key)`) and only then reads otherwise (hands
        to a constructor, returns), outside any loop that also fills it: nothing has seen it before its last
        change (jax's `_safe_flatten_dict` builds its keys, then the wrapper holding them)."""
        function = holder.function
        if function is None or function.is_lambda:
            return False
        key = (holder.name, id(function.node))
        if key not in self._filled:
            self._filled[key] = self._filled_before_reads(holder.name, function)
        return self._filled[key]

    def _filled_before_reads(self, name: str, function: FunctionInfo) -> bool:
        changes = self._changes_of_local(name, function)
        if not changes:
            return False
        # Reads before the body's last top-level assignment ahead of the last change read another value of the
        # name (multifil's loop hands on a list `coords`, then a dict `coords` is built and filled).
        last_change = max(site.order for site in changes)
        bound = max((binding.statement.lineno for binding in function.assignments_of(name) if binding.overwrites
                     and not binding.block and binding.statement.lineno < last_change[0]), default=0)
        passed_over = {id(site.receiver) for site in changes} | _looked_into(name, function)
        reads = [node for node in function.nodes(ast.Name) if node.id == name and node.lineno > bound
                 and isinstance(node.ctx, ast.Load) and id(node) not in passed_over]
        if not reads:
            return False
        first_read = min(reads, key=lambda node: (node.lineno, node.col_offset))
        if (first_read.lineno, first_read.col_offset) <= last_change:
            return False
        return not any(loop.lineno <= last_change[0] and first_read.lineno <= (loop.end_lineno or loop.lineno)
                       for loop in function.nodes(ast.For, ast.AsyncFor, ast.While))

    def _instance_of(self, owner: ast.expr, function: FunctionInfo | None, cls: ClassInfo) -> bool:
        """`owner` is an instance of `cls` (or of a class related to it by inheritance in the module):
        the `self` of one of its methods, something declared as one (a parameter, an item of a collection of
        them, by index, loop or comprehension, an attribute of `self` annotated so), or a name bound to a
        constructor call."""
        declared = self.index.declared_type(owner, function)
        if declared is not None:  # `def grow(model: "MLP")`, `for model in models` over `models: list[MLP]`
            return not is_collection(declared, self.index.generic_name) and self._names_class(declared, cls)
        if not isinstance(owner, ast.Name):
            return False
        if function is not None and function.cls is not None and owner.id == function.self_name:
            return self._related(function.cls, cls)
        bound = function.local_bindings.get(owner.id, []) if function is not None else []
        if not bound and self.index.aliases.is_module_local(owner.id):
            bound = self.index.bindings.get(owner.id, [])
        made = [written_as(value, function, self.index) if isinstance(value, ast.Call) else value for value in bound]
        return any(isinstance(value, ast.Call) and (built := self.index.class_named(value.func)) is not None
                   and self._related(built, cls) for value in made)  # built here, or by a helper returning it

    def _related(self, one: ClassInfo, other: ClassInfo) -> bool:
        return other in self.index.class_and_bases(one) or one in self.index.class_and_bases(other)


def _unaliased(receiver: ast.expr, function: FunctionInfo | None) -> ast.expr:
    """`self.sizes` for a local `sizes` bound once to it (`sizes = self.sizes; sizes.append(...)`)."""
    if isinstance(receiver, ast.Name) and function is not None:
        alias = function.local_bindings.get(receiver.id, [])
        if len(alias) == 1 and isinstance(alias[0], ast.Attribute):
            return alias[0]
    return receiver


def _made_by_constructor(name: str, function: FunctionInfo) -> bool:
    """A local of a constructor bound only to containers it makes (`sizes = {}`, then filled in a loop that
    also stores it on `self`): its changes happen while the object is built, before any jit sees it, as
    the constructor's changes through `self` do."""
    bound = function.local_bindings.get(name, [])
    return function.cls is not None and function.name in CONSTRUCTOR_METHODS and bool(bound) and all(
        isinstance(value, _FRESH_CONTAINERS) for value in bound)


_FRESH_CONTAINERS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _rebuilt_before(function: FunctionInfo, attr: str, node: ast.AST) -> bool:
    """`function` assigns `self.<attr>` a new value unconditionally before `node` (`self.index = {}`, then
    `self.index[k] = v`): the change fills the new object."""
    line = getattr(node, "lineno", 0)
    return any(a.method is function and a.unconditional and not a.augmented and a.value is not None
               and getattr(a.statement, "lineno", line) < line for a in function.cls.assignments.get(attr, ()))


def receiver_name(receiver: ast.expr) -> str | None:
    """The name a change goes through: `x` for `x` and for `obj.x`."""
    if isinstance(receiver, ast.Attribute):
        return receiver.attr
    return receiver.id if isinstance(receiver, ast.Name) else None


def _mutations_in(statement: ast.stmt) -> list[Mutation]:
    sites: list[Mutation] = []
    pending: list[tuple[ast.AST, ast.AST | None]] = [(statement, None)]
    while pending:
        node, function = pending.pop()
        for receiver in changed_in_place(node):
            sites.append(Mutation(node, receiver, function, (node.lineno, node.col_offset)))
        inner = node if isinstance(node, (*FUNCTIONS, ast.Lambda)) else function
        pending.extend(zip(reversed(child_nodes(node)), repeat(inner)))
    return sites


def changed_in_place(node: ast.AST) -> list[ast.expr]:
    """The expressions a node changes in place."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATING_METHODS:
        return [node.func.value]
    if isinstance(node, ast.AugAssign):
        target = node.target
        return [target.value if isinstance(target, ast.Subscript) else target]
    if isinstance(node, (ast.Assign, ast.Delete)):
        return [target.value for target in node.targets if isinstance(target, ast.Subscript)]
    return []


def _looked_into(name: str, function: FunctionInfo) -> set[int]:
    """The reads of a local that only look into it (`key in shape`, `shape[key]`, `len(shape)`,
    `shape.get(key)`, `for key in shape`): they hand nothing on (penzai's `subst_leaf` checks each key
    against the dict it fills, then builds the spec that keeps it)."""
    found: set[int] = set()
    for node in function.nodes(ast.Compare, ast.Subscript, ast.Call, ast.For, ast.AsyncFor):
        if isinstance(node, ast.Compare):
            looked = [right for op, right in zip(node.ops, node.comparators) if isinstance(op, (ast.In, ast.NotIn))]
        elif isinstance(node, ast.Subscript):
            looked = [node.value] if isinstance(node.ctx, ast.Load) else []
        elif isinstance(node, ast.Call):
            func = node.func
            looked = node.args[:1] if is_name(func, "len") else \
                [func.value] if isinstance(func, ast.Attribute) and func.attr in READING_METHODS else []
        else:
            looked = [node.iter]
        found.update(id(expr) for expr in looked if is_name(expr, name))
    return found

