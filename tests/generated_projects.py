"""Random multi-module pytree projects for the fuzz test (tests/test_fuzz.py, benchmarks/fuzz.py).

Each project is a package of a few modules that import each other's classes (cycles, self-imports,
aliases, star and re-exports), define classes whose bases lead anywhere (repeated, cyclic, imported under
several names), register them every way JAX and the libraries allow (decorators, calls at module level, in
loops and in functions, on names that are not classes), and give them odd fields and flattens. The
programs are valid Python; what they mean is often nonsense, on purpose.
"""

from __future__ import annotations

import random

HEADER = """\
import dataclasses
import functools
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct
"""
VALUES = ["np.arange(3)", "[1, 2]", "{'k': 1}", "lambda x: x", "object()", "'name'", "jnp.zeros(2)",
          "functools.partial(max, 1)", "None", "(1, 2)", "set()", "id(self)", "x", "self", "type(self)",
          "(np.arange(3), 1)", "{'k': jnp.zeros(2), **{}}", "helper(1)[0]", "helper(x)['k']", "dict(k=[1])['k']",
          "helper(x).a", "build(x).b", "C0(x).a"]
FLATTENS = ["return (self.a,), self.b", "return (self.b, self.a), None", "return self.a, (self.b,)",
            "return [self.a], [self.b]", "return (self,), self", "return ()", "return self.a",
            "aux = (self.b, self.a)\n        return (self.a,), aux",
            "first, *rest = helper(self.a)\n        return (first,), rest",
            "a, b = b, a = helper(self)\n        return (a,), b"]
UNFLATTENS = ["return cls(*children)", "return cls(aux, *children)", "obj = object.__new__(cls)\n"
              "        obj.a, = children\n        return obj", "return cls(children)", "return aux"]


def project(seed: int) -> dict[str, str]:
    """The files of one generated project (paths relative to its root), from a seed."""
    rng = random.Random(seed)
    count = rng.randint(1, 4)
    files = {"pyproject.toml": "", "pkg/__init__.py": _package_init(rng, count)}
    for number in range(count):
        files[f"pkg/m{number}.py"] = _module(rng, number, count)
    return files


def _package_init(rng: random.Random, count: int) -> str:
    lines = [f"from .m{rng.randrange(count)} import C{rng.randrange(3)} as Exported{n}" for n in range(2)]
    if rng.random() < 0.5:
        lines.append(f"from .m{rng.randrange(count)} import *")
    return "\n".join(lines) + "\n"


def _module(rng: random.Random, number: int, count: int) -> str:
    parts = [HEADER]
    imported = []
    for index in range(rng.randint(0, 4)):
        other = rng.randrange(count)  # may be this very module
        name = f"Base{index}"
        source = rng.choice([f".m{other}", "pkg", f"pkg.m{other}"])
        parts.append(f"from {source} import {rng.choice(['C0', 'C1', 'C2', 'Exported0', 'helper'])} as {name}")
        imported.append(name)
    if rng.random() < 0.3:
        parts.append(f"from .m{rng.randrange(count)} import *")
    local = []
    for index in range(3):
        name = f"C{index}"
        bases = rng.choices([*imported, *local, "object", name], k=rng.randint(0, 3))
        parts.append(_class(rng, name, [b for b in bases if b != name or rng.random() < 0.2]))
        local.append(name)
    parts.append(f"\ndef helper(x):\n    return {rng.choice(VALUES).replace('self', 'x')}\n")
    parts.append(f"\ndef build(x):\n    return {rng.choice([*local, 'helper', 'build'])}({rng.choice(VALUES)})\n"
                 .replace("self", "x"))
    parts.append(_registrations(rng, [*local, *imported]))
    parts.append(_uses(rng, local))
    return "\n".join(parts) + "\n"


def _class(rng: random.Random, name: str, bases: list[str]) -> str:
    decorator = rng.choice(["", "@jax.tree_util.register_pytree_node_class\n", "@struct.dataclass\n",
                            "@dataclasses.dataclass\n", "@jax.tree_util.register_static\n"])
    header = f"\n\n{decorator}class {name}({', '.join(bases)}):\n"
    body = []
    if rng.random() < 0.5:
        body.append(f"    a: jax.Array\n    b: {rng.choice(['int', 'str', 'list', 'np.ndarray'])} = "
                    f"struct.field(pytree_node=False, default={rng.choice(['0', 'None'])})")
    if rng.random() < 0.6:
        body.append(f"    def __init__(self, a=None, b=None):\n        self.a = {rng.choice([*VALUES, 'a'])}\n"
                    f"        self.b = {rng.choice([*VALUES, 'b'])}")
    if rng.random() < 0.6:
        body.append(f"    def tree_flatten(self):\n        {rng.choice(FLATTENS)}")
        body.append(f"    @classmethod\n    def tree_unflatten(cls, aux, children):\n        {rng.choice(UNFLATTENS)}")
    if rng.random() < 0.3:
        body.append(f"    def __eq__(self, other):\n        return {rng.choice(['self.a == other.a', 'True'])}")
    if rng.random() < 0.3:
        body.append(f"    def grow(self):\n        self.b.append(1)\n        self.a += 1\n        "
                    f"self.{rng.choice(['a', 'b'])} = {rng.choice(VALUES)}")
    return header + ("\n\n".join(body) if body else "    pass")


def _registrations(rng: random.Random, names: list[str]) -> str:
    lines = []
    for _ in range(rng.randint(0, 3)):
        target = rng.choice([*names, "helper", "jnp.zeros", "None"])
        form = rng.choice([
            f"jax.tree_util.register_pytree_node({target}, lambda o: ((o.a,), o.b), lambda aux, ch: {target}(*ch))",
            f"jax.tree_util.register_dataclass({target}, data_fields=['a'], meta_fields=['b'])",
            f"jax.tree_util.register_pytree_node_class({target})",
            f"for cls in ({target}, {rng.choice(names or ['object'])}):\n"
            f"    jax.tree_util.register_pytree_node(cls, lambda o: ((o.a,), o.b), lambda aux, ch: cls(*ch))",
            f"def register():\n    jax.tree_util.register_pytree_with_keys({target}, lambda o: (((0, o.a),), o.b),"
            f" lambda aux, ch: {target}(*ch))",
        ])
        lines.append(form)
    return "\n\n".join(lines)


def _uses(rng: random.Random, local: list[str]) -> str:
    name = rng.choice(local)
    return (f"\n\n@functools.partial(jax.jit, static_argnums={rng.choice(['0', '(1,)', '()'])})\n"
            f"def step(obj: {name}, n):\n    return jax.tree.map(lambda x: x, obj)\n\n\n"
            f"INSTANCE = {name}({rng.choice(VALUES).replace('self', '1')})\n"
            f"jax.jit(step)(INSTANCE, {rng.choice(['[1]', '{}', '3'])})\n\n\n"
            f"def run(x):\n    config = {rng.choice(['build(x)', f'{name}(x)', 'helper(x)'])}\n"
            f"    return step(config, config.{rng.choice(['a', 'b'])})\n")
