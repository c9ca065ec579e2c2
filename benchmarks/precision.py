"""The precision table's raw half: lint installed JAX projects whole, with default settings, and list every
default finding to judge (README's "Precision on real code" holds the verdicts).

    python benchmarks/precision.py SITE_PACKAGES flax equinox netket ...

Each project is a package folder under SITE_PACKAGES, linted as the CLI lints it (`pytree-lint --format
json PKG` run from SITE_PACKAGES, no result cache), in this interpreter. Prints one row per project (files,
lines, seconds, findings) and then each finding, for reading; install the projects into a scratch venv.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path


def lint(site_packages: Path, package: str) -> tuple[int, int, float, list[dict]]:
    files = sorted((site_packages / package).rglob("*.py"))
    lines = sum(len(path.read_bytes().splitlines()) for path in files)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytree_lint", "--format", "json", "--no-cache", package],
                            cwd=site_packages, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"{package}: exit {result.returncode}\n{result.stderr}")
    return len(files), lines, elapsed, json.loads(result.stdout)


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    site_packages, packages = Path(sys.argv[1]), sys.argv[2:]
    found, totals = [], [0, 0, 0.0, 0]
    print(f"{'project':32} {'files':>6} {'lines':>8} {'seconds':>8} {'findings':>9}")
    for package in packages:
        files, lines, elapsed, findings = lint(site_packages, package)
        print(f"{package:32} {files:6} {lines:8} {elapsed:8.1f} {len(findings):9}")
        found.extend(findings)
        totals = [totals[0] + files, totals[1] + lines, totals[2] + elapsed, totals[3] + len(findings)]
    print(f"{'total':32} {totals[0]:6} {totals[1]:8} {totals[2]:8.1f} {totals[3]:9}\n")
    for finding in found:
        print(f"{finding['path']}:{finding['line']}: {finding['code']} {finding['message']}\n")


if __name__ == "__main__":
    main()
