"""Growth curves: the CLI's cold time on generated projects of growing size, which must grow linearly.

    python benchmarks/growth.py [--sizes 100,200,400,800,1600] [--repeat N]

Ten shapes, each generated at every size N and linted whole (`pytree-lint --no-cache --jobs 1`, from bytecode):
(a) a chain of N helpers in one module, each returning one of three calls of the one before, the first an
array, the last's result put in a registered class's aux_data: a path-enumerating evaluator walks 3**N paths;
(b) the same chain across N modules, each importing the helper before it; (c) N modules each re-exporting the
one before's names, the last importing a registered class through all of them; (d) a package of N modules each
constructing one registered class with an array; (e) N registered classes in one module; (f) a package of N
modules each defining and building a registered class of the same name (each mentions the others' name: a
search for a class's users that asks every file mentioning it is quadratic); (g) N modules each returning a
pair made of the one before's, unpacked (`a, b = step(x)`) or indexed (`step(x)[0]`), the array its first
element all the way (each element of a returned tuple is followed on its own); (h) a chain of N builders in one
module, each returning one of three objects made of the attribute of the one before's (`Held(step(x).value)`):
a walk per object is 3**N, a summary per builder and attribute is N (the array is found up to 24 builders
deep, the bound of summaries computed inside one another); (i) a chain of N helpers in one module, each
returning an expression of three calls of the one before on its parameter (`step(box) + step(box) if box.x
else step(box) * 2`), the last called on a registered class's instance in its flatten: each call evaluated
with its arguments evaluates the three calls inside it (a cap on such evaluations within one another keeps
each call's cost 3**2, not 3**N); (j) N modules of three builders each, every one returning one of three calls
of the module before's builders or a registered class with a lambda in its aux_data, the last module's called
by no module: how often each object is built is asked up the builders' calls, once per builder and depth
(`Project.built_through`), not along each path. Each row gives the
time per unit (ms per helper, module or class): linear growth keeps it flat, and the last column, the time at
the largest size over the smallest scaled by size, near 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

REGISTERED = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp


    @jax.tree_util.register_pytree_node_class
    class Box:
        def __init__(self, x, meta):
            self.x = x
            self.meta = meta

        def tree_flatten(self):
            return (self.x,), self.meta

        @classmethod
        def tree_unflatten(cls, meta, children):
            return cls(*children, meta)
    """)


def _helper(i: int, previous: str) -> str:
    return textwrap.dedent(f"""\
        def step{i}(x):
            if x > 0:
                return {previous}(x)
            if x < 0:
                return {previous}(-x)
            return {previous}(x + 1)
        """)


def chain_in_one_module(root: Path, n: int) -> None:
    parts = [REGISTERED, "\n\ndef step0(x):\n    return jnp.zeros(3) + x\n"]
    parts += ["\n\n" + _helper(i, f"step{i - 1}") for i in range(1, n + 1)]
    parts.append(f"\n\nBOX = Box(jnp.ones(2), step{n}(1))\n")
    (root / "chain.py").write_text("".join(parts))


def chain_across_modules(root: Path, n: int) -> None:
    _chain_package(root / "chain", n, "jnp.zeros(3) + x", lambda i: _helper(i, f"step{i - 1}"), "")


def _chain_package(package: Path, n: int, first: str, helper: Callable[[int], str], taken: str) -> None:
    """A package of N modules, `step{i}` made by `helper(i)` from the one before, `step0` returning `first`;
    a registered class given `step{N}(1){taken}` in a module of its own."""
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "box.py").write_text(REGISTERED)
    (package / "step0.py").write_text(f"import jax.numpy as jnp\n\n\ndef step0(x):\n    return {first}\n")
    for i in range(1, n + 1):
        (package / f"step{i}.py").write_text(f"from .step{i - 1} import step{i - 1}\n\n\n" + helper(i))
    (package / "use.py").write_text(f"import jax.numpy as jnp\n\nfrom .box import Box\nfrom .step{n} import step{n}\n\n"
                                    f"BOX = Box(jnp.ones(2), step{n}(1){taken})\n")


def re_exports(root: Path, n: int) -> None:
    package = root / "reexport"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod0.py").write_text(REGISTERED + "\n\nMETA = jnp.zeros(3)\n")
    for i in range(1, n + 1):
        (package / f"mod{i}.py").write_text(f"from .mod{i - 1} import META, Box  # noqa: F401\n")
    (package / "use.py").write_text(f"import jax.numpy as jnp\n\nfrom .mod{n} import META, Box\n\n"
                                    "BOX = Box(jnp.ones(2), META)\n")


def constructions(root: Path, n: int) -> None:
    package = root / "built"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "box.py").write_text(REGISTERED)
    for i in range(n):
        (package / f"make{i}.py").write_text(
            f"import jax.numpy as jnp\n\nfrom .box import Box\n\n\ndef make{i}(x):\n"
            f"    return Box(x, jnp.zeros({i + 1}))\n")


def classes(root: Path, n: int) -> None:
    body = REGISTERED.split("\n\n@")[0]
    one = "@" + REGISTERED.split("\n\n@")[1]
    parts = [body]
    for i in range(n):
        parts.append("\n\n" + one.replace("class Box", f"class Box{i}")
                     + f"\n\nBOX{i} = Box{i}(jnp.ones(2), jnp.zeros(3))\n")
    (root / "classes.py").write_text("".join(parts))


def same_names(root: Path, n: int) -> None:
    package = root / "same"
    package.mkdir()
    (package / "__init__.py").write_text("")
    registered = REGISTERED.replace("class Box", "class Node").replace("return cls(", "return Node(")
    for i in range(n):
        (package / f"module{i}.py").write_text(registered + "\n\nNODE = Node(jnp.ones(2), (1, 2))\n")


def _pair_helper(i: int) -> str:
    return (f"def step{i}(x):\n    a, b = step{i - 1}(x)\n"
            f"    return (a, b + 1) if x > 0 else (step{i - 1}(-x)[0], {i})\n")


def pairs_across_modules(root: Path, n: int) -> None:
    _chain_package(root / "pairs", n, "jnp.zeros(3) + x, 0", _pair_helper, "[0]")


def builders_in_one_module(root: Path, n: int) -> None:
    parts = [REGISTERED, "\n\nclass Held:\n    def __init__(self, value):\n        self.value = value\n",
             "\n\ndef step0(x):\n    return Held(jnp.zeros(3) + x)\n"]
    parts += ["\n\n" + _helper(i, f"step{i - 1}").replace(f"return step{i - 1}(", f"return Held(step{i - 1}(")
              .replace(")\n", ").value)\n") for i in range(1, n + 1)]
    parts.append(f"\n\nBOX = Box(jnp.ones(2), step{n}(1).value)\n")
    (root / "builders.py").write_text("".join(parts))


def expressions_of_parameters(root: Path, n: int) -> None:
    parts = [REGISTERED.replace("return (self.x,), self.meta", f"return (self.x,), step{n}(self)"),
             "\n\ndef step0(box):\n    return box.meta + jnp.zeros(3)\n"]
    previous = "step{}(box)"
    parts += [f"\n\ndef step{i}(box):\n    return {previous.format(i - 1)} + {previous.format(i - 1)} if box.x "
              f"else {previous.format(i - 1)} * 2\n" for i in range(1, n + 1)]
    parts.append("\n\nBOX = Box(jnp.ones(2), jnp.zeros(3))\n")
    (root / "expressions.py").write_text("".join(parts))


def _fanned_builder(i: int, k: str) -> str:
    return (f"def build{i}_{k}(x):\n    if x > 0:\n        return build{i - 1}_a(x)\n    if x < 0:\n"
            f"        return build{i - 1}_b(-x) if x < -1 else build{i - 1}_c(x)\n"
            f"    return Box(x, lambda v: v + {k!r})\n\n\n")


def builders_across_modules(root: Path, n: int) -> None:
    package = root / "factories"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "box.py").write_text(REGISTERED)
    (package / "build0.py").write_text("from .box import Box\n\n\n" + "".join(
        f"def build0_{k}(x):\n    return Box(x, lambda v: v + {k!r})\n\n\n" for k in "abc"))
    for i in range(1, n + 1):
        before = f"build{i - 1}"
        imports = f"from .box import Box\nfrom .{before} import {before}_a, {before}_b, {before}_c\n\n\n"
        (package / f"build{i}.py").write_text(imports + "".join(_fanned_builder(i, k) for k in "abc"))


SHAPES = [
    ("(a) helpers chained in one module, 3 calls each", "helper", chain_in_one_module),
    ("(b) helpers chained across modules", "module", chain_across_modules),
    ("(c) modules re-exporting each other", "module", re_exports),
    ("(d) modules constructing one class", "module", constructions),
    ("(e) registered classes in one module", "class", classes),
    ("(f) modules defining the same class name", "module", same_names),
    ("(g) pairs unpacked along a chain of modules", "module", pairs_across_modules),
    ("(h) objects built along a chain of builders", "builder", builders_in_one_module),
    ("(i) helpers of their parameter, 3 calls each", "helper", expressions_of_parameters),
    ("(j) builders across modules, 3 each", "module", builders_across_modules),
]


def lint_time(root: Path, repeat: int) -> float:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-m", "pytree_lint", "--no-cache", "--jobs", "1", "--format", "json", str(root)]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        best = min(best, time.perf_counter() - started)
        if result.returncode not in (0, 1):
            sys.exit(f"{root}: exit {result.returncode}\n{result.stderr}")
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,200,400,800,1600")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    empty = tempfile.mkdtemp()
    startup = lint_time(Path(empty), options.repeat)
    print(f"CLI start-up on an empty folder: {startup:.2f} s (taken off each time below)\n")
    print(f"{'shape':48} " + " ".join(f"{f'N={n}':>12}" for n in sizes) + f" {'growth':>8}")
    for title, unit, generate in SHAPES:
        per_unit = []
        for n in sizes:
            with tempfile.TemporaryDirectory() as scratch:
                generate(Path(scratch), n)
                per_unit.append(max(lint_time(Path(scratch), options.repeat) - startup, 0.0) / n * 1000)
        cells = " ".join(f"{f'{ms:.2f} ms/{unit}':>12}" for ms in per_unit)
        print(f"{title:48} {cells} {per_unit[-1] / per_unit[0]:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
