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


def lint(site_packages: Path, package: str, files: list[Path]) -> tuple[float, float, float, list[dict], list[str]]:
    """One cold run's seconds, the parse time of the files right after, its peak memory, its findings, and
    what it says of the files it could not lint (exit 2: one that does not parse; the others are linted)."""
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
        findings = json.loads(text)
    # ru_maxrss (kilobytes on Linux) is the largest of the process and the workers it waited for.
    return float(elapsed), parse_time(files), int(peak) / 1024, findings, launched.stderr.splitlines()


def measured(site_packages: Path, package: str, repeat: int,
             ) -> tuple[int, int, float, float, float, list[dict], list[str]]:
    """Files, lines, the median seconds and ratio over `repeat` runs, the largest peak memory, the findings,
    the files not linted."""
    files = sorted(path for path in (site_packages / package).rglob("*.py") if path.is_file())  # not dangling links
    lines = sum(len(path.read_bytes().splitlines()) for path in files)
    runs = [lint(site_packages, package, files) for _ in range(repeat)]
    findings = runs[0][3]
    if any(run[3] != findings for run in runs):
        sys.exit(f"{package}: the runs' findings differ")
    return (len(files), lines, statistics.median(run[0] for run in runs),
            statistics.median(run[0] / run[1] for run in runs), max(run[2] for run in runs), findings, runs[0][4])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("site_packages", type=Path)
    parser.add_argument("packages", nargs="+")
    arguments = parser.parse_args()
    found, unlinted, totals = [], [], [0, 0, 0.0, 0.0, 0]
    print(f"{'project':32} {'files':>6} {'lines':>8} {'seconds':>8} {'x parse':>8} {'peak MB':>8} {'findings':>9}")
    for package in arguments.packages:
        files, lines, elapsed, ratio, memory, findings, errors = measured(arguments.site_packages, package,
                                                                          arguments.repeat)
        print(f"{package:32} {files:6} {lines:8} {elapsed:8.1f} {ratio:8.1f} {memory:8.0f} {len(findings):9}")
        found.extend(findings)
        unlinted.extend(errors)
        totals = [totals[0] + files, totals[1] + lines, totals[2] + elapsed, totals[3] + elapsed / ratio,
                  totals[4] + len(findings)]
    print(f"{'total':32} {totals[0]:6} {totals[1]:8} {totals[2]:8.1f} {totals[2] / totals[3]:8.1f} {'':8} "
          f"{totals[4]:9}\n")
    for finding in found:
        print(f"{finding['path']}:{finding['line']}: {finding['code']} {finding['message']}\n")
    for error in unlinted:
        print(f"not linted: {error}")


if __name__ == "__main__":
    main()
