"""The precision table's raw half: lint installed JAX projects whole, with default settings, and list every
default finding to judge (README's "Precision on real code" holds the verdicts).

    python benchmarks/precision.py SITE_PACKAGES flax equinox netket ...

Each project is a package folder under SITE_PACKAGES, linted as the CLI lints it (`pytree-lint --format
json PKG` run from SITE_PACKAGES, with an empty cache as on a first run), in this interpreter, from bytecode.
Prints one row per project (files, lines, seconds, the time over the `ast.parse` time of its files, the peak
memory of the largest process, findings) and then each finding, for reading; install the projects into a
scratch venv.
"""

from __future__ import annotations

import ast
import json
import os
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
            except (SyntaxError, ValueError):
                pass
    return time.perf_counter() - started


def lint(site_packages: Path, package: str) -> tuple[int, int, float, float, float, list[dict]]:
    files = sorted((site_packages / package).rglob("*.py"))
    lines = sum(len(path.read_bytes().splitlines()) for path in files)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryFile("w+") as output, tempfile.TemporaryDirectory() as cache:
        env["PYTREE_LINT_CACHE_DIR"] = cache
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "pytree_lint", "--format", "json", package],
                                   cwd=site_packages, env=env, stdout=output, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        returncode = os.waitstatus_to_exitcode(status)
        if returncode not in (0, 1):
            sys.exit(f"{package}: exit {returncode}\n{process.stderr.read() if process.stderr else ''}")
        output.seek(0)
        findings = json.load(output)
    # ru_maxrss (kilobytes on Linux) is the largest of the process and the workers it waited for.
    return len(files), lines, elapsed, parse_time(files), usage.ru_maxrss / 1024, findings


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    site_packages, packages = Path(sys.argv[1]), sys.argv[2:]
    found, totals = [], [0, 0, 0.0, 0.0, 0]
    print(f"{'project':32} {'files':>6} {'lines':>8} {'seconds':>8} {'x parse':>8} {'peak MB':>8} {'findings':>9}")
    for package in packages:
        files, lines, elapsed, floor, memory, findings = lint(site_packages, package)
        print(f"{package:32} {files:6} {lines:8} {elapsed:8.1f} {elapsed / floor:8.1f} {memory:8.0f} "
              f"{len(findings):9}")
        found.extend(findings)
        totals = [totals[0] + files, totals[1] + lines, totals[2] + elapsed, totals[3] + floor,
                  totals[4] + len(findings)]
    print(f"{'total':32} {totals[0]:6} {totals[1]:8} {totals[2]:8.1f} {totals[2] / totals[3]:8.1f} {'':8} "
          f"{totals[4]:9}\n")
    for finding in found:
        print(f"{finding['path']}:{finding['line']}: {finding['code']} {finding['message']}\n")


if __name__ == "__main__":
    main()
