"""Which classes reach a JAX transformation: where jit, vmap, grad or a traced control-flow call would
meet their leaves.

A str or a function among a class's children is harmless until a transformation traces it: tree
utilities (`jax.tree.map`, checkpointing libraries) take any leaf. So PTL401 asks whether the class
reaches one: an instance (or a tuple or list of them) passed to a jitted, vmapped or differentiated
function or to `lax.scan`/`cond`/..., a parameter of such a function annotated with the class, or a
transformed method of the class, here or in another module of the project. A library's registration
is no such evidence: jax-md's and netket's config records and drivers are library dataclasses that never
meet a transformation. netket's host-side `mutable=True` pytrees ask the same question (module.py).
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING

from ...knowledge.jax import IN_AXES_POSITION, JIT, TRACING_CALLS, TRANSFORMATIONS
from ...knowledge.python import PARTIAL
from ..record import record
from ..syntax.model import ClassInfo, FunctionInfo, is_none, keyword_arguments, nodes_of
from ..values.inference import Context
from .fields import parse_string_annotation
from .jitted import literal_ints

if TYPE_CHECKING:
    from ..module import ModuleAnalysis

_TRACING = TRANSFORMATIONS | TRACING_CALLS


@record
class Transformed:
    """Where a class meets a transformation: a node of this module, or another module's path."""

    node: ast.AST | None
    elsewhere: str | None = None


class TransformedClasses:
    def __init__(self, analysis: ModuleAnalysis) -> None:
        self.analysis = analysis
        self.index = analysis.index

    def reaches(self, cls: ClassInfo) -> Transformed | None:
        """Where `cls` reaches a transformation (None: nowhere the analysis sees)."""
        local = self._local.get(id(cls))
        if local is not None:
            return local
        project = self.index.project
        if project is None or cls.parent is not None:
            return None
        elsewhere = project.transformed_elsewhere(cls.name)
        return Transformed(None, elsewhere[0].display_path) if elsewhere else None

    @cached_property
    def _local(self) -> dict[int, Transformed]:
        found: dict[int, Transformed] = {}
        for node, cls in self._transformed:
            if isinstance(cls, ClassInfo):
                found.setdefault(id(cls), Transformed(node))
        return found

    def imported_names(self) -> list[str]:
        """The names (as this module imports them) of classes of other modules that reach a transformation
        here: what the module's summary tells the class's own module."""
        return sorted({name for _node, name in self._transformed if isinstance(name, str)})

    @cached_property
    def _transformed(self) -> list[tuple[ast.AST, ClassInfo | str]]:
        """(node, class) for each class that reaches a transformation here: a ClassInfo of this module, or
        the qualified name of an imported capitalised name. Found once: `_local` and `imported_names` read it."""
        return list(self._reaching())

    def _reaching(self):
        for function, static in self._transformed_functions():
            for position, param in function.argument_params:
                if param.name in static or position in static:
                    continue
                if position == 0 and function.cls is not None and function.self_name == param.name:
                    yield function.name_node, function.cls
                yield from ((param.node, cls) for cls in self._annotated(param.annotation))
        for call, argument in self._traced_arguments():
            yield from ((call, cls) for cls in self._classes_of(argument, call))

    # what is transformed --------------------------------------------------------------------------------------
    def _transformed_functions(self) -> list[tuple[FunctionInfo, set[int | str]]]:
        """Each def decorated with a transformation (or the project's jit), with the parameters it does not
        trace (positions and names: static ones, unmapped ones)."""
        jitted = {id(j.function): j for j in self.analysis.jitted_functions.values() if j.function is not None}
        found: list[tuple[FunctionInfo, set[int | str]]] = []
        for function in self.index.defs:
            if id(function) in jitted:
                j = jitted[id(function)]
                found.append((function, {*j.static_positions, *j.static_names}))
            elif not isinstance(function.node, ast.Lambda):
                untraced = [self._untraced(d) for d in function.node.decorator_list if self._is_transformation(d)]
                if untraced:
                    found.append((function, set[int | str](untraced[0]).intersection(*untraced[1:])))
        return found

    def _is_transformation(self, node: ast.expr) -> bool:
        """`jax.vmap`, `jax.grad(argnums=1)`, `partial(jax.vmap, in_axes=0)`."""
        if isinstance(node, ast.Call):
            if self.index.qualify(node.func) == PARTIAL and node.args:
                return self._is_transformation(node.args[0])
            return self._is_transformation(node.func)
        return self.index.qualify(node) in TRANSFORMATIONS

    def _untraced(self, transformation: ast.expr) -> set[int]:
        """The argument positions a transformation passes on untraced: the None axes of a vmap's `in_axes`
        display (`jax.vmap(f, in_axes=(0, None))`, `partial(jax.vmap, in_axes=(0, None))`), a
        jit's literal `static_argnums`."""
        if not isinstance(transformation, ast.Call):
            return set()
        qualified, given = self.index.qualify(transformation.func), transformation.args
        if qualified == PARTIAL and given:
            qualified, given = self.index.qualify(given[0]), given[1:]
        else:
            given = given[1:]  # after the function transformed
        keywords = keyword_arguments(transformation)
        if qualified in IN_AXES_POSITION:
            position = IN_AXES_POSITION[qualified] - 1  # among the arguments after the function
            axes = keywords.get("in_axes", given[position] if position < len(given) else None)
            if isinstance(axes, (ast.Tuple, ast.List)):
                return {i for i, axis in enumerate(axes.elts) if is_none(axis)}
        elif qualified in JIT and "static_argnums" in keywords:
            return literal_ints(keywords["static_argnums"])
        return set()

    def _traced_arguments(self):
        """(call, argument) for each argument a transformation traces: of a call of a jitted function (not
        static), of `jax.jit(f)(...)`/`jax.vmap(g)(...)`, of `lax.scan(body, init, xs)` and its kin."""
        for call, jitted in self.analysis.jitted_calls:
            for argument in jitted.arguments(call):
                if not argument.static:
                    yield call, argument.value
        for call, _in_function in self.index.calls_mentioning(self.index.spellings(_TRACING)):
            if isinstance(call.func, ast.Call) and self._is_transformation(call.func):
                untraced = self._untraced(call.func)
                yield from ((call, a) for i, a in enumerate(call.args) if i not in untraced)
            elif self.index.qualify(call.func) in TRACING_CALLS:
                yield from ((call, a) for a in call.args if not isinstance(a, ast.Lambda))

    # classes of values and annotations --------------------------------------------------------------------
    def _classes_of(self, argument: ast.expr, call: ast.Call):
        """The classes of the values an argument (or the elements of a tuple or list display) can be: this
        module's by inference, another module's when it is built right there or in a local of the caller
        (`step(State.create(...))`, `state = State(...); step(state)`), or names the caller's parameter's
        annotation."""
        elements = argument.elts if isinstance(argument, (ast.Tuple, ast.List)) else [argument]
        function = self.index.enclosing_function(call)
        context = Context.of(function)
        for element in elements:
            if isinstance(element, ast.Starred):
                continue
            yield from (e.cls for e in self.analysis.values.infer(element, context) if e.cls is not None)
            made = [element]
            if isinstance(element, ast.Name) and function is not None:
                made = [v for v in function.local_bindings.get(element.id, []) if isinstance(v, ast.expr)]
                # A parameter annotated with another module's class (`def totals(labelled: Labelled)`).
                yield from (name for param in function.params if param.name == element.id
                            for name in self._annotated(param.annotation) if isinstance(name, str))
            for value in made:
                if isinstance(value, ast.Call):  # `State(...)`, or a factory `State.create(...)`
                    callee = value.func.value if isinstance(value.func, ast.Attribute) else value.func
                    local = self.index.resolve_class(callee)
                    yield from [local] if local is not None else self._imported(callee)

    def _annotated(self, annotation: ast.expr | None):
        """The classes an annotation names, inside containers too (`list[Layer]`, `State | None`)."""
        if annotation is None:
            return
        annotation = parse_string_annotation(annotation) or annotation
        for node in nodes_of(annotation, ast.Name):
            cls = self.index.resolve_class(node)
            if cls is not None:
                yield cls
        for node in [*nodes_of(annotation, ast.Name), *nodes_of(annotation, ast.Attribute)]:
            yield from self._imported(node)

    def _imported(self, node: ast.expr) -> list[str]:
        """The qualified name of an imported capitalised name (`State`, `states.State`)."""
        if isinstance(node, ast.Name) and self.index.aliases.is_module_local(node.id):
            return []
        qualified = self.index.aliases.qualify(node)
        if qualified is None or not qualified.rsplit(".", 1)[-1][:1].isupper():
            return []
        return [qualified]
