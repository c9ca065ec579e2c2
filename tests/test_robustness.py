"""Never crash, never hide a finding: odd, broken and generated files, through the CLI and flake8."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytree_lint import LintError, lint_source
from pytree_lint.analysis.syntax.source import parse
from pytree_lint.faces.cli import main
from pytree_lint.faces.flake8 import Plugin
from pytree_lint.rules import ArrayInAuxData

from conftest import KNOWN, fixture_files

PREFIX = "import jax\njax.tree_util.register_static\n"  # makes a file pass the text prefilter


@pytest.fixture
def odd_batch(tmp_path):
    files = {
        "known.py": KNOWN,
        "crlf_bom.py": b"\xef\xbb\xbf" + KNOWN.replace("\n", "\r\n").encode(),
        "tabs.py": KNOWN.replace("    ", "\t"),
        "pep695.py": "type Vector = list[float]\ndef ident[T](x: T) -> T:\n    return x\n" + KNOWN,
        "many_functions.py": KNOWN + "".join(f"def f{i}(a):\n    return a + {i}\n" for i in range(20000)),
        "deep_blocks.py": PREFIX + "".join("    " * i + "if x:\n" for i in range(90)) + "    " * 90 + "pass\n",
        "match.py": PREFIX + "match command:\n    case [x, *rest]:\n        pass\n    case _:\n        pass\n",
        # unreadable: each must be named with its reason
        "syntax.py": PREFIX + "def broken(:\n",
        "deep_expr.py": PREFIX + "x = " + "1+" * 20000 + "1\n",
        "binary.py": b"\x00\x01register_pytree\xff\xfe",
        "latin1.py": b"# register_pytree\nx = '\xe9'\n",
        "huge.py": "#" * (17 * 2**20),
    }
    for name, content in files.items():
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(tmp_path / name, mode) as handle:
            handle.write(content)
    os.symlink(tmp_path / "nowhere.py", tmp_path / "dangling.py")
    return tmp_path


def test_odd_batch_through_the_cli(odd_batch):
    result = subprocess.run([sys.executable, "-m", "pytree_lint", "."], capture_output=True, text=True,
                            cwd=odd_batch)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    reported = sorted(line.split(":")[0] for line in result.stdout.splitlines())
    errors = dict(line.split(": error: ", 1) for line in result.stderr.splitlines())
    # The analysis reads the running Python's `ast`: syntax newer than it is a syntax error, as for flake8.
    new_syntax = sys.version_info >= (3, 12)
    assert reported == ["crlf_bom.py", "known.py", "many_functions.py", *(["pep695.py"] * new_syntax), "tabs.py"]
    if not new_syntax:
        assert errors.pop("pep695.py") == (
            "syntax error at line 1, column 6: invalid syntax (a `type` statement, Python 3.12 syntax: this is "
            f"Python 3.{sys.version_info[1]}; lint the file with Python 3.12 or newer)")
    assert errors["syntax.py"].startswith("syntax error at line 3")
    # Python 3.10's parser takes the 20,000-term sum (and the analysis lints it); later ones refuse it.
    if sys.version_info >= (3, 11):
        assert errors.pop("deep_expr.py") == "too deeply nested for the parser"
    assert errors["binary.py"] == "not a Python source file (it contains NUL bytes)"
    assert errors["latin1.py"].startswith("cannot decode the file")
    assert errors["huge.py"].startswith("file too large to lint (17.0 MiB")
    assert errors["dangling.py"].startswith("cannot read the file")
    assert len(errors) == 5


def test_odd_batch_through_flake8(odd_batch):
    os.remove(odd_batch / "huge.py")  # flake8's own pycodestyle checks would take minutes on it
    os.remove(odd_batch / "many_functions.py")  # and seconds on this one: the CLI test covers our side
    # flake8 itself crashes on this one before any plugin runs: its build_ast() catches SyntaxError but
    # not the RecursionError CPython raises for a 20,000-term expression.
    os.remove(odd_batch / "deep_expr.py")
    if sys.version_info < (3, 11):
        # and on 3.10 on NUL bytes: `ast.parse` raises ValueError there, which flake8 does not catch.
        os.remove(odd_batch / "binary.py")
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "PTL,E999", "."],
                            capture_output=True, text=True, cwd=odd_batch)
    assert "Traceback" not in result.stderr
    assert "./known.py:11:27: PTL101" in result.stdout


def test_an_internal_error_names_the_file_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.py").write_text(KNOWN.replace("self.x = x", "self.x = x  # trip-wire"))
    (tmp_path / "b.py").write_text(KNOWN)
    original = ArrayInAuxData.check

    def failing_on_the_trip_wire(self, analysis):
        if "trip-wire" in analysis.source.text:
            raise KeyError("simulated bug")
        return original(self, analysis)

    monkeypatch.setattr(ArrayInAuxData, "check", failing_on_the_trip_wire)
    status = main(["--jobs", "1", "--no-cache", str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert f"{tmp_path / 'a.py'}: error: internal error in pytree-lint (KeyError: 'simulated bug')" in err
    assert "please report it" in err
    assert out.startswith(f"{tmp_path / 'b.py'}:11:27: PTL101")


# Code in syntax a newer Python reads: (the code, the Python that reads it, what the error calls it).
NEWER_SYNTAX_CASES = [
    ("type Vector = list[float]\n", (3, 12), "a `type` statement"),
    ("async def ident[T](x: T) -> T:\n    return x\n", (3, 12), "a generic function, `def f[T](...)`"),
    ("class Box[T]:\n    pass\n", (3, 12), "a generic class, `class C[T]`"),
    ("x = f\"{'a' + \"b\"}\"\n", (3, 12), "perhaps an f-string with quotes, backslashes or comments in its braces"),
    ("x = t'hello {y}'\n", (3, 14), 'a template string, `t"..."`'),
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", (3, 14),
     "`except` with several types and no parentheses"),
]


@pytest.mark.parametrize(("source", "version", "what"), NEWER_SYNTAX_CASES)
def test_syntax_of_a_newer_python_names_it(source, version, what):
    """A file written for a newer Python than the one running the linter is reported as needing it (a
    project's modules in Python 3.12's generics, read by 3.11: jaxls, pytree-utils); a Python that reads the
    syntax lints the file."""
    if sys.version_info >= version:
        assert lint_source(PREFIX + source, "new.py") == []
        return
    with pytest.raises(LintError) as raised:
        lint_source(PREFIX + source, "new.py")
    needed = ".".join(map(str, version))
    assert str(raised.value).endswith(f" ({what}, Python {needed} syntax: this is Python 3.{sys.version_info[1]}; "
                                      f"lint the file with Python {needed} or newer)")


@pytest.mark.parametrize("source", [
    "def broken(:\n",
    "x = 't' +\n",  # a quoted t, no template string
    "type(x) = 3\n",  # `type` called, no type statement
    "try:\n    pass\nexcept ValueError, TypeError as error:\n    pass\n",  # no Python reads it with `as`
])
def test_syntax_no_python_reads_is_only_a_syntax_error(source):
    with pytest.raises(LintError) as raised:
        lint_source(PREFIX + source, "broken.py")
    assert str(raised.value).startswith("syntax error at line ") and "Python" not in str(raised.value)


def engine_and_flake8_agree(source: str) -> None:
    """The engine either lints `source` or raises LintError; the flake8 face reports the same."""
    try:
        findings = lint_source(source, "generated.py", Plugin.config)  # flake8 itself filters the opt-in tier
    except LintError:
        return
    try:
        tree = parse(source)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return  # flake8 reports E999 and never runs the plugin
    lines = source.splitlines(keepends=True)
    plugin = Plugin(tree, lines, "generated.py")
    assert [(line, column, text.split(" ")[0]) for line, column, text, _ in plugin.run()] == [
        (f.line, f.column, f.code) for f in findings]


def hypothesmith():
    """hypothesmith, imported by the two tests that draw its programs, when they first draw one (with its grammar
    built, 2 s of every process that imported this module, the static suites' among them)."""
    import hypothesmith

    return hypothesmith


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.deferred(lambda: hypothesmith().from_grammar()))
def test_generated_programs_never_crash(program):
    engine_and_flake8_agree(PREFIX + program)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.deferred(lambda: hypothesmith().from_node()))
def test_generated_syntax_trees_never_crash(program):
    """hypothesmith's libcst-built programs: statements and expressions of every kind, nested."""
    engine_and_flake8_agree(PREFIX + program)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(fixture_files()), st.randoms(use_true_random=False))
def test_mutated_fixtures_never_crash(path, rng: random.Random):
    lines = path.read_text().splitlines(keepends=True)
    for _ in range(rng.randint(1, 4)):
        position = rng.randrange(len(lines))
        operation = rng.choice(["delete", "duplicate", "swap", "dedent"])
        if operation == "delete":
            del lines[position]
        elif operation == "duplicate":
            lines.insert(position, lines[position])
        elif operation == "swap":
            other = rng.randrange(len(lines))
            lines[position], lines[other] = lines[other], lines[position]
        else:
            lines[position] = lines[position].lstrip()
        if not lines:
            return
    engine_and_flake8_agree("".join(lines))


def test_the_fix_engine_parses_every_fixture():
    import libcst as cst

    for path in fixture_files():
        cst.parse_module(path.read_text())


def test_a_cache_folder_removed_while_running_is_made_again(tmp_path):
    """A long-running process (the language server) whose cache folder is cleared keeps caching: the
    folders it made are made again after a write fails."""
    import shutil

    from pytree_lint.cachedir import read_json, write_json

    path = tmp_path / "cache" / "ab" / "entry.json"
    write_json(path, {"n": 1})
    shutil.rmtree(tmp_path / "cache")
    write_json(path, {"n": 2})  # the folder is gone: this write is lost
    write_json(path, {"n": 3})
    assert read_json(path) == {"n": 3}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_worker_names_its_temporary_files_its_own_way(tmp_path):
    """Cache files are written through a temporary name made of the process's tag and a count: a forked
    pool worker starts with its parent's count, so its tag must be its own, or two workers writing at once
    would fail each other's writes (`O_EXCL`) and lose them."""
    from pytree_lint import cachedir

    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: its tag, then its write; it never returns into the test run
        try:
            os.write(writer, cachedir._tag.encode())
            cachedir.write_json(tmp_path / "child.json", [1])
        finally:
            os._exit(0)
    os.close(writer)
    child_tag = os.read(reader, 100).decode()
    os.waitpid(child, 0)
    os.close(reader)
    assert child_tag and child_tag != cachedir._tag and child_tag.startswith(f"{child}.")
    cachedir.write_json(tmp_path / "parent.json", [2])
    assert cachedir.read_json(tmp_path / "child.json") == [1] and cachedir.read_json(tmp_path / "parent.json") == [2]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["child.json", "parent.json"]
