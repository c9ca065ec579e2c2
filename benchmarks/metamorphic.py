"""The metamorphic suite's survival table, outside pytest: `python benchmarks/metamorphic.py`.

Every fixture goes through every rewrite of tests/rewrites.py; the table says, per rewrite and per rule, how
many variants were made and how many kept their findings (README's table is this script's output).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rewrites import REWRITES, survival_table
from test_metamorphic import CASES, failed_variants, problems, rule_of


def main() -> None:
    started, rows = time.perf_counter(), []
    with tempfile.TemporaryDirectory() as scratch:
        for number, (kind, case) in enumerate((kind, case) for kind in REWRITES for case in CASES):
            made, wrong = problems(kind, case, Path(scratch) / str(number))
            rows.append((kind, rule_of(case), made, made - len(failed_variants(wrong))))
    print(survival_table(rows))
    print(f"\n{len(rows)} (rewrite, fixture) pairs in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
