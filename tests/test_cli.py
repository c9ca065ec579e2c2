"""The `pytree-lint` command as CI and pre-commit run it: output, formats, selection, noqa, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytree_lint.cachedir import read_json, write_json
from pytree_lint.rules import RULES_BY_CODE

from conftest import FIXTURES, MISUSE_MODULE

pytestmark = pytest.mark.face

BAD = MISUSE_MODULE


def pytree_lint(*args: str, cwd, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytree_lint", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **env} if env else None)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "box.py").write_text(BAD)
    (tmp_path / "pkg" / "clean.py").write_text("import jax\nx = jax.numpy.ones(3)\n")
    return tmp_path


@pytest.mark.every_python
def test_text_output_and_exit_status_1(project):
    result = pytree_lint(cwd=project)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(" ")[0:2] for line in lines] == [
        ["pkg/box.py:13:28:", "PTL101"], ["pkg/box.py:13:40:", "PTL102"]]
    assert "`self.table` is assigned `np.arange(3)` at line 9" in lines[0]


def test_the_command_ends_with_mains_status_once_its_output_is_flushed(monkeypatch, capsys):
    """`pytree-lint` ends its process at once after `main` (no teardown of what the run built), with main's
    exit status and what it printed written out."""
    from pytree_lint.faces import cli

    class Ended(Exception):
        pass

    def end(code):
        raise Ended(code)

    def printing_main():
        print("pkg/box.py:13:28: PTL101 ...", end="")
        return 1

    monkeypatch.setattr(cli, "main", printing_main)
    monkeypatch.setattr(cli.os, "_exit", end)
    with pytest.raises(Ended) as ended:
        cli.console()
    assert ended.value.args == (1,)
    assert capsys.readouterr().out == "pkg/box.py:13:28: PTL101 ..."


def test_clean_project_exits_0(tmp_path):
    (tmp_path / "ok.py").write_text("import jax\n")
    result = pytree_lint(".", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.every_python
def test_json_format(project):
    result = pytree_lint("--format", "json", "pkg", cwd=project)
    rows = json.loads(result.stdout)
    assert [(r["path"], r["line"], r["column"], r["code"]) for r in rows] == [
        ("pkg/box.py", 13, 28, "PTL101"), ("pkg/box.py", 13, 40, "PTL102")]
    assert all(r["message"] for r in rows)


def test_github_format(project):
    result = pytree_lint("--format", "github", cwd=project)
    first = result.stdout.splitlines()[0]
    assert first.startswith("::warning file=pkg/box.py,line=13,col=28,title=pytree-lint (PTL101)::array in")


def test_sarif_format(project):
    log = json.loads(pytree_lint("--format", "sarif", cwd=project).stdout)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"PTL101", "PTL102", "PTL105"}
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (run["results"][0]["ruleId"], region["startLine"], region["startColumn"]) == ("PTL101", 13, 28)
    assert (region["endLine"], region["endColumn"]) == (13, 38)  # the end of `self.table`
    assert all(r["shortDescription"]["text"] and r["fullDescription"]["text"] and r["helpUri"]
               for r in run["tool"]["driver"]["rules"])


@pytest.mark.parametrize("options, codes", [
    (["--select", "PTL102"], ["PTL102"]),
    (["--ignore", "PTL101"], ["PTL102"]),
    (["--select", "PTL101", "--extend-select", "PTL102"], ["PTL101", "PTL102"]),
    (["--ignore", "PTL1"], []),
])
def test_selection(project, options, codes):
    result = pytree_lint(*options, cwd=project)
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == codes


@pytest.mark.every_python
@pytest.mark.parametrize("code", ["PTL699", "PTL999", "PTL7", "XYZ1"])
def test_unknown_code_is_a_usage_error(project, code):
    """A code no rule has is an error, also one of the contract's families (PTL999 selects nothing)."""
    result = pytree_lint("--select", code, cwd=project)
    assert result.returncode == 2
    assert f"unknown rule code '{code}'" in result.stderr


def test_noqa(project):
    source = BAD.replace("(self.table, self.sizes)", "(self.table, self.sizes)  # noqa: PTL102")
    (project / "pkg" / "box.py").write_text(source)
    assert [line.split(" ")[1] for line in pytree_lint(cwd=project).stdout.splitlines()] == ["PTL101"]
    (project / "pkg" / "box.py").write_text(source.replace("# noqa: PTL102", "# noqa"))
    assert pytree_lint(cwd=project).returncode == 0


def test_exclude_and_skipped_directories(project):
    for skipped in (".venv", "build", "node_modules"):
        (project / skipped).mkdir()
        (project / skipped / "box.py").write_text(BAD)
    assert {line.split(":")[0] for line in pytree_lint(cwd=project).stdout.splitlines()} == {"pkg/box.py"}
    assert pytree_lint("--exclude", "box.py", cwd=project).returncode == 0


def test_unparsable_file_is_named_and_others_still_linted(project):
    # Only files that mention a registration are parsed: this one is, and fails.
    (project / "pkg" / "broken.py").write_text("import jax\njax.tree_util.register_static(\ndef f(:\n")
    (project / "pkg" / "latin.py").write_bytes(b"# -*- coding: ascii -*-\nx = '\xe9'\n")
    result = pytree_lint(cwd=project)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "pkg/broken.py: error: syntax error at line 3" in result.stderr
    assert "pkg/latin.py: error: cannot decode the file" in result.stderr
    assert len(result.stdout.splitlines()) == 2  # the findings in box.py are still reported


def test_missing_path_is_an_error(project):
    result = pytree_lint("nowhere.py", "pkg", cwd=project)
    assert result.returncode == 2
    assert "nowhere.py: error: no such file or directory" in result.stderr
    assert len(result.stdout.splitlines()) == 2


@pytest.mark.every_python
def test_output_is_sorted_and_identical_in_parallel(tmp_path):
    """Every file is reported, in path order, alike with one job and with a pool; a second path to a file (a
    link) is a file of its own."""
    for number in range(40):
        (tmp_path / f"m{number:02}.py").write_text(BAD)
    (tmp_path / "link.py").symlink_to("m00.py")
    serial = pytree_lint("--jobs", "1", cwd=tmp_path)
    parallel = pytree_lint("--jobs", "2", cwd=tmp_path)
    assert (serial.stderr, parallel.stderr) == ("", "")
    assert serial.stdout == parallel.stdout
    assert serial.stdout.splitlines() == sorted(serial.stdout.splitlines(), key=lambda line: line.split(":")[0])
    assert len(serial.stdout.splitlines()) == 82


def test_a_worker_takes_first_a_file_whose_imports_no_other_worker_is_on():
    """The workers take the run's files in import order, but not one whose module imports (directly or
    through others) the module another worker is on: it would summarise that module again. When every free
    file waits so, the first is taken all the same."""
    from pytree_lint.faces.forks import Claims

    claims = Claims(4, 2)
    waits_on = [0, 0b1, 0b11, 0]  # file 1 imports file 0, file 2 imports file 1 (and so file 0)
    claims.process = 1
    assert claims.next_free(waits_on) == 0
    assert list(claims.untaken()) == [1, 2, 3]
    claims.process = 0
    assert claims.next_free(waits_on) == 3  # 1 and 2 wait on 0, which the other worker is on
    assert list(claims.untaken()) == [1, 2]  # what a worker waiting for file 0's summary may summarise meanwhile
    assert claims.finished(3) == 1
    assert claims.next_free(waits_on) == 1  # none is left that does not wait: the first
    claims.process = 1
    assert claims.finished(0) == 2
    assert claims.next_free(waits_on) == 2 and claims.next_free(waits_on) is None
    assert [claims.taker(job) for job in range(4)] == [1, 0, 1, 0]


# The CLI with the lint of its forked worker process failing: killed, or raising (the run's process lints on).
FAILING_WORKER = """
import os, signal, sys, time
from pytree_lint.faces import cli
run_process, lint_sent, waited = os.getpid(), cli._lint_sent, []
def failing(job):
    if os.getpid() != run_process:
        if sys.argv[1] == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("a bug of ours")
    if not waited:  # the fork takes a file before the run's process could lint them all, however busy the machine
        waited.append(time.sleep(0.3))
    return lint_sent(job)
cli._lint_sent = failing
sys.exit(cli.main(["--jobs", "2", "--no-cache", "."]))
"""


@pytest.mark.every_python
@pytest.mark.parametrize("how, reason", [("killed", "killed by signal 9"), ("raising", "RuntimeError: a bug of ours")])
def test_a_worker_that_ends_loses_only_the_file_it_took(tmp_path, how, reason):
    """A forked worker that dies (killed: out of memory) or fails takes no other file with it: the file it
    took is reported as an error naming why, every other file is linted by the run's process, exit 2."""
    for number in range(20):
        (tmp_path / f"m{number:02}.py").write_text(BAD)
    result = subprocess.run([sys.executable, "-c", FAILING_WORKER, how], capture_output=True, text=True,
                            cwd=tmp_path)
    errors = result.stderr.splitlines()
    assert result.returncode == 2 and len(errors) == 1, result.stderr
    lost = errors[0].split(":")[0]
    assert errors[0] == f"{lost}: error: not linted: the worker process that took it ended ({reason})"
    reported = {line.split(":")[0] for line in result.stdout.splitlines()}
    assert reported == {f"m{number:02}.py" for number in range(20)} - {lost}


@pytest.mark.every_python
@pytest.mark.parametrize("name, content", [
    ("pyproject.toml", '[tool.pytree-lint]\nignore = ["PTL102"]\n'),
    ("pyproject.toml", '[project]\nname = "pytree-lint-user"\n\n[tool]\npytree-lint = { ignore = ["PTL102"] }\n'),
    ("setup.cfg", "[pytree-lint]\nignore = PTL102\n"),
    ("tox.ini", "[pytree-lint]\nignore = PTL102\n"),
])
def test_configuration_files(project, name, content):
    (project / name).write_text(content)
    (project / "pkg" / "sub").mkdir()
    result = pytree_lint("..", cwd=project / "pkg" / "sub")  # found by walking up
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["PTL101"]


def test_unknown_configuration_key_is_an_error(project):
    (project / "setup.cfg").write_text("[pytree-lint]\nselct = PTL101\n")
    result = pytree_lint(cwd=project)
    assert result.returncode == 2
    assert "unknown key 'selct'" in result.stderr


def test_rule_documentation(project):
    result = pytree_lint("rule", "ptl101", cwd=project)
    assert result.returncode == 0
    for section in ("What it does:", "Why is this bad:", "Example:", "Use instead:", "Known limits:"):
        assert section in result.stdout
    listing = pytree_lint("rules", cwd=project).stdout
    assert [line.split()[0] for line in listing.splitlines()] == list(RULES_BY_CODE)
    assert pytree_lint("rule", "PTL999", cwd=project).returncode == 2


def test_console_script_is_installed(project):
    script = Path(sys.executable).parent / "pytree-lint"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, cwd=project)
    assert result.returncode == 0 and result.stdout.startswith("pytree-lint ")


def test_fixture_folder_through_the_cli():
    result = pytree_lint("--format", "json", "--extend-select", "PTL9", str(FIXTURES), cwd=FIXTURES)
    assert result.returncode == 1
    assert {row["code"] for row in json.loads(result.stdout)} == set(RULES_BY_CODE)  # every rule has a bad fixture


def _manifest(private_cache: Path) -> tuple[Path, dict]:
    """The only manifest of the cache (one per folder the CLI ran from) and its data."""
    [path] = (private_cache / "manifests").glob("*.json")
    return path, read_json(path)


def test_result_cache(project, private_cache):
    cold = pytree_lint(cwd=project)
    assert list(private_cache.glob("?/*.json")) == []  # no file per result: the run's manifest holds them
    _, manifest = _manifest(private_cache)
    assert sorted(Path(path).name for path in manifest["files"]) == ["box.py", "clean.py"]
    warm = pytree_lint(cwd=project)
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    (project / "pkg" / "box.py").write_text(BAD.replace("self.sizes = [1, 2]", "self.sizes = (1, 2)"))
    edited = pytree_lint(cwd=project)
    assert [line.split(" ")[1] for line in edited.stdout.splitlines()] == ["PTL101"]
    assert [line.split(" ")[1] for line in pytree_lint("--select", "PTL102", cwd=project).stdout.splitlines()] == []


def test_a_touched_file_is_answered_by_its_content_and_a_changed_one_is_linted(project, private_cache):
    past = time.time() - 60
    for path in project.rglob("*.py"):
        os.utime(path, (past, past))
    cold = pytree_lint(cwd=project)
    assert "PTL102" in cold.stdout
    path, manifest = _manifest(private_cache)
    [box] = [key for key in manifest["files"] if key.endswith("box.py")]
    manifest["files"][box][3]["findings"] = []  # the manifest now says "no findings"; a lint would not
    write_json(path, manifest)
    assert pytree_lint(cwd=project).stdout == ""  # recalled by its stat
    os.utime(project / "pkg" / "box.py", (past + 30, past + 30))
    assert pytree_lint(cwd=project).stdout == ""  # by its content, under another stat
    (project / "pkg" / "box.py").write_text(BAD.replace("self.sizes = [1, 2]", "self.sizes = (1, 2)"))
    assert [line.split(" ")[1] for line in pytree_lint(cwd=project).stdout.splitlines()] == ["PTL101"]


def test_no_cache_writes_nothing(project, private_cache):
    assert pytree_lint("--no-cache", cwd=project).returncode == 1
    assert list(private_cache.rglob("*.json")) == []


HELPER_PROJECT = textwrap.dedent("""\
    import dataclasses

    import jax
    import numpy as np

    from .fields import static_field


    @dataclasses.dataclass
    class Table:
        values: jax.Array
        index: np.ndarray = static_field()
    """)


def test_static_field_functions_option_and_setting(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(HELPER_PROJECT)
    assert pytree_lint("pkg", cwd=tmp_path).stdout == ""
    result = pytree_lint("--static-field-functions", "mylib.fields.static_field", "pkg", cwd=tmp_path)
    assert result.stdout.startswith("pkg/model.py:12:5: PTL101 array in static field `Table.index` "
                                    "(`static_field()`)"), result.stdout
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytree-lint]\nstatic-field-functions = ["mylib.fields.static_field"]\n')
    assert pytree_lint("pkg", cwd=tmp_path).stdout.startswith("pkg/model.py:12:5: PTL101")
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "PTL",
                             "--pytree-static-field-functions", "mylib.fields.static_field", "pkg"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert flake8.stdout.startswith("pkg/model.py:12:5: PTL101"), flake8.stderr


def test_a_configured_helper_matches_its_qualified_name_by_any_import_path(tmp_path):
    """`mylib.static_field` configured; the file imports the installed library's private module, or
    reaches the helper through a submodule attribute (installed packages are not read)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(textwrap.dedent("""\
        import dataclasses

        import jax
        import mylib
        from mylib._fields import static_field as sf


        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class Table:
            values: jax.Array
            index: jax.Array = sf()
            other: jax.Array = mylib.fields.static_field()
        """))
    assert pytree_lint("pkg", cwd=tmp_path).stdout == ""
    found = pytree_lint("--static-field-functions", "mylib.static_field", "pkg", cwd=tmp_path).stdout
    assert [line.split(" PTL101 ")[0] for line in found.splitlines()] == ["pkg/model.py:12:5:", "pkg/model.py:13:5:"]
    assert pytree_lint("--static-field-functions", "otherlib.static_field", "pkg", cwd=tmp_path).stdout == ""


def test_bad_static_field_function_name(tmp_path):
    result = pytree_lint("--static-field-functions", "not a name", cwd=tmp_path)
    assert result.returncode == 2
    assert "is not a dotted function name" in result.stderr


def test_config_exclude_is_relative_to_the_config_file(project):
    (project / "pyproject.toml").write_text('[tool.pytree-lint]\nexclude = ["pkg/box.py"]\n')
    assert pytree_lint(".", cwd=project).returncode == 0
    assert pytree_lint(".", cwd=project / "pkg").returncode == 0  # run from below the config file


def test_codes_select_and_ignore_by_prefix(project):
    assert pytree_lint("--ignore", "PTL201,PTL4", cwd=project).returncode == 1
    assert pytree_lint("--select", "PTL3", cwd=project).returncode == 0


def test_exit_zero_statistics_and_output_file(project):
    result = pytree_lint("--exit-zero", "--statistics", "--output-file", "report.txt", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    report = (project / "report.txt").read_text().splitlines()
    assert report[:2] == [line for line in report if line.startswith("pkg/box.py:13:")]
    assert report[2:] == ["1     PTL101 array-in-aux-data", "1     PTL102 mutable-aux-data"]
    as_json = pytree_lint("--statistics", "--format", "json", cwd=project)  # the JSON stays valid
    assert len(json.loads(as_json.stdout)) == 2
    assert as_json.stderr == "1     PTL101 array-in-aux-data\n1     PTL102 mutable-aux-data\n"
    nowhere = pytree_lint("--output-file", "missing/report.txt", cwd=project)
    assert nowhere.returncode == 2 and nowhere.stderr.startswith(
        "pytree-lint: error: cannot write missing/report.txt: No such file or directory")


def test_jobs_zero_means_every_core_and_negative_is_an_error(project):
    assert pytree_lint("-j", "0", cwd=project).returncode == 1
    rejected = pytree_lint("-j", "-1", cwd=project)
    assert rejected.returncode == 2 and "--jobs must be 0" in rejected.stderr


@pytest.mark.every_python
def test_stdin_with_a_filename(project):
    result = subprocess.run([sys.executable, "-m", "pytree_lint", "--stdin-filename", "src/model.py", "-"],
                            input=BAD, capture_output=True, text=True, cwd=project)
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[0] for line in result.stdout.splitlines()] == ["src/model.py:13:28:", "src/model.py:13:40:"]
    broken = subprocess.run([sys.executable, "-m", "pytree_lint", "-"], input=BAD + "def broken(:\n",
                            capture_output=True, text=True, cwd=project)
    assert broken.returncode == 2 and broken.stderr.startswith("stdin.py: error: syntax error at line 21")


def test_an_excluded_file_is_not_linted_however_it_is_named(project):
    """Named on the command line, read from stdin under its name, or given to flake8: the project's
    `exclude` applies, and the CLI says so instead of finding no file."""
    (project / "pyproject.toml").write_text('[tool.pytree-lint]\nexclude = ["vendored/*"]\n')
    (project / "vendored").mkdir()
    (project / "vendored" / "box.py").write_text(BAD)
    named = pytree_lint("vendored/box.py", cwd=project)
    assert (named.returncode, named.stdout) == (0, "")
    assert named.stderr == "pytree-lint: vendored/box.py: excluded by the configuration: not linted\n"
    piped = subprocess.run([sys.executable, "-m", "pytree_lint", "--stdin-filename", "vendored/box.py", "-"],
                           input=BAD, capture_output=True, text=True, cwd=project)
    assert (piped.returncode, piped.stdout) == (0, "")
    assert piped.stderr == "pytree-lint: vendored/box.py: excluded by the configuration: not linted\n"
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "PTL", "vendored/box.py", "pkg/box.py"],
                            capture_output=True, text=True, cwd=project)
    assert [line.split(":")[0] for line in flake8.stdout.splitlines()] == ["pkg/box.py", "pkg/box.py"]


def test_no_python_file_is_a_warning(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to lint")
    result = pytree_lint(".", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr == "pytree-lint: warning: no Python files found in .\n"


def test_file_level_noqa_skips_the_file(project):
    for directive in ("# flake8: noqa", "# pytree-lint: noqa", "#FLAKE8=NOQA"):
        (project / "pkg" / "box.py").write_text(f"{directive}\n{BAD}")
        assert pytree_lint(cwd=project).stdout == "", directive
    (project / "pkg" / "box.py").write_text(f"# flake8: noqa: E501\n{BAD}")  # with codes, flake8 ignores it
    assert pytree_lint(cwd=project).returncode == 1


def test_json_has_end_positions_and_rule_names(project):
    rows = json.loads(pytree_lint("--format", "json", cwd=project).stdout)
    assert [(r["code"], r["name"], r["line"], r["column"], r["end_line"], r["end_column"]) for r in rows] == [
        ("PTL101", "array-in-aux-data", 13, 28, 13, 38), ("PTL102", "mutable-aux-data", 13, 40, 13, 50)]


def test_diff_says_when_no_finding_has_a_fix(project):
    tupled = BAD.replace("self.sizes = [1, 2]", "self.sizes = (1, 2)")
    (project / "pkg" / "box.py").write_text(tupled.replace("self.sizes.append(size)", "self.sizes += (size,)"))
    result = pytree_lint("--diff", cwd=project)
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr == "pytree-lint: no finding has a fix\n"


def test_rule_documentation_through_a_closed_pipe(project):
    result = subprocess.run(f"{sys.executable} -m pytree_lint rule PTL101 | head -1", shell=True,
                            capture_output=True, text=True, cwd=project)
    assert result.stdout == "PTL101 array-in-aux-data\n"
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
    unknown = pytree_lint("rule", "PTL999", cwd=project)
    assert unknown.returncode == 2 and "unknown rule code 'PTL999'" in unknown.stderr


def test_each_file_is_judged_by_its_own_projects_configuration(tmp_path):
    """Two projects linted in one run from a third folder: each file's nearest settings apply."""
    for name, settings in (("quiet", '[tool.pytree-lint]\nignore = ["PTL102"]\n'), ("loud", None)):
        (tmp_path / name / "pkg").mkdir(parents=True)
        (tmp_path / name / "pkg" / "box.py").write_text(BAD)
        if settings:
            (tmp_path / name / "pyproject.toml").write_text(settings)
    (tmp_path / "elsewhere").mkdir()
    result = pytree_lint("--no-cache", "../quiet", "../loud", cwd=tmp_path / "elsewhere")
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["../loud/pkg/box.py:13:28:", "PTL101"], ["../loud/pkg/box.py:13:40:", "PTL102"],
        ["../quiet/pkg/box.py:13:28:", "PTL101"]]


def test_each_folders_config_files_are_read_once(tmp_path, monkeypatch):
    """The folders of a project share the folders above them: each folder's config files are read once per
    run, and each folder still gets its nearest settings (a nested project's own, the outer one's)."""
    from pytree_lint import config

    (tmp_path / "pyproject.toml").write_text('[tool.pytree-lint]\nignore = ["PTL102"]\n')
    (tmp_path / "inner" / "deep").mkdir(parents=True)
    (tmp_path / "inner" / "pyproject.toml").write_text('[tool.pytree-lint]\nignore = ["PTL101"]\n')
    for folder in ("a", "b", "a/c"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    read: list[str] = []
    monkeypatch.setattr(config, "_read_settings", lambda folder, read_settings=config._read_settings: (
        read.append(folder), read_settings(folder))[1])
    loader = config.ConfigLoader()
    ignored = {folder: loader.for_folder(str(tmp_path / folder)).ignore for folder in ("a", "b", "a/c", "inner/deep")}
    assert ignored == {"a": ("PTL102",), "b": ("PTL102",), "a/c": ("PTL102",), "inner/deep": ("PTL101",)}
    assert len(read) == len(set(read)) and str(tmp_path) in read


@pytest.mark.parametrize("settings, options", [
    ('[tool.pytree-lint]\nper-file-ignores = {"pkg/*" = ["PTL101"]}\n', ()),
    ('[tool.pytree-lint]\nper-file-ignores = ["pkg/box.py:PTL101"]\n', ()),
    ("", ("--per-file-ignores", "pkg/*.py:PTL101 tests/*:PTL102")),
])
def test_per_file_ignores(project, settings, options):
    (project / "pyproject.toml").write_text(settings)
    result = pytree_lint("--no-cache", *options, cwd=project)
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["PTL102"]


def test_report_unused_noqa(project):
    source = BAD.replace("(self.table, self.sizes)", "(self.table, self.sizes)  # noqa: PTL102, PTL203")
    (project / "pkg" / "box.py").write_text(source.replace("self.x = x", "self.x = x  # noqa: PTL101, E501"))
    (project / "pkg" / "skipped.py").write_text("# flake8: noqa\nx = 1  # noqa: PTL101\n")  # the file is off
    result = pytree_lint("--report-unused-noqa", "--no-cache", cwd=project)
    assert result.returncode == 1
    assert result.stdout.splitlines()[1:] == ["pkg/box.py:8:21: unused noqa: PTL101 silences no finding",
                                              "pkg/box.py:13:53: unused noqa: PTL203 silences no finding"]


@pytest.mark.every_python
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_progress_bar_only_on_a_terminal(tmp_path, jobs):
    import fcntl
    import os
    import pty
    import struct
    import termios

    for number in range(60):
        (tmp_path / f"m{number}.py").write_text("import jax\n")
    piped = pytree_lint("--jobs", jobs, "--no-cache", ".", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal's size
    process = subprocess.Popen([sys.executable, "-m", "pytree_lint", "--jobs", jobs, "--no-cache", "."],
                               cwd=tmp_path, stdout=terminal, stderr=terminal)
    os.close(terminal)
    shown = read_until_closed(controller)
    assert process.wait() == 0
    assert b"pytree-lint:" in shown and b"60/60" in shown


def read_until_closed(controller: int) -> bytes:
    """All a pseudo-terminal's program wrote, read from its controlling side until the program closed it."""
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # Linux: EIO once the other side is closed
            break
        if not chunk:
            break
        shown += chunk
    return shown


def test_per_file_ignores_win_over_a_selection(project):
    (project / "pyproject.toml").write_text('[tool.pytree-lint]\nper-file-ignores = ["pkg/box.py:PTL101"]\n')
    result = pytree_lint("--no-cache", "--extend-select", "PTL101", "--select", "PTL1", cwd=project)
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["PTL102"]


def test_concise_is_the_default_and_full_shows_the_code_of_the_finding_and_of_what_it_cites(project):
    concise = pytree_lint("pkg/box.py", cwd=project).stdout.splitlines()
    assert concise[0] == ("pkg/box.py:13:28: PTL101 array in aux_data of `Box`: `self.table` is assigned "
                          "`np.arange(3)` at line 9")
    assert pytree_lint("--output-format", "text", "pkg/box.py", cwd=project).stdout.splitlines() == concise
    full = pytree_lint("--output-format", "full", "pkg/box.py", cwd=project, env={"NO_COLOR": ""})
    assert full.stdout.split("\n\n")[0].splitlines()[1:] == [
        "13 |         return (self.x,), (self.table, self.sizes)",
        "   |                            ^^^^^^^^^^",
        "   = cited: line 9",
        " 9 |         self.table = np.arange(3)",
    ]
    assert full.stdout.splitlines()[0].startswith(concise[0] + "; JAX compares aux_data with `==`")


def test_full_output_is_coloured_only_on_a_terminal_without_no_color(project):
    import pty

    def on_a_terminal(env: dict) -> bytes:
        leader, follower = pty.openpty()
        subprocess.run([sys.executable, "-m", "pytree_lint", "--output-format", "full", "pkg/box.py"], cwd=project,
                       stdout=follower, stderr=subprocess.DEVNULL, env={**os.environ, **env}, timeout=120)
        os.close(follower)
        output = read_until_closed(leader)
        os.close(leader)
        return output

    assert b"\x1b[1;31mPTL101\x1b[0m" in on_a_terminal({})
    assert b"\x1b[" not in on_a_terminal({"NO_COLOR": "1"})
    assert b"\x1b[" not in pytree_lint("--output-format", "full", "pkg/box.py", cwd=project).stdout.encode()
