"""Notebooks through the CLI: code cells linted as one module in cell order, magics and shell lines
skipped, findings placed in their cells in every format, --fix editing cells and keeping outputs."""

from __future__ import annotations

import json
import subprocess
import sys

import nbformat
import pytest

from conftest import MISUSE_MODULE

SHAPES = "params = {'w': jax.numpy.ones((2, 3))}\nshapes = jax.tree.map(lambda p: p.shape, params)\n" \
         "zeros = jax.tree.map(jax.numpy.zeros, shapes)"


def pytree_lint(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytree_lint", "--no-cache", *args], capture_output=True,
                          text=True, cwd=cwd)


@pytest.fixture
def notebook(tmp_path):
    """Imports after a magic, the misuse module's class after a shell line, a %%bash cell, a markdown cell
    and a cell with a tree of shapes mapped at the top level, as notebooks do."""
    imports, body = MISUSE_MODULE.split("\n\n\n", 1)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A model"),
                nbformat.v4.new_code_cell("%matplotlib inline\n" + imports),
                nbformat.v4.new_code_cell("!pip install jax\n" + body.replace("self.sizes.append(size)", "pass")),
                nbformat.v4.new_code_cell("%%bash\necho this is no python"),
                nbformat.v4.new_code_cell(SHAPES)]
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="an output to keep\n")]
    path = tmp_path / "model.ipynb"
    nbformat.write(nb, path)
    return path


def test_findings_in_their_cells(notebook):
    result = pytree_lint("--extend-select", "PTL9", ".", cwd=notebook.parent)  # found in a folder
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["model.ipynb:cell", "3:10:28:"], ["model.ipynb:cell", "3:10:40:"], ["model.ipynb:cell", "5:3:9:"]]
    assert "`self.table` is assigned `np.arange(3)` at line 6\n" in result.stdout  # cited in its cell
    assert "(`jax.tree.map(lambda p: p.shape, params)` at line 2 returns" in result.stdout


def test_every_format_names_the_cell(notebook):
    rows = json.loads(pytree_lint("--format", "json", "model.ipynb", cwd=notebook.parent).stdout)
    found = [(r["code"], r["cell"], r["line"], r["column"]) for r in rows]
    assert found == [("PTL101", 3, 10, 28), ("PTL201", 5, 3, 9)]
    sarif = json.loads(pytree_lint("--format", "sarif", "model.ipynb", cwd=notebook.parent).stdout)
    result = sarif["runs"][0]["results"][0]
    assert result["properties"] == {"cell": 3} and result["message"]["text"].startswith("cell 3, line 10: array")
    github = pytree_lint("--format", "github", "model.ipynb", cwd=notebook.parent).stdout
    assert "::cell 3, line 10: array in aux_data" in github


def test_fix_edits_cells_and_keeps_outputs_and_metadata(notebook):
    result = pytree_lint("--extend-select", "PTL9", "--fix", "model.ipynb", cwd=notebook.parent)
    assert "fixed 1 finding(s) in 1 file(s)" in result.stderr
    fixed = nbformat.read(notebook, as_version=4)
    assert "self.sizes = (1, 2)" in fixed.cells[2].source
    assert fixed.cells[2].source.startswith("!pip install jax\n")
    assert fixed.cells[1].source.startswith("%matplotlib inline\n")
    assert fixed.cells[3].source == "%%bash\necho this is no python"
    assert fixed.cells[2].outputs[0]["text"] == "an output to keep\n"
    assert fixed.metadata["kernelspec"]["name"] == "python3"
    assert [line.split(" ")[2] for line in result.stdout.splitlines()] == ["PTL101", "PTL201"]


def test_a_current_notebook_is_read_without_nbformat_and_an_older_one_through_it(notebook):
    """nbformat's import and first validation cost as much as linting a small project: the current format is
    read as JSON; a version-3 notebook (worksheets, `input` for source) is converted by nbformat."""
    cells = [(c.cell_type, c.source) for c in nbformat.read(notebook, as_version=4).cells]
    read = subprocess.run([sys.executable, "-c", "import sys\nfrom pytree_lint.notebooks import read_notebook\n"
                           "print(read_notebook(open(sys.argv[1], 'rb').read(), sys.argv[1]).sources)\n"
                           "print('nbformat' in sys.modules)", str(notebook)], capture_output=True, text=True)
    assert read.stdout == f"{tuple(source for _, source in cells)}\nFalse\n", read.stderr
    old = nbformat.v3.new_notebook(worksheets=[nbformat.v3.new_worksheet(cells=[
        nbformat.v3.new_text_cell("markdown", source="# A model"),
        nbformat.v3.new_code_cell(input="import jax\n" + SHAPES)])])
    (notebook.parent / "old.ipynb").write_text(nbformat.writes(old, version=3))
    result = pytree_lint("old.ipynb", cwd=notebook.parent)
    assert result.returncode == 1 and result.stderr == ""
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [["old.ipynb:cell", "2:4:9:", "PTL201"]]


def test_a_malformed_notebook_is_named_and_the_rest_is_linted(notebook):
    (notebook.parent / "broken.ipynb").write_text("{ this is not json")
    result = pytree_lint(".", cwd=notebook.parent)
    assert result.returncode == 2
    assert result.stderr.startswith("broken.ipynb: error: not a valid notebook")
    assert "Traceback" not in result.stderr
    assert "model.ipynb:cell 3:10:28: PTL101" in result.stdout


def test_only_ipython_lines_are_skipped(tmp_path):
    """A help line is skipped; a docstring line ending in `?` and a `% b` continuation are Python."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import jax\njax.tree.map?"),
                nbformat.v4.new_code_cell('def area(w, h):\n    """Width times height?\n    Or\n    more?"""\n'
                                          "    return (w * h\n% 7)\n"),
                nbformat.v4.new_code_cell(SHAPES)]
    nbformat.write(nb, tmp_path / "shapes.ipynb")
    result = pytree_lint("shapes.ipynb", cwd=tmp_path)
    assert result.stderr == "" and result.returncode == 1
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [["shapes.ipynb:cell", "3:3:9:", "PTL201"]]


def test_an_indented_magic_alone_in_its_block_keeps_the_cell_python(tmp_path):
    """`if ...:` followed only by `!git clone ...` (flax's example notebooks) is no syntax error."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import os\nimport jax\nif not os.path.exists('data'):\n"
                                          "    !git clone repo data\n"),
                nbformat.v4.new_code_cell(SHAPES)]
    nbformat.write(nb, tmp_path / "setup.ipynb")
    result = pytree_lint("setup.ipynb", cwd=tmp_path)
    assert result.stderr == "" and result.returncode == 1
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [["setup.ipynb:cell", "2:3:9:", "PTL201"]]


def test_a_malformed_cell_is_named(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    data = json.loads(nbformat.writes(nb))
    data["cells"][0]["source"] = 5
    (tmp_path / "odd.ipynb").write_text(json.dumps(data))
    result = pytree_lint("odd.ipynb", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("odd.ipynb: error: not a valid notebook: a code cell's source is not text")


def test_diff_shows_the_notebook_change_and_writes_nothing(notebook):
    before = notebook.read_text()
    result = pytree_lint("--extend-select", "PTL9", "--diff", "model.ipynb", cwd=notebook.parent)
    assert notebook.read_text() == before
    assert "-    \"        self.sizes = [1, 2]\\n\",\n" in result.stdout, result.stdout
    assert "+    \"        self.sizes = (1, 2)\\n\",\n" in result.stdout


def test_a_form_feed_or_line_separator_inside_a_string_keeps_the_cell_python(tmp_path):
    """`str.splitlines` splits at U+2028 and form feeds too: inside a string literal that cut valid code."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import jax\nlabel = 'a\u2028b'\npage = 'c\x0cd'\n"),
                nbformat.v4.new_code_cell(SHAPES)]
    nbformat.write(nb, tmp_path / "strings.ipynb")
    result = pytree_lint("strings.ipynb", cwd=tmp_path)
    assert result.stderr == "" and result.returncode == 1
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [["strings.ipynb:cell", "2:3:9:",
                                                                              "PTL201"]]


def raw_notebook(cells: list[str], indent: int = 1, as_list: bool = True, newline: str = "\n") -> str:
    """A notebook's JSON as other tools write it: no cell ids (Colab), any indentation, sources as one
    string or a list of lines, any line end."""
    def source(text: str):
        return text.splitlines(keepends=True) if as_list else text
    data = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": source(text)} for text in cells],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 2}
    return json.dumps(data, indent=indent).replace("\n", newline) + newline


def test_ipython_assignments_and_python_cell_magics_are_read_as_ipython_runs_them(tmp_path):
    cells = ["import jax\nfiles = !ls\nt = %timeit -o jax.numpy.ones(3)\nprint(files, t.best)\n",
             "%%time\n" + SHAPES + "\n",
             "%%capture captured\nparams = {'w': jax.numpy.ones((2, 3))}\n",
             "%%bash\nparams = this is no python\n"]
    (tmp_path / "colab.ipynb").write_text(raw_notebook(cells))
    result = pytree_lint("colab.ipynb", cwd=tmp_path)
    assert result.stderr == ""  # no syntax error, and no warning about the missing cell ids
    assert [line.split(" ")[:3] for line in result.stdout.splitlines()] == [["colab.ipynb:cell", "2:4:9:", "PTL201"]]


@pytest.mark.parametrize("layout", [dict(indent=2, as_list=False, newline="\r\n"), dict(indent=4, as_list=True)])
def test_fix_changes_only_the_mended_source_strings(tmp_path, layout):
    imports, body = MISUSE_MODULE.split("\n\n\n", 1)
    cells = [imports + "\n", "x = !ls\n" + body.replace("self.sizes.append(size)", "pass"), "print('é')\n"]
    original = raw_notebook(cells, **layout)
    notebook = tmp_path / "model.ipynb"
    notebook.write_bytes(original.encode())
    result = pytree_lint("--extend-select", "PTL9", "--fix", "model.ipynb", cwd=tmp_path)
    assert "fixed 1 finding(s) in 1 file(s)" in result.stderr
    fixed = notebook.read_bytes().decode()
    assert fixed == original.replace("self.sizes = [1, 2]", "self.sizes = (1, 2)")


@pytest.mark.parametrize("line", ["files = !ls -la", "t = %timeit -o jax.numpy.ones(3)", "a, b = !echo 1 2",
                                  "self.out = %time f(x)", "x = %env", "  out = !pip list"])
def test_an_assignment_from_ipython_reads_as_ipython_itself_rewrites_it(line):
    """The equivalent of IPython's input transformers for assignments (IPython is not a dependency):
    the same text, where IPython is installed to compare."""
    from pytree_lint.notebooks import _as_ipython_runs_it

    inputtransformer2 = pytest.importorskip("IPython.core.inputtransformer2")
    indent = line[:len(line) - len(line.lstrip())]
    ipython = inputtransformer2.TransformerManager().transform_cell(line.lstrip()).rstrip("\n")
    assert _as_ipython_runs_it(line) == indent + ipython
