"""Real pre-commit runs the hook from this repository: a misuse fails the hook, clean code passes, and the
configuration's excludes apply to the file names pre-commit passes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory):
    pytest.importorskip("pre_commit")
    return tmp_path_factory.mktemp("pre-commit-home")


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def try_repo(project: Path, home: Path, *files: str, ref: str | None = None) -> subprocess.CompletedProcess:
    # The user's environment (the package index, certificates) with a home of its own: no git config, no
    # pre-commit state of the user's.
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
           "HOME": str(home), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    at = ["--ref", ref] if ref else []
    return subprocess.run([*PRE_COMMIT, "try-repo", str(ROOT), "pytree-lint", *at, "--files", *files],
                          cwd=project, capture_output=True, text=True, env=env, timeout=900)


def test_pre_commit_hook(tmp_path, pre_commit_home):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = tmp_path / "project"
    (project / "vendored").mkdir(parents=True)
    shutil.copy(FIXTURES / "PTL101" / "bad_alias_lambda.py", project / "model.py")
    shutil.copy(FIXTURES / "PTL101" / "bad_alias_lambda.py", project / "vendored" / "model.py")
    shutil.copy(FIXTURES / "PTL101" / "clean_arrays_as_children.py", project / "clean.py")
    (project / "pyproject.toml").write_text('[tool.pytree-lint]\nexclude = ["vendored/*"]\n')
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("%matplotlib inline\n" + (FIXTURES / "PTL101" / "bad_alias_lambda.py")
                                                .read_text())]
    nbformat.write(notebook, project / "analysis.ipynb")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)

    blocked = try_repo(project, pre_commit_home, "model.py", "clean.py", "analysis.ipynb")
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "model.py:20:24: PTL101 array in aux_data of `Lookup`" in blocked.stdout
    assert "analysis.ipynb:cell 1:21:24: PTL101 array in aux_data of `Lookup`" in blocked.stdout

    passed = try_repo(project, pre_commit_home, "clean.py", "vendored/model.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_the_rev_readme_names_is_this_versions_tag_and_runs(tmp_path, pre_commit_home):
    """README's pre-commit snippet names a release tag of this repository, an ancestor of HEAD whose version
    is the one installed (`pytree-lint --version`), and that tag's hook works."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    rev = re.search(r"^\s+rev: (\S+)", (ROOT / "README.md").read_text(), re.MULTILINE).group(1)
    assert re.fullmatch(r"v\d+\.\d+\.\d+", rev), f"README names rev {rev}, which is no release tag"
    if not subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True).stdout.strip():
        pytest.skip("a clone without tags: the tag README names is not fetched")
    assert subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"refs/tags/{rev}"], cwd=ROOT,
                          capture_output=True).returncode == 0, f"README names {rev}, which is no tag here"
    assert subprocess.run(["git", "merge-base", "--is-ancestor", rev, "HEAD"], cwd=ROOT).returncode == 0
    tagged = subprocess.run(["git", "show", f"{rev}:pytree_lint/__init__.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    installed = subprocess.run([sys.executable, "-m", "pytree_lint", "--version"], capture_output=True,
                               text=True, check=True).stdout.split()[-1]
    assert f'__version__ = "{rev[1:]}"' in tagged and installed == rev[1:], (rev, installed)
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(FIXTURES / "PTL101" / "bad_alias_lambda.py", project / "model.py")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)
    blocked = try_repo(project, pre_commit_home, "model.py", ref=rev)
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "model.py:20:24: PTL101 array in aux_data of `Lookup`" in blocked.stdout
