"""The lint path never imports JAX, never imports or runs the code it lints."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest


def test_linting_neither_imports_jax_nor_runs_the_module(tmp_path):
    marker = tmp_path / "module-was-executed"
    (tmp_path / "evil.py").write_text(textwrap.dedent(f"""\
        import jax
        import numpy as np
        open({str(marker)!r}, "w").close()

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self):
                self.table = np.arange(3)

            def tree_flatten(self):
                return (), self.table
        """))
    probe = textwrap.dedent(f"""\
        import sys
        from pytree_lint.faces.cli import main
        status = main([{str(tmp_path / "evil.py")!r}])
        leaked = sorted(name for name in ("jax", "numpy", "evil") if name in sys.modules)
        print("LEAKED", leaked)
        sys.exit(status)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "PTL101" in result.stdout
    assert "LEAKED []" in result.stdout
    assert not marker.exists()


@pytest.mark.parametrize("comment", ["", "  # noqa: PTL999"], ids=["plain", "noqa"])
def test_tokenize_is_imported_only_for_a_file_spelling_noqa(comment, tmp_path):
    """Reading a file's encoding and its `# noqa` comments needs `tokenize` only for a file with a coding
    cookie or a BOM, or one that spells `noqa`: imported at each start, it and its patterns took 2 ms of it."""
    (tmp_path / "box.py").write_text(textwrap.dedent(f"""\
        import jax
        import numpy as np

        @jax.tree_util.register_pytree_node_class
        class Box:{comment}
            def __init__(self):
                self.table = np.arange(3)

            def tree_flatten(self):
                return (), self.table
        """))
    probe = textwrap.dedent("""\
        import sys
        from pytree_lint.faces.cli import main
        status = main(["--no-cache", "box.py"])
        print("TOKENIZE", "tokenize" in sys.modules)
        sys.exit(status)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1 and "PTL101" in result.stdout, (result.stdout, result.stderr)
    assert f"TOKENIZE {bool(comment)}" in result.stdout


def test_a_run_that_recalls_every_file_loads_neither_the_rules_nor_the_analysis(tmp_path):
    """A warm run answers from its manifest: importing the rules and the analysis (beyond the source
    reading the engine's own imports need) would be most of its time (once, `--no-cache`'s handling
    imported the summaries' module on every run, and JSON output the rules to name no finding)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "box.py").write_text("import jax\n\n\n@jax.tree_util.register_pytree_node_class\nclass Box:\n"
                                     "    pass\n")
    probe = textwrap.dedent("""\
        import sys
        from pytree_lint.faces.cli import main
        status = main([*sys.argv[1:], "."])
        analysis = ("pytree_lint.rules", *(f"pytree_lint.analysis.{part}" for part in
                                           ("project", "values", "pytrees", "module")))
        print("LOADED", sorted(name for name in sys.modules if name.startswith(analysis)))
        sys.exit(status)
        """)
    os.utime(tmp_path / "box.py", (1e9, 1e9))  # changed long before the run (see ResultCache.recall)
    environment = {**os.environ, "PYTREE_LINT_CACHE_DIR": str(tmp_path / "cache")}
    json = ["--format", "json"]  # results with their fixes: a cache of their own
    cold, warm, _, as_json = (subprocess.run([sys.executable, "-c", probe, *options], capture_output=True,
                                             text=True, cwd=tmp_path, env=environment)
                              for options in ([], [], json, json))
    assert "pytree_lint.rules" in cold.stdout, cold.stderr
    assert "LOADED []" in warm.stdout, warm.stderr
    assert as_json.stdout.startswith("[]") and "LOADED []" in as_json.stdout  # no finding to name


def test_libcst_is_loaded_only_when_a_fix_is_asked_for(tmp_path):
    """The analysis runs on `ast`: flake8 and the CLI's report never load libcst, even on a file whose
    finding has a fix; asking for the fixes (--diff, JSON) loads it."""
    (tmp_path / "box.py").write_text(textwrap.dedent("""\
        import jax

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self, x):
                self.x = x
                self.sizes = [1, 2]

            def tree_flatten(self):
                return (self.x,), self.sizes

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)

            def grow(self, size):
                self.sizes.append(size)
        """))
    probe = textwrap.dedent(f"""\
        import contextlib, io, sys
        from pytree_lint.faces.cli import main
        from pytree_lint.faces.flake8 import Plugin
        path = {str(tmp_path / "box.py")!r}
        lines = open(path).readlines()
        found = list(Plugin(None, lines, path).run())
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--no-cache", path])
        print(len(found), "libcst" in sys.modules)
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--no-cache", "--format", "json", path])
        print("libcst" in sys.modules)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["1", "False", "True"], result.stderr


# The one cycle by design: the engine hands a notebook to notebooks.py, which lints its cells through the engine.
ALLOWED_CYCLES = [{"pytree_lint.engine", "pytree_lint.notebooks"}]


@pytest.mark.parametrize("collecting", [True, False])
def test_the_analysis_is_imported_once_out_of_the_collectors_sight(collecting):
    """The first lint imports the analysis and the rules with the cyclic collector paused, then freezes what
    the process holds (modules live as long as it does): the collector never walks them; the host's setting
    of the collector is left as it was."""
    probe = textwrap.dedent(f"""\
        import gc
        {"" if collecting else "gc.disable()"}
        from pytree_lint.engine import lint_source
        lint_source("import jax\\nx = jax.tree_util.tree_map(abs, [1])\\n")
        import pytree_lint.rules as rules
        walked = any(item is rules.__dict__ for item in gc.get_objects())
        print(gc.get_freeze_count() > 10000, walked, gc.isenabled())
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["True", "False", str(collecting)], result.stderr


def test_the_analysis_facts_are_named_tuples_made_without_forward_references():
    """`record.NamedTuple` makes what typing's does (fields, defaults, methods, docstring, the order of
    defaults checked), its string annotations left as written."""
    from pytree_lint.analysis.record import NamedTuple

    class Hop(NamedTuple):
        """One step of a value's way."""

        relation: Relation  # noqa: F821 - a string under the module's annotations future
        line: int = 0

        def shown(self) -> str:
            return f"{self.relation} at {self.line}"

    hop = Hop("assigned")
    assert (hop, hop._replace(line=3).shown(), Hop._fields) == (("assigned", 0), "assigned at 3", ("relation", "line"))
    assert isinstance(hop, tuple) and Hop.__doc__ == "One step of a value's way." and Hop.__module__ == __name__
    assert Hop.__annotations__ == {"relation": "Relation", "line": "int"}
    with pytest.raises(TypeError):
        class Unordered(NamedTuple):
            line: int = 0
            relation: str


def test_a_record_makes_its_constructor_when_its_first_object_is_made():
    """`@record` compiles a class's `__init__` only when an object of it is first made (a run makes objects
    of about half of the records): the first object and the next are made alike, positionally or by name,
    each with its own default from a factory, a subclass's fields after its base's, and a plain subclass
    made first builds its base's."""
    from pytree_lint.analysis.record import field, record

    @record
    class Fact:
        name: str
        line: int = 0
        seen: list = field(default_factory=list)

    @record
    class Nested(Fact):
        depth: int = 1

    class Plain(Fact):
        pass

    waiting = Fact.__init__
    first, second = Plain("a"), Fact("b", line=2)
    assert Fact.__init__ is not waiting and Fact.__init__.__qualname__ == f"{Fact.__qualname__}.__init__"
    assert [(fact.name, fact.line, fact.seen) for fact in (first, second)] == [("a", 0, []), ("b", 2, [])]
    assert first.seen is not second.seen and type(first) is Plain
    nested = Nested("c", 3, depth=4)
    assert (nested.name, nested.line, nested.seen, nested.depth) == ("c", 3, [], 4)
    assert repr(second) == "Fact(name='b', line=2, seen=[])"
    with pytest.raises(TypeError, match=r"Fact.__init__\(\) missing 1 required positional argument: 'name'"):
        Fact()


def test_the_package_has_no_import_cycle():
    """Every import of the package (function-level ones too, `TYPE_CHECKING` ones aside) forms no cycle:
    the analysis imports neither the rules nor the engine, and the project model does not import back the
    summarizer that needs it."""
    import ast
    from pathlib import Path

    package = Path(__file__).parent.parent / "pytree_lint"
    modules = {".".join(path.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__"): path
               for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}

    def imports(name: str, path: Path) -> None:
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        pending: list[ast.AST] = [ast.parse(path.read_text())]
        while pending:
            node = pending.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    continue
                if isinstance(child, ast.ImportFrom) and child.level:
                    base = ".".join([*here[:len(here) - child.level + 1], *([child.module] if child.module else [])])
                    for alias in child.names:
                        target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                        # importing a module imports its packages first
                        parts = target.split(".")
                        graph[name].update(".".join(parts[:end]) for end in range(2, len(parts) + 1)
                                           if ".".join(parts[:end]) in modules and not name.startswith(
                                               ".".join(parts[:end]) + "."))
                pending.append(child)

    for name, path in modules.items():
        imports(name, path)
    cycles = [component for component in _strongly_connected(graph) if len(component) > 1]
    assert [cycle for cycle in cycles if cycle not in ALLOWED_CYCLES] == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            successor = next(successors, None)
            if successor is not None:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                elif successor in on_stack:
                    low[node] = min(low[node], index[successor])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                found.append(component)
    return found
