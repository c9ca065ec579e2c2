"""Measure pytree-lint against its targets, all in one run on the same files.

    python benchmarks/run.py [--jax-source DIR] [--repeat N]

(a) `ast.parse` of every file: the floor for any Python tool; (b) the CLI cold (`--no-cache`); (c) the CLI
warm (a filled cache); (d) flake8 with and without the plugin on `jax/_src/numpy`; (e) per save: flake8 with
and without the plugin on one 800-1,500-line file with registrations, 15 interleaved runs, medians; (e2) the
same on a module of flax (jax's names are library names, flax's own are followed across its modules), with the
project summaries cached and with an empty cache each run; (e3) the CLI after touching one file of a linted
tree (a copy of jax's source); (e4) the CLI cold on flax, whose modules import each other's names; (f) many
findings: one generated 1,800-line file with 100 findings against the same file without them, linted in
process (report only, and with fixes as --diff and JSON ask); (g) one generated 2,000-line file dense with
registrations, and one of Flax NNX Modules, through the flake8 plugin; (h) peak memory of the CLI; (i) the
language server's latency from a `didChange` of the per-save file to its diagnostics, through a real LSP
client. Inputs: the installed `jax` and `flax` packages' own source and generated pytree-dense files. Each
timing is the best of `--repeat` runs unless it says median. Targets are from the project's issues; the script
prints the ratios."""

from __future__ import annotations

import argparse
import ast
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

DENSE_CLASS = textwrap.dedent("""\
    @jax.tree_util.register_pytree_node_class
    class Node{i}:
        def __init__(self, x, n):
            self.x = x
            self.n = n
            self.shape = x.shape
            self.table = np.arange(n) if n > {i} else None

        def scale(self, factor):
            return Node{i}(self.x * factor, self.n)

        def tree_flatten(self):
            aux = (self.n, self.shape, self.table)
            return (self.x,), aux

        @classmethod
        def tree_unflatten(cls, aux, children):
            obj = object.__new__(cls)
            obj.x, = children
            obj.n, obj.shape, obj.table = aux
            return obj

    """)
NNX_CLASS = textwrap.dedent("""\
    class Block{i}(nnx.Module):
        def __init__(self, dim: int, rngs: nnx.Rngs):
            self.norm = nnx.LayerNorm(dim, rngs=rngs)
            self.layers = nnx.List([nnx.Linear(dim, dim, rngs=rngs) for _ in range(2)])
            self.head = nnx.data(None)
            self.mask = jnp.tril(jnp.ones((dim, dim)))
            self.dim = dim
            self.name = "block{i}"

        def __call__(self, x):
            x = self.norm(x)
            for layer in self.layers:
                x = nnx.relu(layer(x)) * self.mask[0]
            return x

    """)
# flake8 runs every installed plugin whatever --select says: "without the plugin" hides its entry point.
HIDE_PLUGIN = """
import sys
from flake8.main import cli
from flake8.plugins import finder
found = finder.find_plugins
finder.find_plugins = lambda *a, **k: [p for p in found(*a, **k) if p.package != "pytree-lint"]
"""
FLAKE8_WITHOUT_PLUGIN = HIDE_PLUGIN + "sys.exit(cli.main(sys.argv[1:]))\n"
# The per-save file: a real module of jax's with registrations, 800-1,500 lines (1,411 in jax 0.10.2).
PER_SAVE_FILE = Path("_src", "checkify.py")
# The per-save file whose imports are followed: a flax module importing a dozen of flax's (1,231 lines).
PROJECT_SAVE_FILE = Path("core", "scope.py")
FINDING_CLASS = textwrap.dedent("""\
    @jax.tree_util.register_pytree_node_class
    class Item{i}:
        def __init__(self, x, n):
            self.x = x
            self.sizes = {sizes}

        def grow(self, size):
            {grow}

        def tree_flatten(self):
            return (self.x,), self.sizes

        @classmethod
        def tree_unflatten(cls, aux, children):
            obj = object.__new__(cls)
            obj.x, obj.sizes = children[0], aux
            return obj

    """)


def dense_file(lines: int, template: str = DENSE_CLASS,
               header: str = "import jax\nimport numpy as np\n\n\n") -> str:
    body, i = [], 0
    while sum(part.count("\n") for part in body) + 4 < lines:
        body.append(template.format(i=i))
        i += 1
    return header + "".join(body)


def server_latency(path: Path, edits: int = 15) -> float:
    """Median seconds from a `didChange` of a real module (open, then edited one line at a time) to the
    diagnostics `pytree-lint server` publishes for it, through pygls' own client over stdio."""
    import asyncio

    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    async def measure() -> float:
        client = LanguageClient("benchmark", "1")
        published: asyncio.Queue = asyncio.Queue()
        client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: published.put_nowait(params))
        await client.start_io(sys.executable, "-m", "pytree_lint", "server")
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        client.initialized(types.InitializedParams())
        text, uri = path.read_text(), path.resolve().as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        await published.get()  # the first lint: imports and caches warm
        times = []
        for version in range(2, edits + 2):
            text += f"\n# edit {version}\n"
            start = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [types.TextDocumentContentChangeWholeDocument(text=text)]))
            await published.get()
            times.append(time.perf_counter() - start)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return statistics.median(times)

    return asyncio.run(measure())


def findings_file(classes: int, with_findings: bool) -> str:
    """A module of `classes` registered classes, each holding in aux a list that it appends to (PTL102,
    with a fix) or a tuple that it replaces."""
    sizes, grow = ("[n, n + 1]", "self.sizes.append(size)") if with_findings else (
        "(n, n + 1)", "self.sizes = self.sizes + (size,)")
    return "import jax\n\n\n" + "".join(FINDING_CLASS.format(i=i, sizes=sizes, grow=grow) for i in range(classes))


def median_of_each(repeat: int, *actions) -> list[float]:
    """The median time of each action over `repeat` rounds in which they take turns."""
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(repeat):
        for index, action in enumerate(actions):
            start = time.perf_counter()
            action()
            times[index].append(time.perf_counter() - start)
    return [statistics.median(each) for each in times]


def best_of(repeat: int, action) -> float:
    return best_of_each(repeat, action)[0]


def best_of_each(repeat: int, *actions) -> list[float]:
    """The best time of each action over `repeat` rounds in which they take turns, so that a machine
    getting slower or faster meanwhile does not favour one of them."""
    best = [float("inf")] * len(actions)
    for _ in range(repeat):
        for index, action in enumerate(actions):
            start = time.perf_counter()
            action()
            best[index] = min(best[index], time.perf_counter() - start)
    return best


def run(command: list[str], env: dict | None = None) -> None:
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)


def peak_memory_mb(command: list[str], env: dict) -> float:
    """Peak resident memory of a fresh child process running `command` (Linux: ru_maxrss is in KiB)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    output = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, env=env).stdout
    return int(output.strip().splitlines()[-1]) / 1024


def ast_floor(files: list[Path]) -> float:
    sources = [path.read_bytes() for path in files]

    def parse_all():
        for source in sources:
            try:
                ast.parse(source)
            except SyntaxError:
                pass
    return parse_all


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jax-source", help="the jax package to lint (default: the installed one)")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    if options.jax_source:
        jax_dir = Path(options.jax_source)
    else:
        import importlib.util
        jax_dir = Path(importlib.util.find_spec("jax").origin).parent
    files = sorted(jax_dir.rglob("*.py"))
    lines = sum(path.read_bytes().count(b"\n") for path in files)
    cli = [sys.executable, "-m", "pytree_lint"]
    repeat = options.repeat
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}")
    print(f"jax source: {jax_dir} ({len(files)} files, {lines} lines); commands run from bytecode, as installed\n")

    import importlib.util
    flax_dir = Path(importlib.util.find_spec("flax").origin).parent
    flax_files = sorted(flax_dir.rglob("*.py"))

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        # As installed: a pip install compiles the package, so every command runs from bytecode. (A
        # PYTHONDONTWRITEBYTECODE environment would recompile an editable checkout in every process.)
        env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        env["PYTREE_LINT_CACHE_DIR"] = str(scratch / "cache")
        run([*cli, "--no-cache", "--jobs", "1", str(jax_dir / "_src" / "numpy")], env)  # writes the bytecode
        floor = best_of(repeat, ast_floor(files))
        cold = best_of(repeat, lambda: run([*cli, "--no-cache", str(jax_dir)], env))
        cold_serial = best_of(repeat, lambda: run([*cli, "--no-cache", "--jobs", "1", str(jax_dir)], env))
        run([*cli, str(jax_dir)], env)  # fill the cache
        warm = best_of(repeat, lambda: run([*cli, str(jax_dir)], env))
        memory = peak_memory_mb([*cli, "--no-cache", "--jobs", "1", str(jax_dir)], env)

        numpy_dir = jax_dir / "_src" / "numpy"
        flake8 = [sys.executable, "-m", "flake8", "--isolated"]
        without_flake8 = [sys.executable, "-c", FLAKE8_WITHOUT_PLUGIN, "--isolated"]
        with_plugin, without_plugin = best_of_each(
            repeat, lambda: run([*flake8, str(numpy_dir)], env), lambda: run([*without_flake8, str(numpy_dir)], env))

        saved = jax_dir / PER_SAVE_FILE
        saved_lines = saved.read_bytes().count(b"\n")
        save_with, save_without = median_of_each(
            15, lambda: run([*flake8, str(saved)], env), lambda: run([*without_flake8, str(saved)], env))

        # A module whose project imports are followed: summaries from the cache, and from an empty one.
        project_saved = flax_dir / PROJECT_SAVE_FILE
        project_saved_lines = project_saved.read_bytes().count(b"\n")
        run([*flake8, str(project_saved)], env)  # fills the summary cache
        empty_caches = iter(range(10**6))

        def cold_env() -> dict:
            return {**env, "PYTREE_LINT_CACHE_DIR": str(scratch / f"empty{next(empty_caches)}")}
        project_warm, project_cold, project_without = median_of_each(
            15, lambda: run([*flake8, str(project_saved)], env), lambda: run([*flake8, str(project_saved)], cold_env()),
            lambda: run([*without_flake8, str(project_saved)], env))
        flax_floor = best_of(repeat, ast_floor(flax_files))
        flax_cold = best_of(repeat, lambda: run([*cli, "--no-cache", str(flax_dir)], cold_env()))

        # Touching one file of a linted tree: only it, and the files whose findings read it, are linted again.
        copy = scratch / "copy" / "jax"
        shutil.copytree(jax_dir, copy, ignore=shutil.ignore_patterns("__pycache__"))
        touched = copy / PER_SAVE_FILE
        original = touched.read_text()
        copy_cold = best_of(repeat, lambda: run([*cli, "--no-cache", str(copy)], env))
        touches = iter(range(10**6))

        def touch_and_lint():
            touched.write_text(original + f"\n# touched {next(touches)}\n")
            run([*cli, str(copy)], env)
        run([*cli, str(copy)], env)  # fill the cache
        relint = best_of(repeat, touch_and_lint)

        latency = server_latency(saved)

        from pytree_lint import lint_source
        many, none = findings_file(100, True), findings_file(100, False)
        many_lines = many.count("\n")
        assert len(lint_source(many)) == 100 and not lint_source(none)
        many_time, none_time = best_of_each(repeat, lambda: lint_source(many), lambda: lint_source(none))
        many_fixes, none_fixes = best_of_each(repeat, lambda: lint_source(many, fixes=True),
                                              lambda: lint_source(none, fixes=True))

        dense = dense_file(2000)
        dense_lines = dense.splitlines(keepends=True)
        from pytree_lint.faces.flake8 import Plugin

        dense_tree_ast = ast.parse(dense)  # flake8 parses the file itself before it calls plugins

        def plugin_on_dense():
            list(Plugin(dense_tree_ast, dense_lines, "dense.py").run())
        dense_time = best_of(repeat, plugin_on_dense)

        nnx_dense = dense_file(2000, NNX_CLASS, "import jax.numpy as jnp\nfrom flax import nnx\n\n\n")
        nnx_lines, nnx_tree = nnx_dense.splitlines(keepends=True), ast.parse(nnx_dense)
        nnx_time = best_of(repeat, lambda: list(Plugin(nnx_tree, nnx_lines, "nnx_dense.py").run()))

        tree = scratch / "dense_tree"
        for package in range(10):
            (tree / f"pkg{package}").mkdir(parents=True)
            for module in range(10):
                (tree / f"pkg{package}" / f"mod{module}.py").write_text(dense_file(300))
        tree_lines = 100 * dense_file(300).count("\n")
        dense_tree = best_of(repeat, lambda: run([*cli, "--no-cache", str(tree)], env))
        tree_floor = best_of(repeat, ast_floor(sorted(tree.rglob("*.py"))))

    rows = [
        ("ast.parse of jax's source (floor)", f"{floor:.2f} s", ""),
        ("pytree-lint cold, default jobs", f"{cold:.2f} s", f"{cold / floor:.2f}x floor (target <= 1.5x, goal 1.0x)"),
        ("pytree-lint cold, --jobs 1", f"{cold_serial:.2f} s", f"{cold_serial / floor:.2f}x floor"),
        ("pytree-lint warm (cached)", f"{warm:.2f} s", f"{warm / cold:.2f}x cold (target <= 0.2x)"),
        ("flake8 on jax/_src/numpy, without plugin", f"{without_plugin:.2f} s", ""),
        ("flake8 on jax/_src/numpy, with plugin", f"{with_plugin:.2f} s",
         f"{with_plugin / without_plugin:.2f}x (target <= 1.10x)"),
        (f"per save: flake8 on {PER_SAVE_FILE.name} ({saved_lines} lines), without", f"{save_without:.3f} s",
         "median of 15"),
        ("per save: the same, with plugin", f"{save_with:.3f} s",
         f"{save_with / save_without:.2f}x (target <= 1.25x)"),
        (f"per save, project imports followed: flake8 on flax's {PROJECT_SAVE_FILE} ({project_saved_lines} "
         "lines), without", f"{project_without:.3f} s", "median of 15"),
        ("  with plugin, summaries cached", f"{project_warm:.3f} s",
         f"{project_warm / project_without:.2f}x (target <= 1.25x)"),
        ("  with plugin, empty cache", f"{project_cold:.3f} s",
         f"{project_cold / project_without:.2f}x (target <= 1.5x)"),
        (f"ast.parse of flax's source ({len(flax_files)} files)", f"{flax_floor:.2f} s", ""),
        ("pytree-lint cold on flax, imports followed", f"{flax_cold:.2f} s", f"{flax_cold / flax_floor:.2f}x floor"),
        ("pytree-lint after touching one file (copy of jax)", f"{relint:.2f} s",
         f"{relint / copy_cold:.2f}x cold {copy_cold:.2f} s (target <= 0.1x)"),
        (f"server: didChange to diagnostics on {PER_SAVE_FILE.name}", f"{latency * 1000:.0f} ms",
         "median of 15 edits (target < 150 ms; includes the 50 ms debounce)"),
        (f"{many_lines}-line file, no finding (in process)", f"{none_time:.3f} s", ""),
        ("the same with 100 findings", f"{many_time:.3f} s", f"{many_time / none_time:.2f}x (target <= 3x)"),
        ("  with fixes asked (--diff, JSON), no finding", f"{none_fixes:.3f} s", ""),
        ("  with fixes asked, 100 findings with fixes", f"{many_fixes:.3f} s",
         f"{many_fixes / none_fixes:.2f}x (one libcst parse for the file)"),
        ("one 2,000-line dense file, flake8 plugin", f"{dense_time:.3f} s", "target < 0.5 s"),
        ("one 2,000-line Flax NNX file (Modules, nnx.List, nnx.data), flake8 plugin", f"{nnx_time:.3f} s",
         f"{nnx_time / dense_time:.2f}x the dense pytree file (target <= 1x)"),
        (f"generated dense tree (100 files, {tree_lines} lines)", f"{dense_tree:.2f} s",
         f"{dense_tree / tree_floor:.1f}x its ast.parse floor ({tree_floor:.2f} s)"),
        ("peak memory, CLI on jax's source", f"{memory:.0f} MB", "target < 300 MB"),
    ]
    width = max(len(row[0]) for row in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>9}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
