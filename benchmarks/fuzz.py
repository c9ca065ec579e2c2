"""The fuzz test's long run: `python benchmarks/fuzz.py [PROJECTS] [FIRST_SEED]` (default 10,000 from seed 0).

Lints every file of each generated multi-module project (tests/generated_projects.py) as part of its
project, each project under tests/test_fuzz.py's time bound, and prints how many projects and files it
linted, the internal errors and the hangs (each with its seed, to replay with `project(seed)`), and the
slowest project.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from generated_projects import project
from test_fuzz import TIME_BOUND, Hang, lint_project, within_time_bound


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    started, files, slowest, problems = time.perf_counter(), 0, (0.0, None), []
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["PYTREE_LINT_CACHE_DIR"] = str(Path(scratch) / "cache")
        for seed in range(first, first + count):
            generated = project(seed)
            files += sum(name.endswith(".py") for name in generated)
            began = time.perf_counter()
            try:
                problems.extend(f"seed {seed}: {crash}" for crash in within_time_bound(
                    TIME_BOUND, lint_project, generated, Path(scratch) / f"p{seed}"))
            except Hang as hang:
                problems.append(f"seed {seed}: {hang}")
            slowest = max(slowest, (time.perf_counter() - began, seed))
    for problem in problems:
        print(problem)
    print(f"{count} projects ({files} files) from seed {first} in {time.perf_counter() - started:.0f} s: "
          f"{len(problems)} crashes or hangs; slowest project {slowest[0]:.2f} s (seed {slowest[1]})")


if __name__ == "__main__":
    main()
