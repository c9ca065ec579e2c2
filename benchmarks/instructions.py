"""Instruction counts of whole-project lints: a measure this machine's neighbours cannot disturb.

Wall and CPU times of the same lint vary by up to 2x here from one run to the next (a shared 2-core host);
the count of instructions a run executes (valgrind's cachegrind, without its cache simulation) varies by
well under 1%. For each package of a `site-packages` folder it prints, in billions of instructions: the floor
(`ast.parse` of every file, interpreter start-up taken off), a cold run with 1 job, and a cold run with 2
jobs as its critical path, each also over the floor. A forked worker starts with a copy of its parent's
counters, and the run's own process lints beside it: the critical path is the larger of the two processes'
counts (the worker's misses what the run's process does once both are done: collecting the results and
writing the report, a few millions). Memory effects (page faults, cache misses) are not counted: check a
change's wall time too, interleaved.

    python benchmarks/instructions.py /path/to/site-packages equinox flax netket
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

COUNTED = re.compile(r"==(\d+)== I\s+refs:\s+([\d,]+)")
PARSE_ALL = """
import ast, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        pass
"""


def counts(command: list[str], cwd: str, env: dict[str, str]) -> list[int]:
    """The instructions each process of `command` executed (the first process first)."""
    result = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                             "--cachegrind-out-file=/dev/null", *command],
                            cwd=cwd, env=env, capture_output=True, text=True)
    found = [(int(pid), int(number.replace(",", ""))) for pid, number in COUNTED.findall(result.stderr)]
    return [number for _pid, number in sorted(found)]


def lint_counts(arguments: list[str], site_packages: str, env: dict[str, str]) -> list[int]:
    """`counts` of a cold CLI run (an empty cache of its own)."""
    with tempfile.TemporaryDirectory() as cache:
        return counts([sys.executable, "-m", "pytree_lint", *arguments], site_packages,
                      {**env, "PYTREE_LINT_CACHE_DIR": cache})


def main() -> int:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed (Debian: apt install valgrind)")
    site_packages, packages = sys.argv[1], sys.argv[2:]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    start_up = counts([sys.executable, "-c", "pass"], site_packages, env)[0]
    print(f"{'project':24} {'floor G':>8} {'1 job G':>8} {'x floor':>8} {'2 jobs G':>9} {'x floor':>8}")
    for package in packages:
        floor = counts([sys.executable, "-c", PARSE_ALL, package], site_packages, env)[0] - start_up
        one_job = lint_counts(["--jobs", "1", "--format", "json", package], site_packages, env)[0]
        two_jobs = max(lint_counts(["--jobs", "2", "--format", "json", package], site_packages, env))
        print(f"{package:24} {floor / 1e9:8.2f} {one_job / 1e9:8.2f} {one_job / floor:8.1f} {two_jobs / 1e9:9.2f}"
              f" {two_jobs / floor:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
