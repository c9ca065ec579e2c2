"""Real flake8, in a subprocess, reports what the engine reports: same lines, same columns."""

from __future__ import annotations

import re
import subprocess
import sys

from pytree_lint import lint_source
from pytree_lint.config import Config

from conftest import FIXTURES, MISUSE_MODULE, fixture_files

FLAKE8_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<code>PTL\d{3}) (?P<message>.*)$")


def run_flake8(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_flake8_matches_engine_on_every_fixture():
    result = run_flake8("--select", "PTL", str(FIXTURES))
    assert result.stderr == ""
    reported = set()
    for line in result.stdout.splitlines():
        match = FLAKE8_LINE.match(line)
        assert match, line
        reported.add((match["path"], int(match["line"]), int(match["column"]), match["code"], match["message"]))
    # An explicit `--select PTL` takes in the opt-in tier, in flake8 and in the CLI alike.
    expected = {(str(path), f.line, f.column + 1, f.code, f.message)
                for path in fixture_files() for f in lint_source(path.read_text(), str(path), Config(select=("PTL",)))}
    assert expected, "the fixtures must produce findings"
    assert reported == expected


def test_flake8_noqa_silences_only_the_named_code(tmp_path):
    source = MISUSE_MODULE.replace("(self.table, self.sizes)", "(self.table, self.sizes)  # noqa: PTL101")
    (tmp_path / "mod.py").write_text(source)
    result = run_flake8("--select", "PTL", "mod.py", cwd=tmp_path)
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [["mod.py:13:40:", "PTL102"]]
    (tmp_path / "mod.py").write_text(source.replace("# noqa: PTL101", "# noqa: PTL101,PTL102"))
    assert run_flake8("--select", "PTL", "mod.py", cwd=tmp_path).stdout == ""


def test_flake8_is_silent_on_a_file_it_cannot_parse(tmp_path):
    (tmp_path / "broken.py").write_text("import jax\njax.tree_util.register_pytree_node(\n")
    result = run_flake8("broken.py", cwd=tmp_path)
    assert "E999" in result.stdout
    assert "PTL" not in result.stdout
    assert "Traceback" not in result.stderr


def test_the_opt_in_tier_is_off_unless_selected():
    unmutated = str(FIXTURES / "PTL901" / "bad_list_attribute.py")
    by_default = run_flake8(unmutated).stdout
    assert ": PTL" not in by_default
    selected = run_flake8("--extend-select", "PTL9", unmutated).stdout
    assert re.search(r":14:33: PTL901 `list` in aux_data of `MLP`", selected), selected


def test_flake8_reads_the_projects_pytree_lint_settings(tmp_path):
    (tmp_path / "box.py").write_text(MISUSE_MODULE)
    (tmp_path / "pyproject.toml").write_text('[tool.pytree-lint]\nper-file-ignores = ["box.py:PTL102"]\n')
    result = run_flake8("--select", "PTL", "box.py", cwd=tmp_path)
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["PTL101"], result.stdout + result.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.pytree-lint]\nignore = ["PTL101"]\n')
    result = run_flake8("--select", "PTL", "box.py", cwd=tmp_path)
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["PTL102"], result.stdout + result.stderr
