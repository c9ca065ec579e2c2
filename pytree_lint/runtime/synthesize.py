"""Examples the verifier makes itself, for a module that gives none (no `examples()`, no `--examples`):
two equal-valued instances of the finding's class, each built anew, from its constructor (its arrays hold
1, 2, 3... in the order they are made, so swapped fields show).

Each parameter of the constructor gets its default when it has one (a None default of a parameter whose
annotation names another type gets a value of that type first, the default where the constructor refuses
that); otherwise a value made from its annotation (a small float array, shaped by a jaxtyping annotation's
dimensions when it has one, else of shape (2,), or (2, 2) where the constructor refuses those; ints, floats,
bools and strings; the first type of an `Optional` or a union; tuples, lists and dicts of such values; a
class of the module, or a library dataclass, built the same way); a parameter without annotation or default
gets an array, what a pytree's children usually are (an int where its name says a size or a count, NNX's
`Rngs` for `rngs`). Callables get one module-level function, the same for both instances (a fresh lambda per
instance would make up a volatility of its own). A class whose constructor refuses such values (it
validates them) is built instead from a call of it the module itself writes with literal arguments
(`Linear(jnp.ones((2, 3)), 4)`), evaluated twice. Only what the module itself names is used: nothing else
is imported.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import sys
import typing
from typing import Any

from .observe import first_line, jax_module

# How deep classes are built inside classes before the verifier gives up.
MAX_DEPTH = 4
# A jaxtyping annotation's text: `Float[Array, "batch 3"]`.
JAXTYPING = re.compile(r"^(?:Float|Int|Bool|Shaped|Num|Real|Inexact|Integer|UInt|Complex|Key)\w*"
                       r"\[.*?(?:,\s*['\"]([^'\"]*)['\"])?\]$")
ARRAY_NAMES = ("Array", "ndarray", "ArrayLike", "Tensor")
# The shapes of the arrays a constructor is given where nothing says one, the next where it refuses them
# (one that validates a matrix: `if w.ndim != 2: raise`).
ARRAY_SHAPES = ((2,), (2, 2))


class Unbuildable(Exception):
    """The class cannot be built from what its constructor says; the message says why."""


def synthesized_examples(module: Any, target: str | None) -> list[Any]:
    """Two equal-valued instances of the class `target` of `module`: from its constructor's annotations, or
    else from a call of it the module itself writes with literal arguments. Unbuildable says why not."""
    cls = getattr(module, target, None) if target else None
    if not isinstance(cls, type):
        raise Unbuildable(f"`{target}` is no class of the module")
    reasons = []
    # Optional parameters given values first, in each shape; then left to their defaults.
    for fills_optional in (True, False):
        for shape in ARRAY_SHAPES:
            try:  # the same recipe twice
                return [_Builder(module, shape, fills_optional).instance(cls, 0) for _ in range(2)]
            except Unbuildable as refused:
                reasons.append(refused)
    written = _written_call(module, cls)
    if written is None:
        raise reasons[0]
    try:
        return [written(), written()]
    except Exception:
        raise reasons[0] from None


# Modules whose functions a call's arguments may use: array constructors, evaluated anew for each example.
ARRAY_MODULES = frozenset({"numpy", "jax.numpy"})


def _written_call(module: Any, cls: type):
    """A call of `cls` in the module's own source whose arguments are literals, or calls of numpy or
    jax.numpy functions on literals (`Linear(jnp.ones((2, 3)), 4)`): a function that makes it again."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _names(node.func, cls.__name__) and all(
                _is_literal_made(argument, module) for argument in [*node.args, *(k.value for k in node.keywords)]) \
                and not any(k.arg is None for k in node.keywords) and not any(
                isinstance(a, ast.Starred) for a in node.args):
            code = compile(ast.Expression(body=node), f"<a call of {cls.__name__} in {module.__name__}>", "eval")
            return lambda code=code: eval(code, vars(module))  # the module's own expression
    return None


def _names(function: Any, name: str) -> bool:
    return (isinstance(function, ast.Name) and function.id == name) or (
        isinstance(function, ast.Attribute) and function.attr == name)


def _is_literal_made(node: Any, module: Any) -> bool:
    """A literal, or a call of a numpy / jax.numpy function (through the module's own name for it) on
    literals."""
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)):
        return False
    named = getattr(module, node.func.value.id, None)
    return getattr(named, "__name__", None) in ARRAY_MODULES and all(
        _is_literal_made(argument, module) for argument in [*node.args, *(k.value for k in node.keywords)])


def _same_function(*args: Any, **kwargs: Any) -> Any:
    """The callable every synthesized example is given (one object: equal in both instances)."""
    return args[0] if args else None


# Parameters that, unannotated, name a count or a size: an int, not an array.
SIZE_LIKE = re.compile(r"^(?:n|k|m|size|dim|depth|width|height|count|steps|axis|index|features|num_\w+|n_\w+|"
                       r"\w+_(?:size|dim|dims|count|len|length|features|steps))$")


class _Builder:
    """Builds one instance; each array it makes holds another value (1, 2, 3...), so that fields swapped or
    reordered show, and a second builder makes an equal instance."""

    def __init__(self, module: Any, shape: tuple[int, ...], fills_optional: bool) -> None:
        self.module, self.shape, self.fills_optional = module, shape, fills_optional
        self.jnp = jax_module().numpy
        self.made = 0

    def instance(self, cls: type, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise Unbuildable(f"`{cls.__name__}` nests classes deeper than {MAX_DEPTH}")
        hints = _hints(cls)
        arguments, keywords = [], {}
        for parameter in _parameters(cls):
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            annotation = hints.get(parameter.name, parameter.annotation)
            # The constructor's own default, as a program that leaves it out gets; `x: Array | None = None`
            # filled first (with what the class holds when it is used).
            if parameter.default is not parameter.empty and not (
                    self.fills_optional and parameter.default is None and _admits_more_than_none(annotation)):
                continue
            value = self.parameter_value(parameter.name, annotation, depth)
            if parameter.kind == parameter.POSITIONAL_ONLY:
                arguments.append(value)
            else:
                keywords[parameter.name] = value  # by name: a dict-like dataclass takes no positional ones
        try:
            return cls(*arguments, **keywords)
        except Exception as error:
            raise Unbuildable(f"building `{cls.__name__}` from its annotations raised {first_line(error)}") from None

    def parameter_value(self, name: str, annotation: Any, depth: int) -> Any:
        """A parameter's value: by its annotation; unannotated, by its name (`rngs`: NNX's random streams,
        when the module uses NNX; a size-like name: an int), else an array."""
        nnx = sys.modules.get("flax.nnx")
        if nnx is not None and (annotation is nnx.Rngs or (name == "rngs" and annotation is inspect.Parameter.empty)):
            return nnx.Rngs(0)  # a seed: Rngs() alone has no stream to draw parameters from
        if annotation is inspect.Parameter.empty and SIZE_LIKE.match(name):
            return 2
        return self.value(annotation, depth)

    def value(self, annotation: Any, depth: int) -> Any:
        """A value of the annotated type (an array where nothing is said)."""
        if annotation is inspect.Parameter.empty or annotation is Any:
            return self.array(self.shape)
        if isinstance(annotation, str):
            return self._from_text(annotation, depth)
        origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is typing.Union or type(annotation).__name__ == "UnionType":
            chosen = [argument for argument in arguments if argument is not type(None)]
            return self.value(chosen[0], depth) if chosen else None
        if origin in (tuple, list, set, frozenset):
            items = [a for a in arguments if a is not Ellipsis] or [inspect.Parameter.empty]
            made = [self.value(item, depth) for item in items]
            return origin(made)
        if origin is dict:
            return {"a": self.value(arguments[1] if len(arguments) == 2 else inspect.Parameter.empty, depth)}
        if origin is not None and callable(annotation) and getattr(origin, "__name__", "") == "Callable":
            return _same_function
        if annotation in (int, float, bool, str, complex):
            return {int: 2, float: 1.0, bool: True, str: "a", complex: 1j}[annotation]
        if annotation is type(None):
            return None
        if getattr(annotation, "__module__", "").startswith("jaxtyping") or hasattr(annotation, "dim_str"):
            return self._array(getattr(annotation, "dim_str", ""))
        name = str(getattr(annotation, "__name__", "")).rsplit(".", 1)[-1]  # jax.Array's is "jaxlib._jax.Array"
        if name in ARRAY_NAMES:
            return self.array(self.shape)
        if isinstance(annotation, type):
            if name == "Callable" or issubclass(annotation, type(_same_function)):
                return _same_function
            return self.instance(annotation, depth + 1)
        return self.array(self.shape)

    def _from_text(self, text: str, depth: int) -> Any:
        """An annotation left as text (unresolved): by what it names."""
        text = text.strip()
        match = JAXTYPING.match(text)
        if match is not None:
            return self._array(match.group(1) or "")
        head = text.split("[", 1)[0].rsplit(".", 1)[-1]
        if head in ("int", "float", "bool", "str"):
            return {"int": 2, "float": 1.0, "bool": True, "str": "a"}[head]
        if head in ("Optional",):
            return self._from_text(text[len(text.split("[", 1)[0]) + 1:-1], depth)
        named = getattr(self.module, head, None)
        if isinstance(named, type) and head not in ARRAY_NAMES:
            return self.instance(named, depth + 1)
        if head == "Callable":
            return _same_function
        return self.array(self.shape)

    def _array(self, dimensions: str) -> Any:
        """An array whose shape follows a jaxtyping dimension string (named sizes 2, `...` none)."""
        shape = []
        for dimension in dimensions.split():
            dimension = dimension.strip("*#_")
            if dimension in ("...", ""):
                continue
            shape.append(int(dimension) if dimension.isdigit() else 2)
        return self.array(tuple(shape) if dimensions.strip() else (2,))

    def array(self, shape: tuple[int, ...]) -> Any:
        """A float array of the shape, holding the next value."""
        self.made += 1
        return self.jnp.full(shape, float(self.made))


def _admits_more_than_none(annotation: Any) -> bool:
    """An annotation naming a type besides None (`Array | None`), resolved or left as text."""
    if annotation is inspect.Parameter.empty or annotation is None or annotation is type(None):
        return False
    if isinstance(annotation, str):
        return annotation.strip() not in ("None", "")
    arguments = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Union or type(annotation).__name__ == "UnionType":
        return any(argument is not type(None) for argument in arguments)
    return True


def _parameters(cls: type) -> list[inspect.Parameter]:
    """The constructor's parameters: the class's signature, or its `__init__`'s where a metaclass's
    `__call__(*args, **kwargs)` hides it (NNX modules)."""
    try:
        parameters = list(inspect.signature(cls).parameters.values())
        if any(p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters):
            return parameters
        return list(inspect.signature(cls.__init__).parameters.values())[1:]  # type: ignore[misc]
    except (TypeError, ValueError):
        raise Unbuildable(f"`{cls.__name__}`'s constructor has no signature to read") from None


def _hints(cls: type) -> dict[str, Any]:
    """The constructor's annotations, resolved where they can be (a dataclass's fields included)."""
    for source in (cls.__init__, cls):  # type: ignore[misc]  # the class's own constructor is meant
        try:
            hints = typing.get_type_hints(source)
            if hints:
                return hints
        except Exception:  # a name the module imports only under TYPE_CHECKING, a forward reference
            continue
    found: dict[str, Any] = {}
    if dataclasses.is_dataclass(cls):
        found.update({field.name: field.type for field in dataclasses.fields(cls)})
    found.update(getattr(vars(cls).get("__init__"), "__annotations__", {}))
    return found
