"""Whole-project analysis: values followed across modules, through the CLI and through real flake8.

Each folder of tests/projects is a flow from a real bug: `bad/` holds a package whose `# expect:` comments
name the findings that need another module to be seen, `clean/` its twin that must stay silent.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from pytree_lint import engine
from pytree_lint.analysis.project import modules, summarizer
from pytree_lint.analysis.project.modules import Project, file_text, imported_first, module_location, resolved_path
from pytree_lint.analysis.project.summarizer import Summarizer
from pytree_lint.analysis.project.summary import NO_SUMMARY_CACHE, SummaryStore
from pytree_lint.analysis.syntax import model, source
from pytree_lint.analysis.syntax.model import ModuleIndex
from pytree_lint.analysis.syntax.names import MEANT
from pytree_lint.analysis.syntax.source import Source
from pytree_lint.cachedir import read_json
from pytree_lint.digest import content_digest
from pytree_lint.engine import lint_file, load_analysis
from pytree_lint.faces import cli
from pytree_lint.faces.cli import main

from conftest import MISUSE_MODULE, expected_findings

PROJECTS = Path(__file__).parent / "projects"
FLOWS = sorted(folder.name for folder in PROJECTS.iterdir() if folder.is_dir())


def run(*args: str, cwd: Path, cache: Path, module: str = "pytree_lint") -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTREE_LINT_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd,
                          env=environment)


def expectations(root: Path) -> set[tuple[str, int, str]]:
    return {(path.relative_to(root).as_posix(), line, code)
            for path in sorted(root.rglob("*.py")) for line, code in expected_findings(path)}


def copied(flow: str, to: Path, side: str = "bad") -> Path:
    """A copy of a project fixture's side at `to`, a project of its own there (its `pyproject.toml`)."""
    shutil.copytree(PROJECTS / flow / side, to)
    (to / "pyproject.toml").write_text("")
    return to


def cli_findings(root: Path, cache: Path) -> list[dict]:
    result = run("--format", "json", ".", cwd=root, cache=cache)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("flow", FLOWS)
def test_the_cli_follows_each_flow_across_modules_and_flake8_on_one_file_agrees(flow, tmp_path):
    """The CLI finds what the bad project's `# expect:` comments name. A file linted by flake8 (pre-commit,
    the editor), not the whole project, reads the modules it needs itself: flake8 given the files with
    findings (one process, as pre-commit runs it) reports what the CLI does for the whole project."""
    bad = PROJECTS / flow / "bad"
    whole = cli_findings(bad, tmp_path / "cli")
    assert expectations(bad), "a bad project expects findings"
    assert {(f["path"], f["line"], f["code"]) for f in whole} == expectations(bad)
    paths = sorted({f["path"] for f in whole})
    result = run("--isolated", "--jobs", "1", "--select", "PTL", *paths, cwd=bad, cache=tmp_path / "flake8",
                 module="flake8")
    assert result.stderr == ""
    expected = [f"{f['path']}:{f['line']}:{f['column']}: {f['code']} {f['message']}"
                for path in paths for f in whole if f["path"] == path]
    assert result.stdout.splitlines() == expected


@pytest.mark.parametrize("flow", FLOWS)
def test_the_clean_twin_is_silent(flow, tmp_path):
    assert cli_findings(PROJECTS / flow / "clean", tmp_path) == []


@pytest.mark.parametrize("flow", FLOWS)
def test_every_rule_on_every_module_finds_only_what_the_words_searched_for_let_find(flow, monkeypatch, capsys):
    """The words a module's text is searched for (engine.prefilter) only save time: with every rule run on every
    module, the bad project gives its expectations and its clean twin nothing. A module left unread by them hides
    a finding only this run has (equinox's own source, importing its base relatively, did)."""
    monkeypatch.setattr(engine, "prefilter", lambda text, rules, config: list(rules))
    for side, expected in (("bad", expectations(PROJECTS / flow / "bad")), ("clean", set())):
        monkeypatch.chdir(PROJECTS / flow / side)
        main(["--no-cache", "--jobs", "1", "--format", "json", "."])
        assert {(f["path"], f["line"], f["code"]) for f in json.loads(capsys.readouterr().out)} == expected, side


def test_messages_cite_the_other_module_and_line(tmp_path):
    messages = {f["message"].split(";")[0] for flow in ("helper_array", "constructor_calls", "static_arguments")
                for f in cli_findings(PROJECTS / flow / "bad", tmp_path)}
    assert messages >= {
        "array in aux_data of `Masked`: `self.mask` is assigned `make_mask(values.shape[0], k)` at line 12, "
        "which returns `jnp.arange(n) < k` (pkg/masks.py:7)",
        "array in aux_data of `Mesh`: `self.cells` is assigned `cells` at line 10, `cells` is given "
        "`np.array([[0, 1, 2], [0, 2, 3]])` (pkg/build.py:7)",
        "static argument 1 of `step` is a `dict` (`model_kwargs` is assigned `make_config()` at line 20, which "
        "returns `dict(decay=0.9)` (pkg/utils.py:9)), unhashable: the call raises `ValueError: Non-hashable "
        "static arguments are not supported` (pass a tuple or another hashable value)",
        "static argument 1 of `step` is a dict display (`local_config()` returns `{\"decay\": 0.99}` at line 7), "
        "unhashable: the call raises `ValueError: Non-hashable static arguments are not supported` (pass a tuple "
        "or another hashable value)",
        # The jitted call in a helper, whose parameter the helper's one call gives an array (session 46).
        "static argument 1 of `occurrences` is a JAX array (`size` is given by `count()` `size` at line 21, `size` "
        "is assigned `jnp.max(values) + 1` at line 20), an array, unhashable: the call raises `ValueError: "
        "Non-hashable static arguments are not supported` (pass a tuple or another hashable value)",
    }


def test_a_call_passes_the_names_of_the_def_it_is_in_and_a_docstring_calls_nothing(tmp_path):
    """What a call of a helper passes is read where the call is written: a def nested in a factory passes its
    own `update_fn` (a lambda it makes), not the factory's def of that name (jax-md's `cell_list`, its
    construction moved into a helper: the clean twin was reported). A factory's docstring that shows a call of
    it calls nothing: its objects, built by another module's helper, are made per call of it (jax-md's
    `neighbor_list_multi_image`, its construction moved into another module, was silent). Both fail on the
    code before."""
    messages = [f["message"].split(";")[0] for flow in ("nested_callers", "documented_builders")
                for f in cli_findings(PROJECTS / flow / "bad", tmp_path / flow)]
    assert messages == [
        "volatile aux_data of `Cells` (a lambda): `self.update_fn` is assigned `update_fn` at line 13, `update_fn` "
        "is given by `cells_of()` `update_fn` at line 24, `update_fn` is given by `cell_list_fn()` `update_fn` at "
        "line 33, `update_fn` is assigned `lambda positions, cells: cell_list_fn(positions)` at line 32",
        "volatile aux_data of `NeighborFns` (a function defined inside `neighbor_list`): `self.allocate` is "
        "assigned `allocate` at line 14, `allocate` is given `allocate` (pkg/neighbors.py:32)",
        "volatile aux_data of `NeighborFns` (a function defined inside `neighbor_list`): `self.update` is assigned "
        "`update` at line 15, `update` is given `update` (pkg/neighbors.py:35)",
    ]


def test_a_changed_module_relints_the_files_that_read_it(tmp_path):
    """The result cache keeps model.py's findings only while masks.py, which they were read from, is unchanged."""
    project = copied("helper_array", tmp_path / "project")
    cache = tmp_path / "cache"
    assert [f["path"] for f in cli_findings(project, cache)] == ["pkg/model.py"]
    masks = project / "pkg" / "masks.py"
    original = masks.read_text()
    masks.write_text((PROJECTS / "helper_array" / "clean" / "pkg" / "masks.py").read_text())
    assert cli_findings(project, cache) == []
    masks.write_text(original)
    assert [f["path"] for f in cli_findings(project, cache)] == ["pkg/model.py"]


def test_a_copy_of_a_project_is_judged_by_its_own_modules(tmp_path):
    """The same model.py in a copy of the project, whose masks.py differs, is linted anew, not given the
    first project's cached findings (which were read from the first project's masks.py)."""
    first, copy = tmp_path / "first", tmp_path / "copy"
    for project in (first, copy):
        copied("helper_array", project)
    (copy / "pkg" / "masks.py").write_text((PROJECTS / "helper_array" / "clean" / "pkg" / "masks.py").read_text())
    cache = tmp_path / "cache"
    assert [f["path"] for f in cli_findings(first, cache)] == ["pkg/model.py"]
    assert cli_findings(copy, cache) == []


def test_a_module_whose_class_another_module_starts_registering_is_relinted(tmp_path):
    """params.py spells no registering word: it is read, and its cached result kept, only as long as the
    modules that mention its class say nothing new about registering it."""
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "__init__.py").write_text("")
    bad = PROJECTS / "registered_elsewhere" / "bad" / "pkg"
    shutil.copy(bad / "params.py", project / "pkg" / "params.py")
    user = project / "pkg" / "register_params.py"
    user.write_text("from .params import Params\n\nDEFAULT = Params\n")
    cache = tmp_path / "cache"
    assert cli_findings(project, cache) == []
    user.write_text((bad / "register_params.py").read_text())
    assert [(f["path"], f["line"], f["code"]) for f in cli_findings(project, cache)] == [
        ("pkg/params.py", 12, "PTL101")]


def test_a_module_whose_class_a_new_or_edited_module_starts_building_is_relinted(tmp_path):
    """stencils.py's cached result was read from none of these modules: one edited to build its class with an
    array, and one added that derives a class from it and builds that with an array, each make it linted
    again (a file that comes to write a name its lint asked the project about)."""
    project = copied("inherited_statics", tmp_path / "project", "clean")
    user = project / "pkg" / "use.py"
    user.write_text("import numpy as np\n\n\ndef plain(n):\n    return np.ones(n)\n")
    cache = tmp_path / "cache"
    assert cli_findings(project, cache) == []
    user.write_text("import numpy as np\n\nfrom .stencils import Stencil\n\n\n"
                    "def plain(n):\n    return Stencil(weights=np.ones(n))\n")
    assert [(f["path"], f["line"], f["code"]) for f in cli_findings(project, cache)] == [
        ("pkg/stencils.py", 10, "PTL101")]
    user.unlink()
    assert cli_findings(project, cache) == []
    (project / "pkg" / "later.py").write_text("import numpy as np\n\nfrom .stencils import Stencil\n\n\n"
                                              "class LateStencil(Stencil):\n    pass\n\n\n"
                                              "def late(n):\n    return LateStencil(weights=np.ones(n))\n")
    assert [(f["path"], f["line"], f["message"].split(":")[0]) for f in cli_findings(project, cache)] == [
        ("pkg/stencils.py", 10, "array in static field `LateStencil.weights` (`struct.field(...)`)")]


def test_the_project_text_index_is_kept_for_the_next_process(tmp_path):
    """What the texts of the project's files say (who calls, mentions, imports and registers what) is read
    once and kept: the next process only stats the files."""
    project = copied("registered_elsewhere", tmp_path / "project")
    cache = tmp_path / "cache"
    cli_findings(project, cache)
    index = SummaryStore(cache).load_index(project.resolve())
    files = {str(path.resolve()) for path in project.rglob("*.py")}
    assert files <= set(index)
    user = index[str((project / "pkg" / "register_params.py").resolve())]
    assert user.registers and list(user.from_imports) == [".params"] and "Params" in user.from_imports[".params"]
    assert user.mentions == []  # it imports the name by name: its mentions are not searched for
    assert not index[str((project / "pkg" / "params.py").resolve())].registers


def test_the_text_index_reads_imported_names_and_renames_from_import_statements_only():
    """What a file imports is read from its import statements: a name after a comment in a parenthesised
    import is imported, and a class imported by another name is called by that name; `as` in prose, a
    comment or a doctest (`Recast as Error`) renames nothing."""
    text = file_text(b"""from .mesh import (  # the meshes
    Grid,
    Mesh as M,
)
import numpy as np


def build():
    \"\"\"Recast as Error: `>>> from .grid import Grid as G`.\"\"\"
    # Recast as Error
    return M(), Error(), np.ones(3)
""", 0, 0)
    assert text.from_imports == {".mesh": ("Grid", "Mesh")}
    assert text.imports == (".mesh", "numpy")
    assert text.calls == ("Error", "M", "Mesh")


def test_a_class_registered_by_a_module_that_imports_star_from_its_module(tmp_path):
    """A module that imports `*` is the one whose text is searched for the names it mentions (any other
    names a class it uses in its imports): its registration of the class is seen, and a module importing `*`
    without naming the class registers nothing of it."""
    project = copied("registered_elsewhere", tmp_path / "project")
    user = project / "pkg" / "register_params.py"
    user.write_text(user.read_text().replace("from .params import Params", "from .params import *"))
    found = cli_findings(project, tmp_path / "cache")
    assert ("pkg/params.py", 12, "PTL101") in {(f["path"], f["line"], f["code"]) for f in found}
    user.write_text(user.read_text().replace("register_dataclass(Params,", "register_dataclass(Other,"))
    assert ("pkg/params.py", 12, "PTL101") not in {(f["path"], f["line"], f["code"])
                                                  for f in cli_findings(project, tmp_path / "another cache")}


def test_a_class_registered_by_a_module_that_imports_it_through_a_re_export(tmp_path):
    """A module that imports a class from a module re-exporting it (`from .api import Coarse`, `api` doing
    `from .grids import Coarse`) never names the class's module, and may still register it: its registration is
    seen from the class's module, and the array its flatten puts in aux_data reported there."""
    project = copied("registered_elsewhere", tmp_path / "project")
    (project / "pkg" / "api.py").write_text("from .grids import Coarse, Fine\n")
    registry = project / "pkg" / "registry.py"
    registry.write_text(registry.read_text().replace("from .grids import", "from .api import"))
    assert ("pkg/grids.py", 24, "PTL101") in {(f["path"], f["line"], f["code"])
                                             for f in cli_findings(project, tmp_path / "cache")}


def test_a_class_whose_name_many_modules_call_is_looked_for_among_those_that_may_reach_it(tmp_path):
    """Three more modules define and build a class of the same name (`Mesh`), importing nothing: the one
    module that imports `pkg.mesh` and builds its `Mesh` with an array for the cell table is still found
    among those calling the name, and the finding stays."""
    project = copied("constructor_calls", tmp_path / "project")
    for number in range(3):
        (project / "pkg" / f"other{number}.py").write_text("class Mesh:\n    pass\n\n\nDEFAULT = Mesh()\n")
    assert ("pkg/mesh.py", 13, "PTL101") in {(f["path"], f["line"], f["code"])
                                            for f in cli_findings(project, tmp_path / "cache")}


def test_a_mixin_whose_only_registered_heir_a_third_module_registers_is_judged(tmp_path):
    """The mixin's module spells no registering word, nor does the module of its one heir left registered
    (`Plate`, registered by pkg/registry.py): the mixin's classes still call for the registration rules, and the
    unflatten that runs Plate's validating `__init__` is reported, in a run after a file changed too (the
    run before also found Tile's, registered by its own module, until that registration was taken out)."""
    project = copied("mixin_calls", tmp_path / "project")
    found = {(f["path"], f["line"], f["code"]) for f in cli_findings(project, tmp_path / "cache")}
    assert found == {("pkg/mixins.py", 13, "PTL301"), ("pkg/mixins.py", 27, "PTL301")}
    tiles = project / "pkg" / "tiles.py"
    tiles.write_text(tiles.read_text().replace("tree_util.register_pytree_node_class(Tile)", "TILES = [Tile]"))
    for cache in (tmp_path / "cache", tmp_path / "another cache"):
        assert [(f["path"], f["line"], f["code"]) for f in cli_findings(project, cache)] == [
            ("pkg/mixins.py", 27, "PTL301")]


def test_a_pytree_library_s_own_source_importing_its_base_relatively_is_read(tmp_path):
    """Inside a library's own package (equinox's `internal/_noinline.py`: `from .._module import Module, field`)
    no import line spells the library's name, which is what a module's text is searched for: its names that
    knowledge/ knows (the base, the field helper) stand for the registration rules' words all the same."""
    package = tmp_path / "equinox"
    (package / "internal").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("")
    (package / "__init__.py").write_text("")
    (package / "internal" / "__init__.py").write_text("")
    (package / "_module.py").write_text("class Module:\n    pass\n\n\ndef field(**kwargs):\n    return kwargs\n")
    (package / "internal" / "wrap.py").write_text(
        "from .._module import Module, field\n\n\n"
        "class Wrapper(Module):\n    fn: object = field(static=True)\n\n\n"
        "def wrap(x):\n    def shifted(y):\n        return y + x\n\n    return Wrapper(shifted)\n")
    assert [(f["path"], f["line"], f["code"]) for f in cli_findings(tmp_path, tmp_path / "cache")] == [
        ("equinox/internal/wrap.py", 5, "PTL103")]


def test_a_pytree_library_s_base_re_exported_by_a_project_module_is_read(tmp_path):
    """A module importing equinox's `Module` and `field` from a project module that re-exports them spells no
    import of equinox either: the names stand for the registration rules' words all the same."""
    package = tmp_path / "pkg"
    package.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (package / "__init__.py").write_text("")
    (package / "compat.py").write_text("from equinox import Module, field\n")
    (package / "model.py").write_text(
        "from .compat import Module, field\n\n\n"
        "class Wrapper(Module):\n    fn: object = field(static=True)\n\n\n"
        "def wrap(x):\n    def shifted(y):\n        return y + x\n\n    return Wrapper(shifted)\n")
    assert [(f["path"], f["line"], f["code"]) for f in cli_findings(tmp_path, tmp_path / "cache")] == [
        ("pkg/model.py", 5, "PTL103")]


def test_modules_in_folders_without_init_three_levels_below_a_package_are_its_modules(tmp_path):
    """netket's `_src/operator/permutation/`: no `__init__.py` in `permutation/`, `operator/` nor `_src/`, all
    namespace portions of the package `netket`. The mixin flow moved there (absolute imports, as netket writes
    them) is followed as in `pkg/`: its modules are `pkg._src.ops.perm.*`, and the mixin's users are found."""
    project = copied("mixin_methods", tmp_path / "project")
    deep = project / "pkg" / "_src" / "ops" / "perm"
    deep.mkdir(parents=True)
    for path in sorted((project / "pkg").glob("*.py")):
        if path.name != "__init__.py":
            path.rename(deep / path.name)
    for path in deep.glob("*.py"):
        path.write_text(path.read_text().replace("from .", "from pkg._src.ops.perm."))
    assert module_location(resolved_path(str(deep / "mixins.py")))[1:] == ("pkg._src.ops.perm.mixins", False)
    found = cli_findings(project, tmp_path / "cache")
    assert [(f["path"], f["line"], f["code"]) for f in found] == [("pkg/_src/ops/perm/mixins.py", 12, "PTL301")]
    assert "(pkg/_src/ops/perm/boxes.py:10)" in found[0]["message"]


def test_a_class_read_from_another_module_means_its_names_as_there_but_not_its_functions_locals(tmp_path):
    """A class of another module is read with each name it takes from its module marked with what it stands
    for there (`np`: numpy), and never a parameter or local of one of its functions that shadows one: a
    parameter, a name a def stores (read by a def nested in it too), a lambda's parameter."""
    package = tmp_path / "pkg"
    package.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (package / "__init__.py").write_text("")
    (package / "base.py").write_text(
        "import numpy as np\n"
        "from jax import numpy as jnp\n"
        "LIMIT = 3\n"
        "\n"
        "class Base:\n"
        "    size = LIMIT\n"
        "\n"
        "    def __init__(self, np, x):\n"
        "        self.x = np.asarray(x)\n"
        "        jnp = x\n"
        "        def inner():\n"
        "            return jnp\n"
        "        self.f = lambda LIMIT: LIMIT\n"
        "\n"
        "    def scale(self):\n"
        "        return jnp.ones(LIMIT) * np.pi\n")
    load_analysis()
    path = str(package / "base.py")
    summary = Project.for_file(path).summary_of(resolved_path(path))
    cls = modules._read_class(summary, "Base")
    meant = [(name.lineno, name.id, getattr(name, MEANT, None))
             for name in sorted(model.nodes_of(cls.node, ast.Name), key=lambda n: (n.lineno, n.col_offset))]
    assert meant == [
        (6, "size", None), (6, "LIMIT", "pkg.base.LIMIT"),
        (9, "self", None), (9, "np", None), (9, "x", None),
        (10, "jnp", None), (10, "x", None),
        (12, "jnp", None),
        (13, "self", None), (13, "LIMIT", None),
        (16, "jnp", "jax.numpy"), (16, "LIMIT", "pkg.base.LIMIT"), (16, "np", "numpy"),
    ]
    assert {source.home_of(node).module for node in ast.walk(cls.node) if hasattr(node, "lineno")} == {"pkg.base"}


def _parses_of_a_run(project: Path, monkeypatch, capsys) -> dict[str, int]:
    """How many times a whole-project run of the CLI parses each module of `project`'s `pkg` (by file name),
    its findings checked against the project's expectations."""
    monkeypatch.chdir(project)
    parsed: Counter[str] = Counter()
    real_parse = ast.parse

    def counting_parse(source, *args, **kwargs):
        parsed[source] += 1
        return real_parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting_parse)
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    found = {(f["path"], f["line"], f["code"]) for f in json.loads(capsys.readouterr().out)}
    assert found == expectations(project)
    return {path.name: parsed[text] for path in (project / "pkg").glob("*.py") if (text := path.read_text()).strip()}


def test_a_run_leaves_no_tree_kept_for_a_lint(tmp_path, monkeypatch, capsys):
    """A module summarised before its lint keeps its tree for that lint; one summarised after its lint
    (`typing.py`, linted first, asked about later) keeps none, and a lint that parses nothing (its words call
    for no rule) drops the tree kept for it: none is left for the next parse of the same text, in another run
    (a later run over a copy of the project parsed that module no time)."""
    project = copied("static_arguments", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(source, "_kept", {})
    monkeypatch.chdir(project)
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    capsys.readouterr()
    assert source._kept == {}
    text = "import jax\n\nArray = jax.Array\n"
    source.parse(text, keep=True)
    assert lint_file(str(project / "pkg" / "typing.py")) == [] and source._kept == {}


@pytest.mark.parametrize("name", ["static_arguments", "values_across_modules"])
def test_a_run_reads_each_source_from_the_disk_once(name, tmp_path, monkeypatch, capsys):
    """A run settles its sources: the import order, the lint, the summaries and the content hashes read one
    copy of each file (three to five reads before); only the text index reads its own, kept with the file's
    time and size. Once the run is over, a source is read from the disk each time again."""
    from pytree_lint import diskio

    project = copied(name, tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(project)
    reads: Counter[str] = Counter()
    read_regular = diskio.read_regular

    def counting(path):
        reads[os.path.normpath(os.path.join(project, path))] += 1
        return read_regular(path)

    monkeypatch.setattr(diskio, "read_regular", counting)
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    capsys.readouterr()
    sources = [str(path.resolve()) for path in project.rglob("*.py")]
    # At most the settled copy and the text index's own (when a question needs the index).
    assert {path: count for path, count in reads.items() if path in sources and count > 2} == {}
    reads.clear()
    diskio.read_settled(sources[0])
    diskio.read_settled(sources[0])
    assert reads[sources[0]] == 2  # the run over: from the disk each time


def test_a_whole_project_run_parses_an_imported_module_once(tmp_path, monkeypatch, capsys):
    """The CLI lints a module after the modules it imports, and each lint summarises its own module from
    the tree it parsed: the module importing it finds the summary made, and no file is parsed twice."""
    project = copied("helper_array", tmp_path / "project")
    with (project / "pkg" / "masks.py").open("a") as masks:  # a module its own lint parses too
        masks.write("\n\nimport jax\n\n\ndef masked(tree, k):\n"
                    "    return jax.tree_util.tree_map(lambda x: x * make_mask(x.shape[0], k), tree)\n")
    monkeypatch.setattr(Project, "adopted_files", frozenset())  # restored after: the run sets it
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    assert _parses_of_a_run(project, monkeypatch, capsys) == {"masks.py": 1, "model.py": 1}


@pytest.mark.parametrize("name", ["changes_elsewhere", "static_arguments"])
def test_a_module_summarised_before_its_lint_is_parsed_once(name, tmp_path, monkeypatch, capsys):
    """A module the run summarises before its own lint (it uses a class whose module is linted first, which
    asks its users) keeps its tree for that lint: every file of the project is parsed once."""
    project = copied(name, tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    parsed = _parses_of_a_run(project, monkeypatch, capsys)
    assert parsed == dict.fromkeys(parsed, 1)


def _stored_summaries(cache: Path) -> list[dict]:
    """The summaries in a cache folder's store, as their JSON data (each entry's text after its checksum)."""
    with contextlib.closing(sqlite3.connect(cache / "summaries.sqlite3")) as connection:
        return [json.loads(value[8:]) for (value,) in connection.execute("SELECT value FROM summaries")]


def test_a_summary_made_and_grown_by_one_lint_is_written_once_after_it(tmp_path, monkeypatch):
    """The lint of model.py summarises masks.py and then asks what its `make_mask` returns: the summary is
    written once, whole, when the lint is over (twice before: made, then grown)."""
    project = copied("helper_array", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Project, "_instances", {})
    written = []
    put_all = SummaryStore.put_all
    monkeypatch.setattr(SummaryStore, "put_all", lambda store, summaries: (written.extend(
        (summary.module, summary.made_returns is not None) for summary in summaries), put_all(store, summaries))[1])
    assert [f.code for f in lint_file(str(project / "pkg" / "model.py"))] == ["PTL101"]
    assert written.count(("pkg.masks", True)) == 1 and ("pkg.masks", False) not in written


def test_a_worker_of_a_parallel_run_writes_a_new_summary_at_once(tmp_path, monkeypatch):
    """In a worker of a parallel run, the summary of masks.py is written when made (the sibling process may
    need it during model.py's lint: equinox's run summarised 6-11 modules twice, 3-5 after), and again, grown,
    when the lint is over."""
    project = copied("helper_array", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Project, "_instances", {})
    monkeypatch.setattr(Project, "takes", lambda file: False)
    written = []
    put_all = SummaryStore.put_all
    monkeypatch.setattr(SummaryStore, "put_all", lambda store, summaries: (written.extend(
        (summary.module, summary.made_returns is not None) for summary in summaries), put_all(store, summaries))[1])
    assert [f.code for f in lint_file(str(project / "pkg" / "model.py"))] == ["PTL101"]
    assert written.index(("pkg.masks", False)) < written.index(("pkg.masks", True))


def test_returns_and_uses_made_on_demand_are_kept_with_the_summary(tmp_path, monkeypatch, capsys):
    """What a module's functions return and what it does with other modules' classes are made when another
    module first asks, and put in the store with its summary: a later run reads them back, never the module."""
    project = copied("static_arguments", tmp_path / "project")  # asks both, of a few modules
    cache = tmp_path / "cache"
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(cache))
    monkeypatch.chdir(project)
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    first = json.loads(capsys.readouterr().out)
    stored = _stored_summaries(cache)
    assert any(any(part is not None for part in summary["uses"]) for summary in stored)
    assert any(summary["returns"] is not None for summary in stored)
    assert any(summary["uses"] == [None] * 5 and summary["returns"] is None for summary in stored)  # never asked
    shutil.rmtree(cache / "manifests")  # the findings themselves are linted again

    def never(cls, summary):
        raise AssertionError(f"{summary.module} read again")

    monkeypatch.setattr(Summarizer, "returns_of", classmethod(never))
    monkeypatch.setattr(Summarizer, "uses_of", classmethod(never))
    monkeypatch.setattr(Project, "_instances", {})  # a new process: summaries from the store
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    assert json.loads(capsys.readouterr().out) == first


_PRIVATE_HELPER = (
    "import dataclasses\n\n\n"
    "def _static(**kwargs):\n    return dataclasses.field(metadata={'static': True}, **kwargs)\n\n\n"
    "def _unused(x):\n    return dataclasses.field(default=x)\n\n\n"
    "def public(x):\n    return x\n"
)


def test_a_functions_facts_are_made_when_another_module_asks(tmp_path, monkeypatch, capsys):
    """A module's functions (`_static`) are summarised when another module first asks about one, from the
    analysis that made the summary, and kept with it: the next run reads them from the store; the others
    (`_unused`, `public`) are never made."""
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "fields.py").write_text(_PRIVATE_HELPER)
    (project / "pkg" / "model.py").write_text(
        "import dataclasses\n\nimport jax\n\nfrom .fields import _static\n\n\n"
        "@jax.tree_util.register_dataclass\n@dataclasses.dataclass\nclass Embedding:\n"
        "    table: jax.Array\n    mask: jax.Array = _static()\n")
    cache = tmp_path / "cache"
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(cache))
    monkeypatch.chdir(project)
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    first = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["line"], f["code"]) for f in first] == [("pkg/model.py", 12, "PTL101")]
    stored = next(summary for summary in _stored_summaries(cache) if summary["module"] == "pkg.fields")
    assert stored["functions"]["_static"] is not None and stored["functions"]["_unused"] is None
    assert stored["functions"]["public"] is None
    shutil.rmtree(cache / "manifests")

    def never(cls, summary, name):
        raise AssertionError(f"{summary.module} read again for {name}")

    monkeypatch.setattr(Summarizer, "functions_of", classmethod(never))
    monkeypatch.setattr(Project, "_instances", {})  # a new process: summaries from the store
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    assert json.loads(capsys.readouterr().out) == first


def test_functions_facts_read_again_are_made_all_at_once(tmp_path, monkeypatch):
    """A function asked of a summary whose analysis is no longer kept has its module read again, and every
    function's facts are made then: the same facts the analysis kept makes one at a time."""
    load_analysis()  # how a summary makes its functions' facts (a test before may have replaced it)
    monkeypatch.setattr(summarizer, "_RECENT", {})
    monkeypatch.setattr(summarizer, "_recent_characters", 0)
    path = tmp_path / "fields.py"
    path.write_text(_PRIVATE_HELPER)
    data = path.read_bytes()
    kept = Summarizer.run(data, str(path), "fields", False, content_digest(data))
    again = Summarizer.run(data, str(path), "fields", False, content_digest(data))
    assert kept.functions == dict.fromkeys(("_static", "_unused", "public"))
    assert kept.function("_static") is not None and kept.functions["_unused"] is None  # kept: only the one asked
    summarizer._RECENT.clear()
    assert again.function("_static") == kept.function("_static")
    assert None not in again.functions.values() and again.functions["public"] == kept.function("public")
    assert kept.function("missing") is None


def test_recent_analyses_are_kept_by_the_size_of_their_texts_least_recently_used_first_out(tmp_path, monkeypatch):
    """The analyses of the modules summarised last are kept for the returns and uses other modules ask of
    them: a whole project's worth of small modules stays (eight, the limit before, made netket's run parse a
    fifth of its text again), and beyond the character limit the least recently asked is read again."""
    monkeypatch.setattr(summarizer, "_RECENT", {})
    monkeypatch.setattr(summarizer, "_recent_characters", 0)
    summaries = []
    for number in range(20):
        path = tmp_path / f"m{number}.py"
        path.write_text(f"class C{number}:\n    pass\n\n\ndef make():\n    return C{number}()\n")
        data = path.read_bytes()
        summaries.append(Summarizer.run(data, str(path), f"m{number}", False, content_digest(data)))
    kept = [Summarizer.of_summary(summary) for summary in summaries]
    read_again = []
    source_of = summarizer.summarised_source
    monkeypatch.setattr(summarizer, "summarised_source", lambda path, digest: (read_again.append(path),
                                                                               source_of(path, digest))[1])
    assert [Summarizer.of_summary(summary) for summary in summaries] == kept and read_again == []

    monkeypatch.setattr(summarizer, "RECENT_CHARACTERS", 3 * len((tmp_path / "m0.py").read_text()))
    Summarizer.of_summary(summaries[17])  # asked last: the most recently used of the three left
    Summarizer.run(b"x = 1\n", str(tmp_path / "x.py"), "x", False, content_digest(b"x = 1\n"))
    assert [path for path, _ in summarizer._RECENT] == [str(tmp_path / name) for name in ("m19.py", "m17.py", "x.py")]
    assert Summarizer.of_summary(summaries[17]) is kept[17] and read_again == []
    assert Summarizer.of_summary(summaries[18]) is not kept[18] and read_again == [str(tmp_path / "m18.py")]


def test_a_lint_reads_the_index_the_summary_of_its_tree_made(project, monkeypatch, capsys):
    """A module summarised from the tree its own lint parsed (Project.adopt, or a module summarised before
    its lint) is indexed once: the lint's index reads the summary's classes and functions, which stay whole
    until both indexes are closed, whichever closes first; a whole-project run indexes each file once."""
    text = "class Box:\n    def get(self):\n        return 1\n"
    tree = ast.parse(text)
    view = object()  # any project: the lint's index finds the names it imports there
    for lint_first in (True, False):
        summarised = summarizer._analysed(text.encode(), (tree, text))
        linted = ModuleIndex.build(tree, Source(text), project=view)
        box = summarised.index.classes["Box"]
        assert linted.classes["Box"] is box and linted.owner is summarised.index and linted.project is view
        first, then = (linted, summarised) if lint_first else (summarised, linted)
        first.close()
        assert list(box.methods) == ["get"]  # the other still reads it
        then.close()
        assert box.methods == {}
    assert ModuleIndex.build(ast.parse(text), Source(text), project=view).owner is None  # another tree

    monkeypatch.setattr(source, "_kept", {})  # the trees the run keeps for lints to come stay with it
    indexed: list[str] = []  # the texts of the modules indexed whole
    statements = model._Indexer.statements
    monkeypatch.setattr(model._Indexer, "statements", lambda self, body, *rest: (
        indexed.append(self.index.source.text) if body is self.index.tree.body else None,
        statements(self, body, *rest))[1])
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    capsys.readouterr()
    assert len(indexed) == 2 and len(set(indexed)) == 2  # model.py and masks.py (`__init__.py` is empty)


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the helper_array flow's bad project, the current folder, with its own cache: for runs of the
    CLI in this process."""
    root = copied("helper_array", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(root)
    return root


def test_a_run_in_one_process_has_written_its_caches_when_it_returns(project, tmp_path, monkeypatch, capsys):
    """A one-process run writes each cache file as it is made (a thread of its own for the writes cost more
    in the interpreter lock's hand-overs than it saved: a cold netket run 0.84x by the clock without it): the
    next run, its manifest of results gone, summarises no module again."""
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    first = capsys.readouterr().out
    assert (tmp_path / "cache" / "manifests").is_dir()
    shutil.rmtree(tmp_path / "cache" / "manifests")  # the summaries, then
    monkeypatch.setattr(Summarizer, "run", classmethod(lambda *args: pytest.fail("linted again")))
    monkeypatch.setattr(Project, "_instances", {})
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    assert capsys.readouterr().out == first


def test_a_touched_tree_is_answered_by_its_content_without_a_lint(project, tmp_path, monkeypatch, capsys):
    """A checkout or a branch switch gives every file a new modification time and the same content: the
    run reads and hashes them and answers from its manifest; none is linted (a run over a touched tree
    used to load the analysis and start the workers to find that out, file by file)."""
    files = sorted(project.rglob("*.py"))
    for number, stamp in enumerate((1e9, 2e9)):
        for path in files:
            os.utime(path, (stamp, stamp))
        if number:
            monkeypatch.setattr(cli, "lint_bytes", lambda *args: pytest.fail("linted again"))
            monkeypatch.setattr(cli, "load_analysis", lambda: pytest.fail("the analysis loaded"))
        assert main(["--jobs", "1", "--format", "json", "."]) == 1
    first, again = capsys.readouterr().out.split("]\n[")
    assert json.loads(first + "]") == json.loads("[" + again)
    [manifest] = (tmp_path / "cache" / "manifests").glob("*.json")  # the new times recorded: next, a stat
    assert {record[0] for record in read_json(manifest)["files"].values()} == {2 * 10**18}


def _manifest_files(cache: Path) -> dict[str, list]:
    """The records of the cache's only manifest, by the files' names."""
    [manifest] = (cache / "manifests").glob("*.json")
    return {Path(path).name: record for path, record in read_json(manifest)["files"].items()}


def test_a_run_over_some_files_keeps_the_records_of_the_others(tmp_path, monkeypatch, capsys):
    """A pre-commit run over the changed files leaves the others' results recallable by the next whole run;
    a deleted file's record goes."""
    (tmp_path / "pkg").mkdir()
    box, clean = tmp_path / "pkg" / "box.py", tmp_path / "pkg" / "clean.py"
    box.write_text(MISUSE_MODULE)
    clean.write_text("import jax\nx = jax.numpy.ones(3)\n")
    past = time.time() - 60
    for path in (box, clean):
        os.utime(path, (past, past))
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    main(["--jobs", "1", "."])
    box.write_text(MISUSE_MODULE.replace("self.sizes = [1, 2]", "self.sizes = (1, 2)"))
    os.utime(box, (past + 10, past + 10))
    assert main(["--jobs", "1", "pkg/box.py"]) == 1
    assert sorted(_manifest_files(tmp_path / "cache")) == ["box.py", "clean.py"]
    clean.unlink()
    box.write_text(MISUSE_MODULE)
    main(["--jobs", "1", "pkg/box.py"])
    assert list(_manifest_files(tmp_path / "cache")) == ["box.py"]
    capsys.readouterr()


def test_a_result_read_from_an_absent_module_is_recalled(tmp_path, monkeypatch, capsys):
    """`from .masks import make_mask` asks whether `masks/make_mask.py` exists: the finding depends on its
    absence, recorded as such (the record was dropped, and with it the file's cached result)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "masks.py").write_text("import numpy as np\n\n\ndef make_mask():\n"
                                               "    return np.arange(4) > 1\n")
    (tmp_path / "pkg" / "model.py").write_text(MISUSE_MODULE.replace("import numpy as np",
                                                                     "from .masks import make_mask")
                                               .replace("np.arange(3)", "make_mask()"))
    past = time.time() - 60
    for path in tmp_path.rglob("*.py"):
        os.utime(path, (past, past))
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert main(["--jobs", "1", "."]) == 1
    assert "pkg/model.py" in capsys.readouterr().out
    assert None in _manifest_files(tmp_path / "cache")["model.py"][4].values()  # masks/make_mask.py: absent
    monkeypatch.setattr(cli, "lint_bytes", lambda *args: pytest.fail("linted again"))
    assert main(["--jobs", "1", "."]) == 1
    assert "pkg/model.py" in capsys.readouterr().out  # recalled, not linted


def test_no_cache_holds_for_its_run_only(project, tmp_path, monkeypatch, capsys):
    """`--no-cache` turns the summaries' store off for its own run: a later run in the process, and the
    commands it starts, cache them again (the environment was left changed: a test's command then wrote no
    summary, depending on which tests its pytest worker had run before)."""
    assert main(["--jobs", "1", "--no-cache", "--format", "json", "."]) == 1
    assert not (tmp_path / "cache").exists() and NO_SUMMARY_CACHE not in os.environ
    monkeypatch.setattr(Project, "_instances", {})  # the modules summarised again, as in a new process
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    assert _stored_summaries(tmp_path / "cache")
    capsys.readouterr()


def test_a_run_keeps_what_it_linted_out_of_the_collectors_walks_and_gives_it_back(project, monkeypatch, capsys):
    """After each file the run freezes what the process keeps (the collector would walk it again and again: a
    lint leaves no cyclic garbage), and unfreezes it when it ends. (The analysis is loaded first: its import
    freezes what it made once per process, whichever test runs first.)"""
    from pytree_lint.engine import load_analysis

    load_analysis()
    frozen: list[bool] = []
    freeze = gc.freeze
    monkeypatch.setattr(gc, "freeze", lambda: (frozen.append(True), freeze()))
    assert main(["--jobs", "1", "--format", "json", "."]) == 1
    assert len(frozen) == len(list(project.rglob("*.py"))) and gc.get_freeze_count() == 0
    capsys.readouterr()


def test_a_worker_lints_next_a_file_it_parsed_for_a_summary(project, monkeypatch):
    """In a run with worker processes, one that parses a file of the run for a summary another lint asks for
    takes that file: it lints it right after, from that tree, and no process lints it again: each file is
    parsed once. A second path to a file (a link) is a job of its own."""
    from pytree_lint.analysis.project.modules import resolved_path
    from pytree_lint.config import ConfigLoader
    from pytree_lint.engine import load_analysis
    from pytree_lint.faces import cli, forks

    load_analysis()
    (project / "pkg" / "masks_link.py").symlink_to("masks.py")
    loader = ConfigLoader()
    jobs = [(path, loader.for_file(path), False, None)
            for path in ("pkg/model.py", "pkg/masks.py", "pkg/masks_link.py")]
    files = [resolved_path(job[0]) for job in jobs]
    worker = forks._Worker(jobs, files, forks.Claims(len(jobs), 1), [0 for _ in jobs])
    monkeypatch.setattr(Project, "files_to_lint", set(files))
    monkeypatch.setattr(Project, "takes", worker.take)
    monkeypatch.setattr(source, "_kept", {})  # no tree another test's run kept for a lint to come
    parsed: Counter[str] = Counter()
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *a, **k: (parsed.update([source]), real_parse(source, *a, **k))[1])
    results: list = []
    worker.work(cli._lint_kept_unwalked, lambda done: None, results)
    assert [(job, path, [f.code for f in found]) for job, (path, found, _, _) in results] == [
        (0, "pkg/model.py", ["PTL101"]), (1, "pkg/masks.py", []), (2, "pkg/masks_link.py", [])]
    sources = {path.read_text() for path in (project / "pkg").glob("*.py")}  # not another module's returned
    # expression, read from its summary
    assert parsed[(project / "pkg" / "model.py").read_text()] == 1 and len(sources & set(parsed)) == 2
    assert all(parsed[text] == 1 for text in sources & set(parsed))


def test_a_name_a_module_only_imports_stands_for_no_rule_words(tmp_path, monkeypatch):
    """A module whose text spells no rule's words is read when a name it imports from the project stands for
    one (a jitted function with static arguments): when it uses the name, not when it only imports it to offer
    it (a package's `__init__`), which is never resolved; and only for the words of the rules its text did not
    call for (a word no rule wants is not looked for)."""
    from pytree_lint.analysis.module import ModuleAnalysis
    from pytree_lint.analysis.project.modules import project_view
    from pytree_lint.rules import ALL_RULES

    every_word = {word for rule in ALL_RULES for word in (*rule.triggers, *rule.requires)}

    project = copied("static_arguments", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Project, "_instances", {})
    load_analysis()
    offered = "from .decay import learning_rate\n\n__all__ = ['learning_rate']\n"
    used = "from .decay import learning_rate\n\n\ndef rate(step, schedule):\n    return learning_rate(step, schedule)\n"
    words = {}
    for name, text in (("offers", offered), ("uses", used)):
        path = project / "pkg" / f"{name}.py"
        path.write_text(text)
        analysis = ModuleAnalysis(ast.parse(text), Source(text), project=project_view(str(path)))
        words[name] = analysis.project_words(every_word)
    assert words == {"offers": set(), "uses": {"static_argnums", "jit"}}
    assert analysis.project_words({"nnx", "tree_map"}) == set()


def test_a_worker_of_a_parallel_run_makes_the_facts_of_public_functions_imported_by_name_at_once(tmp_path,
                                                                                                 monkeypatch):
    """A worker's sibling reads its summaries from the store: the facts of public functions another module
    of the project imports by name are made with them (made when asked, they would cost the sibling another
    parse of the module); a public function no module imports by name, and a private one, when asked."""
    load_analysis()
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "__init__.py").write_text("")
    path = project / "pkg" / "fields.py"
    path.write_text(_PRIVATE_HELPER + "\n\ndef unimported(x):\n    return x\n")
    (project / "pkg" / "user.py").write_text("from .fields import public\n")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Project, "_instances", {})
    monkeypatch.setattr(Project, "takes", lambda file: False)
    data = path.read_bytes()
    made = Summarizer.run(data, str(resolved_path(str(path))), "pkg.fields", False, content_digest(data))
    assert [name for name, facts in made.functions.items() if facts is not None] == ["public"]


class OtherWorker:
    """Another worker of a run, linting `pkg/masks.py` now: the summary it makes of it (written to the store
    by `finish`), while this process's Project is a worker that writes the summaries it makes and records
    their files' names in `made_here`."""

    def __init__(self, project: Path, monkeypatch) -> None:
        import threading

        from pytree_lint.analysis.project.modules import resolved_path

        load_analysis()
        self.masks, self.model = resolved_path("pkg/masks.py"), resolved_path("pkg/model.py")
        monkeypatch.setattr(Project, "takes", lambda file: False)  # a worker: it writes the summaries it makes
        with monkeypatch.context() as making:  # what the other worker makes, written by `finish`
            making.setenv(NO_SUMMARY_CACHE, "1")
            self.made = Project(project.resolve()).summary_of(self.masks)
        assert self.made is not None
        self.store = SummaryStore()
        monkeypatch.setattr(Project, "adopted_files", frozenset({self.masks, self.model}))
        monkeypatch.setattr(Project, "settled", object())
        self.on_masks = threading.Event()
        self.on_masks.set()
        monkeypatch.setattr(Project, "linted_elsewhere", lambda file: file == self.masks and self.on_masks.is_set())
        self.made_here: list[str] = []
        summarize = Project.summarize
        monkeypatch.setattr(Project, "summarize", lambda data, path, *rest: (self.made_here.append(Path(path).name),
                                                                             summarize(data, path, *rest))[1])

    def finish(self) -> None:
        """Write the summary and move on to another file."""
        self.store.put(self.made)
        self.on_masks.clear()

    def asked_by(self, here: Project, before_finishing) -> object:
        """The summary of `pkg/masks.py` this process's Project reads while the other worker runs
        `before_finishing` and then finishes."""
        import threading

        other = threading.Thread(target=lambda: (before_finishing(), self.finish()))
        other.start()
        summary = here.summary_of(self.masks)
        other.join()
        return summary


@pytest.mark.parametrize("own", ["written", "unwritten", "unmade"],
                         ids=["waits", "own summary not written", "own summary to make first"])
def test_a_worker_reads_the_summary_another_worker_is_making(own, project, monkeypatch):
    """A worker that asks for the summary of a module another worker is linting now (a lint summarises such a
    module first) reads it from the store once written, rather than making it again; but not while the
    summary of the module it lints itself is still to be written (the other could be waiting on that one)."""
    other = OtherWorker(project, monkeypatch)
    here = Project(project.resolve())
    if own != "unmade":  # the module this worker lints: summarised first, and written (or the write failed)
        with monkeypatch.context() as failing:
            if own == "unwritten":
                failing.setattr(SummaryStore, "put", lambda store, summary: False)
            here.summary_of(other.model)
    here.view("pkg/model.py")
    summary = other.asked_by(here, lambda: time.sleep(0.05))  # it writes the summary a moment later
    assert summary is not None and summary.to_json() == other.made.to_json()
    assert other.made_here == {"written": ["model.py"], "unwritten": ["model.py", "masks.py"],
                               "unmade": ["masks.py"]}[own]


def test_a_waiting_worker_summarises_an_untaken_file_meanwhile(project, monkeypatch):
    """While a worker waits for the summary another worker is making, it makes the summary of the first file
    no worker has taken yet and takes that file (its lint comes next, from the tree kept), rather than idling;
    a file it has summarised already is passed over."""
    from pytree_lint.analysis.project.modules import resolved_path

    other = OtherWorker(project, monkeypatch)
    init = resolved_path("pkg/__init__.py")
    taken = []
    monkeypatch.setattr(Project, "takes", lambda file: taken.append(file) or True)
    monkeypatch.setattr(Project, "files_to_lint", {init})
    monkeypatch.setattr(Project, "untaken", lambda: iter([other.model, init]))
    here = Project(project.resolve())
    here.summary_of(other.model)  # the module this worker lints, summarised and written first
    here.view("pkg/model.py")

    def until_one_is_made_meanwhile():  # the other writes its summary once this worker has made (and written) one
        waited_until = time.monotonic() + 5
        while not here.summarised(init) and time.monotonic() < waited_until:
            time.sleep(0.001)

    summary = other.asked_by(here, until_one_is_made_meanwhile)
    assert summary is not None and summary.to_json() == other.made.to_json()
    assert other.made_here == ["model.py", "__init__.py"]
    assert taken == [init] and here.summarised(init)


def test_runs_from_two_folders_in_one_process_lint_their_own_files(tmp_path, monkeypatch, capsys):
    """Two runs in one process (a test suite, an editor's tool calling the CLI), each from its project's
    folder: a relative path names the file of the current folder (both projects have `pkg/schedule.py`)."""
    for name in ("changes_elsewhere", "static_arguments"):
        project = copied(name, tmp_path / name)
        monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / name / "cache"))
        monkeypatch.chdir(project)
        assert main(["--jobs", "1", "--format", "json", "."]) == 1
        found = {(f["path"], f["line"], f["code"]) for f in json.loads(capsys.readouterr().out)}
        assert found == expectations(project)


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cached", "no cache"])
def test_a_later_run_in_one_process_sees_an_imported_module_changed(cache, project, capsys):
    """The result cache keeps a file's findings with the content of the modules they were read from; a
    later run in the same process hashes those modules again (one changed in between). A run checks each
    module once (Project.settled): the next run checks it again."""
    for _ in range(2):  # the second run finds the findings in the cache, the modules they depend on unchanged
        assert main(["--jobs", "1", "--format", "json", *cache, "."]) == 1
        assert [f["code"] for f in json.loads(capsys.readouterr().out)] == ["PTL101"]
    masks = project / "pkg" / "masks.py"
    masks.write_text(masks.read_text().replace("return jnp.arange(n) < k", "return tuple(range(n))"))
    assert main(["--jobs", "1", "--format", "json", *cache, "."]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_imported_modules_come_first_and_cycles_end():
    """The order of a whole-project run: a module after the modules of the run it imports and their
    packages, the given order kept otherwise, an import cycle broken where it is met."""
    package = PROJECTS / "helper_array" / "bad" / "pkg"
    init, masks, model = (str(package / name) for name in ("__init__.py", "masks.py", "model.py"))
    assert imported_first([model, masks, init]) == (
        [init, masks, model], frozenset({Path(init).resolve(), Path(masks).resolve()}),
        {model: [init, masks], init: [], masks: []})
    assert imported_first([masks, init]).paths == [masks, init]  # masks imports only jax
    assert imported_first([masks, init]).imported == frozenset()


def test_a_module_more_modules_depend_on_comes_first(tmp_path):
    """Of the modules whose imports are placed, the one more modules import (through others too) is taken
    first, so that a worker process lints it before the modules waiting for its summary: the given order
    decides between equals."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "alone.py").write_text("x = 1\n")
    (package / "hub.py").write_text("def f():\n    return 1\n")
    (package / "user.py").write_text("from .hub import f\n")
    (package / "other.py").write_text("from .user import f\n")
    alone, hub, user, other = (str(package / f"{name}.py") for name in ("alone", "hub", "user", "other"))
    assert imported_first([alone, hub, user, other]).paths == [hub, user, alone, other]
    assert imported_first([alone, user]).paths == [alone, user]  # hub is not in this run


def test_an_import_cycle_is_ordered_once(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import g\n")
    (package / "b.py").write_text("from .a import f\n")
    a, b, init = str(package / "a.py"), str(package / "b.py"), str(package / "__init__.py")
    assert imported_first([a, b, init]).paths == [init, b, a]


def test_a_second_checkout_sharing_the_cache_reads_its_own_files(tmp_path):
    """Summaries are kept by content: one made for a first copy of the project (since deleted) serves the
    second, whose classes are then read from the second's own files."""
    cache = tmp_path / "cache"
    for copy in ("first", "second"):
        project = copied("registered_elsewhere", tmp_path / copy)
        assert {(f["path"], f["line"], f["code"]) for f in cli_findings(project, cache)} == expectations(project)
        if copy == "first":
            shutil.rmtree(project)


def test_a_file_alone_and_in_its_project_has_the_same_findings():
    model = PROJECTS / "project_helpers" / "bad" / "pkg" / "model.py"
    alone = [(f.line, f.column, f.code, f.message) for f in lint_file(str(model))]
    assert alone and alone[0][2] == "PTL101"
    assert "`padding_mask` is annotated `Array`" in alone[0][3]


# Bad input -------------------------------------------------------------------------------------------------------
REGISTERED = """\
import jax

from .{module} import {name}


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x):
        self.x = x
        self.table = {name}(3)

    def tree_flatten(self):
        return (self.x,), (self.table,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_import_cycles_missing_modules_and_broken_modules_leave_the_rest_working(tmp_path):
    write(tmp_path, {
        "pyproject.toml": "",
        "pkg/__init__.py": "from .a import make\n",
        # a and b re-export each other's name: a cycle with no definition at its end
        "pkg/a.py": "from .b import make\n",
        "pkg/b.py": "from .a import make\n",
        "pkg/broken.py": "def make(n):\n    return (\n",
        "pkg/uses_cycle.py": REGISTERED.format(module="a", name="make"),
        "pkg/uses_missing.py": REGISTERED.format(module="nowhere", name="make"),
        "pkg/uses_broken.py": REGISTERED.format(module="broken", name="make"),
        "pkg/helpers.py": "import numpy as np\n\n\ndef make(n):\n    return np.zeros(n)\n",
        "pkg/uses_helpers.py": REGISTERED.format(module="helpers", name="make"),
    })
    result = run("--format", "json", ".", cwd=tmp_path, cache=tmp_path / "cache")
    assert "Traceback" not in result.stderr
    assert [(f["path"], f["code"]) for f in json.loads(result.stdout)] == [("pkg/uses_helpers.py", "PTL101")]


def test_a_long_chain_of_re_exports_and_a_large_project_stay_bounded(tmp_path):
    """40 re-exports (beyond the hop limit: unknown, silent) and 10,000 modules searched for constructor
    calls: both end, with no traceback."""
    files = {"pyproject.toml": "", "pkg/__init__.py": ""}
    files.update({f"pkg/r{i}.py": f"from .r{i + 1} import make\n" for i in range(40)})
    files["pkg/r40.py"] = "import numpy as np\n\n\ndef make(n):\n    return np.zeros(n)\n"
    files["pkg/uses_chain.py"] = REGISTERED.format(module="r0", name="make")
    files["pkg/uses_near.py"] = REGISTERED.format(module="r35", name="make")
    files["pkg/mesh.py"] = (PROJECTS / "constructor_calls" / "bad" / "pkg" / "mesh.py").read_text()
    files["pkg/build.py"] = (PROJECTS / "constructor_calls" / "bad" / "pkg" / "build.py").read_text()
    files.update({f"pkg/many/m{i}.py": "Mesh = 1\n" for i in range(10_000)})
    files["pkg/many/__init__.py"] = ""
    write(tmp_path, files)
    result = run("--format", "json", "pkg/uses_chain.py", "pkg/uses_near.py", "pkg/mesh.py", cwd=tmp_path,
                 cache=tmp_path / "c")
    assert "Traceback" not in result.stderr
    assert [(f["path"], f["code"]) for f in json.loads(result.stdout)] == [
        ("pkg/mesh.py", "PTL101"), ("pkg/uses_near.py", "PTL101")]


def test_a_long_running_process_sees_another_module_change(tmp_path):
    """The language server lints in one process: an edited module is read again, not served from memory."""
    project = copied("helper_array", tmp_path / "project")
    model, masks = project / "pkg" / "model.py", project / "pkg" / "masks.py"
    assert [f.code for f in lint_file(str(model))] == ["PTL101"]
    masks.write_text((PROJECTS / "helper_array" / "clean" / "pkg" / "masks.py").read_text() + "\n")
    assert lint_file(str(model)) == []


def test_a_name_followed_for_one_file_is_followed_anew_when_a_module_on_its_way_changes(tmp_path):
    """What an imported name stands for is answered once per project (every file importing it asks the
    same): an edit to the module re-exporting it on the way is seen by the next lint, in the same process."""
    project = copied("helper_array", tmp_path / "project")
    package = project / "pkg"
    shutil.copy(PROJECTS / "helper_array" / "clean" / "pkg" / "masks.py", package / "tuple_masks.py")
    (package / "api.py").write_text("from .masks import make_mask\n")
    model = package / "model.py"
    model.write_text(model.read_text().replace("from .masks import", "from .api import"))
    twin = package / "twin.py"
    twin.write_text(model.read_text())
    assert [f.code for f in lint_file(str(model))] == ["PTL101"]
    (package / "api.py").write_text("from .tuple_masks import make_mask  # now a tuple\n")
    assert lint_file(str(twin)) == []
    assert lint_file(str(model)) == []


def test_a_module_imported_whole_is_not_summarised_but_its_lint_depends_on_it(tmp_path, monkeypatch):
    """`from . import notes` names a module, not a definition in it: following the name reads only that the
    module is there (its content hash, a dependency of the lint), not a summary of it; a second module asking
    the same has the kept answer checked, again without summarising it."""
    from pytree_lint.digest import content_digest

    project = copied("helper_array", tmp_path / "project")
    monkeypatch.setenv("PYTREE_LINT_CACHE_DIR", str(tmp_path / "cache"))
    package = project / "pkg"
    notes = package / "notes.py"
    notes.write_text("def remark():\n    return 'noted'\n")
    model = package / "model.py"
    model.write_text("from . import notes\n" + model.read_text())
    twin = package / "twin.py"
    twin.write_text(model.read_text())
    for linted in (model, twin):
        assert [f.code for f in lint_file(str(linted))] == ["PTL101"]
        state = Project.for_file(str(linted))
        assert state is not None and not state.summarised(notes.resolve())
        assert state.consulted[notes.resolve()] == content_digest(notes.read_bytes())


def test_changes_through_a_holder_are_answered_alike_each_time(tmp_path):
    """Another module's changes through the items of a holder's collection (`for stack in tower.stacks`)
    are added to a kept answer: asked again (every rule and check asks), the answer is the same."""
    from pytree_lint.analysis.project.modules import Project
    from pytree_lint.engine import load_analysis

    project = copied("changes_elsewhere", tmp_path / "project")
    model = project / "pkg" / "model.py"
    model.write_text(model.read_text() + "\n\nclass Tower:\n    stacks: list[Stack]\n")
    write(project, {"pkg/deepen.py": "from .model import Tower\n\n\ndef deepen(tower: Tower):\n"
                                     "    for stack in tower.stacks:\n        stack.sizes.append(1)\n"})
    load_analysis()
    view = Project.for_file(str(model)).view(model.resolve())
    answers = [view.changes_elsewhere("Stack", (("Tower", "stacks"),)) for _ in range(3)]
    assert [change.text for change, _summary in answers[0]].count("stack.sizes.append(1)") == 1
    assert answers[1] == answers[2] == answers[0]


def test_star_imports_of_missing_modules_end(tmp_path):
    """`from ._a import *` of modules that do not exist (compiled, or gone) is not followed: once made the
    names grow with every star import and the run did not end."""
    stars = "".join(f"from ._{name} import *\n" for name in "abcdef")
    write(tmp_path, {"pyproject.toml": "", "lib/__init__.py": stars, "app/__init__.py": "",
                     "app/m.py": REGISTERED.format(module="nowhere", name="make").replace(
                         "from .nowhere import make", "from lib import make")})
    result = run("--format", "json", ".", cwd=tmp_path, cache=tmp_path / "cache")
    assert result.returncode == 0 and json.loads(result.stdout) == []


def test_a_library_linted_as_the_project_keeps_its_knowledge(tmp_path):
    """Linting flax's own source, `@struct.dataclass` is still flax.struct's decorator (its pytree_node=False
    fields static), not the function flax.struct defines, and installed neighbours are not the project."""
    write(tmp_path, {
        "pyproject.toml": "",
        "flax/__init__.py": "",
        "flax/struct.py": "import jax\n\n\ndef dataclass(cls):\n    return jax.tree_util.register_dataclass(cls)\n\n\n"
                          "def field(pytree_node=True, **kwargs):\n    return None\n",
        "flax/use.py": "import jax\nfrom flax import struct\n\n\n@struct.dataclass\nclass P:\n"
                       "    collection: str = struct.field(pytree_node=False)\n    name: str = struct.field()\n\n\n"
                       "def run(p: P):\n    return jax.vmap(lambda q: q)(p)\n",
    })
    findings = [(f["path"], f["line"], f["code"]) for f in cli_findings(tmp_path, tmp_path / "cache")]
    assert findings == [("flax/use.py", 8, "PTL401")]
