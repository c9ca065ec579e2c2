"""`pytree-lint verify`: prove each finding by running it, in a fresh interpreter per file.

The static findings are claims; for each, a child process (`python -m pytree_lint.runtime.harness`)
imports the module and runs the probe the finding's rule names (see probes.py), observing under `jax.jit`
the symptom the rule predicts. Each finding gets a status: confirmed, unconfirmed (the symptom did not show, and the
evidence says what was seen), no-example (the module gives no inputs to run) or error (the module did not
import, crashed the interpreter or timed out). User code runs only here, when asked to, in a child
process with a timeout and a memory limit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..config import ConfigError, ConfigLoader
from ..engine import Finding, LintError, lint_file
from ..files import collect_files
from .observe import STATUSES

DEFAULT_TIMEOUT = 300.0
MEMORY_LIMIT = 8 * 2**30  # bytes of address space for a child (JAX on CPU needs about 1 GiB)


@dataclass(frozen=True)
class Verified:
    finding: Finding
    status: str
    evidence: str


def _limit_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform: the timeout still bounds the run


def run_probes(path: str, findings: list[Finding], timeout: float, examples: str | None = None) -> list[Verified]:
    """Probe the findings of one file in a child interpreter; failures become `error` entries.
    `examples`: a file whose `examples()` / `examples_<ClassName>()` give the inputs, outside the library."""
    request = json.dumps([{"code": f.code, "line": f.line, "target": f.target, "member": f.member}
                          for f in findings])
    env = dict(os.environ)
    env.setdefault("JAX_PLATFORMS", "cpu")
    command = [sys.executable, "-m", "pytree_lint.runtime.harness", path]
    if examples is not None:
        command += ["--examples", os.path.abspath(examples)]
    try:
        child = subprocess.run(command, input=request,
                               capture_output=True, text=True, timeout=timeout, env=env,
                               preexec_fn=_limit_memory if os.name == "posix" else None)
    except subprocess.TimeoutExpired:
        return [Verified(f, "error", f"the module did not finish within {timeout:g} s") for f in findings]
    reason = None
    if child.returncode < 0:
        reason = f"the interpreter was killed by signal {-child.returncode}"
    elif child.returncode != 0:
        tail = (child.stderr.strip().splitlines() or ["no output"])[-1]
        reason = f"the interpreter exited with status {child.returncode}: {tail}"
    else:
        try:
            outcomes = json.loads(child.stdout.strip().splitlines()[-1])
            return [Verified(f, o["status"], o["evidence"]) for f, o in zip(findings, outcomes, strict=True)]
        except (IndexError, ValueError, KeyError, TypeError):
            reason = "the probe gave no result (the module may write to stdout or exit early)"
    return [Verified(f, "error", reason) for f in findings]


def _text(results: list[Verified]) -> str:
    return "".join(f"{r.finding.path}:{r.finding.line}:{r.finding.column + 1}: {r.finding.code} "
                   f"{r.status}: {r.evidence}\n" for r in results)


def _json(results: list[Verified]) -> str:
    rows = [{"path": r.finding.path, "line": r.finding.line, "column": r.finding.column + 1,
             "code": r.finding.code, "message": r.finding.message, "status": r.status, "evidence": r.evidence}
            for r in results]
    return json.dumps(rows, indent=2) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="pytree-lint verify",
        description="Lint, then run each finding under jax.jit (using the module's examples() hook) and "
                    "report whether the predicted symptom shows. Runs the linted code: use on code you trust.")
    parser.add_argument("paths", nargs="*", default=["."])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds a module may take (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="files verified at once")
    parser.add_argument("--select")
    parser.add_argument("--ignore")
    parser.add_argument("--examples", metavar="FILE",
                        help="a file defining examples() or examples_<ClassName>() for the classes it imports, "
                             "used where the linted module has none")
    options = parser.parse_args(argv)
    if options.examples is not None and not os.path.isfile(options.examples):
        parser.error(f"--examples: no such file: {options.examples}")
    loader = ConfigLoader(select=options.select, ignore=options.ignore)
    work = []
    try:
        files, problems = collect_files(options.paths, loader)
        for path in files:
            if path.endswith(".ipynb"):
                continue  # a notebook is no module to import: run its cells in Jupyter
            try:
                findings = lint_file(path, loader.for_file(path))
            except LintError as error:
                problems.append((path, str(error)))
                continue
            if findings:
                work.append((path, findings))
    except ConfigError as error:
        print(f"pytree-lint: error: {error}", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        batches = list(pool.map(lambda job: run_probes(job[0], job[1], options.timeout, options.examples), work))
    results = sorted((r for batch in batches for r in batch), key=lambda r: r.finding.order)
    sys.stdout.write((_json if options.format == "json" else _text)(results))
    counts = {status: sum(r.status == status for r in results) for status in STATUSES}
    print(f"pytree-lint verify: {len(results)} findings: " + ", ".join(f"{n} {s}" for s, n in counts.items()),
          file=sys.stderr)
    for path, reason in sorted(problems):
        print(f"{path}: error: {reason}", file=sys.stderr)
    if problems or counts["error"]:
        return 2
    return 1 if counts["confirmed"] else 0
