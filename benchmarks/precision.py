"""The precision table's raw half: lint installed JAX projects whole, with default settings, and list every
default finding to judge (README's "Precision on real code" holds the verdicts).

    python benchmarks/precision.py [--repeat N] SITE_PACKAGES flax equinox netket ...

Each project is a package folder under SITE_PACKAGES, linted as the CLI lints it (`pytree-lint --format
json PKG` run from SITE_PACKAGES, with an empty cache as on a first run), in this interpreter, from bytecode.
Prints one row per project (files, lines, seconds, the time over the `ast.parse` time of its files, the peak
memory of the largest process, findings) and then each finding, for reading; install the projects into a
scratch venv. `--repeat N` lints each project N times, each run followed by a parse of its files, and prints
the medians of the seconds and of the runs' ratios (this machine's speed moves by up to 2x from one second to
the next: one run's ratio is a sample, not a measure); the findings must be the same each time. A file the
linter cannot read or parse (exit 2) is listed last as not linted; the others are.

Each run is preceded by a cold run of the command over a package of one small module that calls for the
analysis (`start-up`: the interpreter, the command's and the analysis's imports and one small lint, which any
run that lints a file pays besides its files); `x parse past start-up` is the run's time less that, over the
parse time. For a project of a few thousand lines the start-up alone is several times its parse.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import NamedTuple


def parse_time(files: list[Path]) -> float:
    """The floor: `ast.parse` of every file, as any Python tool must."""
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in files:
            try:
                ast.parse(path.read_bytes())
            except (SyntaxError, ValueError, RecursionError):  # too deeply nested for the parser
                pass
    return time.perf_counter() - started


# Runs a command and writes its seconds, exit status and peak memory to the file named first: a small process
# of its own starts the lint, for a child started from this one (grown by the parses it measures) would take
# this process's size as its own high-water mark (the "peak MB" column counted it for every project after jax).
_LAUNCH = """
import os, subprocess, sys, time
started = time.perf_counter()
process = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(process.pid, 0)
elapsed = time.perf_counter() - started
with open(sys.argv[1], "w") as measures:
    measures.write(f"{elapsed} {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


# The package the start-up is measured on: one module whose words call for the analysis, and no finding.
_SMALL_MODULE = """import jax


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, value):
        self.value = value

    def tree_flatten(self):
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
"""


class Run(NamedTuple):
    """One cold run of the command over a project."""

    seconds: float
    parse: float  # the `ast.parse` time of the project's files, right after
    startup: float  # the seconds of a cold run over a package of one small module, right before
    peak: float  # MB, of the largest process
    findings: list[dict]
    errors: list[str]  # what it says of the files it could not lint (exit 2: one that does not parse)


def command(site_packages: Path, package: str) -> tuple[float, float, str, str]:
    """One cold run of the command over `package` (a folder under `site_packages`): its seconds, its peak
    memory (MB), its JSON output and its error output."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryFile("w+") as output, tempfile.TemporaryDirectory() as scratch:
        env["PYTREE_LINT_CACHE_DIR"] = str(Path(scratch) / "cache")
        measures = Path(scratch) / "measures"
        launched = subprocess.run([sys.executable, "-c", _LAUNCH, str(measures), sys.executable, "-m", "pytree_lint",
                                   "--format", "json", package], cwd=site_packages, env=env, stdout=output,
                                  stderr=subprocess.PIPE, text=True)
        elapsed, returncode, peak = measures.read_text().split() if measures.exists() else ("0", "-1", "0")
        output.seek(0)
        text = output.read()
        if launched.returncode or int(returncode) not in (0, 1, 2) or not text.startswith("["):
            sys.exit(f"{package}: exit {returncode}\n{launched.stderr}")
    # ru_maxrss (kilobytes on Linux) is the largest of the process and the workers it waited for.
    return float(elapsed), int(peak) / 1024, text, launched.stderr


def startup() -> float:
    """The seconds of a cold run over a package of one small module (see _SMALL_MODULE)."""
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "startup_probe"
        package.mkdir()
        (package / "__init__.py").write_text(_SMALL_MODULE)
        return command(Path(scratch), package.name)[0]


def lint(site_packages: Path, package: str, files: list[Path]) -> Run:
    """One cold run over a project, the start-up measured right before it and the parse right after."""
    before = startup()
    elapsed, peak, text, errors = command(site_packages, package)
    return Run(elapsed, parse_time(files), before, peak, json.loads(text), errors.splitlines())


class Measured(NamedTuple):
    """A project's row: medians over the runs, the largest peak."""

    files: int
    lines: int
    seconds: float
    ratio: float  # the seconds over the parse time
    startup: float
    past_startup: float  # the seconds less the start-up, over the parse time
    peak: float
    findings: list[dict]
    errors: list[str]


def measured(site_packages: Path, package: str, repeat: int) -> Measured:
    """A project's row over `repeat` cold runs, each ratio taken within its run."""
    files = sorted(path for path in (site_packages / package).rglob("*.py") if path.is_file())  # not dangling links
    lines = sum(len(path.read_bytes().splitlines()) for path in files)
    runs = [lint(site_packages, package, files) for _ in range(repeat)]
    findings = runs[0].findings
    if any(run.findings != findings for run in runs):
        sys.exit(f"{package}: the runs' findings differ")
    return Measured(len(files), lines, statistics.median(run.seconds for run in runs),
                    statistics.median(run.seconds / run.parse for run in runs),
                    statistics.median(run.startup for run in runs),
                    statistics.median((run.seconds - run.startup) / run.parse for run in runs),
                    max(run.peak for run in runs), findings, runs[0].errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("site_packages", type=Path)
    parser.add_argument("packages", nargs="+")
    arguments = parser.parse_args()
    found, unlinted, totals = [], [], [0, 0, 0.0, 0.0, 0]
    print(f"{'project':32} {'files':>6} {'lines':>8} {'seconds':>8} {'x parse':>8} {'start-up':>9} "
          f"{'x parse past start-up':>22} {'peak MB':>8} {'findings':>9}")
    for package in arguments.packages:
        row = measured(arguments.site_packages, package, arguments.repeat)
        print(f"{package:32} {row.files:6} {row.lines:8} {row.seconds:8.2f} {row.ratio:8.1f} {row.startup:9.3f} "
              f"{row.past_startup:22.1f} {row.peak:8.0f} {len(row.findings):9}")
        found.extend(row.findings)
        unlinted.extend(row.errors)
        totals = [totals[0] + row.files, totals[1] + row.lines, totals[2] + row.seconds,
                  totals[3] + row.seconds / row.ratio, totals[4] + len(row.findings)]
    print(f"{'total':32} {totals[0]:6} {totals[1]:8} {totals[2]:8.2f} {totals[2] / totals[3]:8.1f} {'':9} {'':22} "
          f"{'':8} {totals[4]:9}\n")
    for finding in found:
        print(f"{finding['path']}:{finding['line']}: {finding['code']} {finding['message']}\n")
    for error in unlinted:
        print(f"not linted: {error}")


if __name__ == "__main__":
    main()
