"""`pytree-lint verify`: prove each finding by running it, in a fresh process per file.

The static findings are claims; for each file, a child of the harness process (`python -m
pytree_lint.runtime.harness`, which imports JAX once and forks) imports the module and runs the probe the
finding's rule names (see probes.py), observing under `jax.jit` the symptom the rule predicts. Each finding
gets a status: confirmed, unconfirmed (the symptom did not show, and the evidence says what was seen),
no-example (the module gives no inputs to run) or error (the module did not import, crashed the interpreter
or timed out). User code runs only here, when asked to, in a child process with a timeout and a memory limit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..config import ConfigError, ConfigLoader
from ..engine import Finding, LintError, lint_file
from ..faces.formats import positive_seconds, write_report
from ..files import collect_files
from .observe import STATUSES

DEFAULT_TIMEOUT = 300.0


@dataclass(frozen=True)
class Verified:
    finding: Finding
    status: str
    evidence: str


class Harness:
    """One harness process (see harness.py): it imports JAX once and forks a child per module it is sent.
    Started on first use; started again if it ever dies."""

    def __init__(self, examples: str | None, compilations: str):
        """`compilations`: a folder for the run's compiled programs (see compiled_once)."""
        self.examples = os.path.abspath(examples) if examples is not None else None
        self.compilations = compilations
        self.process: subprocess.Popen | None = None

    def _started(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            env = compiled_once(dict(os.environ), self.compilations)
            env.setdefault("JAX_PLATFORMS", "cpu")
            self.process = subprocess.Popen([sys.executable, "-m", "pytree_lint.runtime.harness"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        return self.process

    def run(self, path: str, findings: list[Finding], timeout: float) -> dict:
        request = {"path": os.path.abspath(path), "timeout": timeout, "examples": self.examples,
                   "findings": [{"code": f.code, "line": f.line, "target": f.target, "member": f.member}
                                for f in findings]}
        process = self._started()
        assert process.stdin is not None and process.stdout is not None  # both are pipes
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            reply = process.stdout.readline()
            return json.loads(reply)
        except (OSError, ValueError):
            self.close()
            return {"ended": "harness", "tail": "the verifier's harness process stopped unexpectedly"}

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def compiled_once(env: dict[str, str], folder: str) -> dict[str, str]:
    """The harness's environment, with JAX's persistent compilation cache in `folder` unless the user keeps one
    of their own: each module's child starts with JAX's caches empty and compiles again the programs the other
    modules compiled (`jnp.zeros(3)`, the probes' own jitted calls): 7 compilations took 130 of a module's
    300 ms. The probes count traces, which the cache leaves as they are; only XLA's compiling is saved."""
    if "JAX_COMPILATION_CACHE_DIR" not in env:
        env["JAX_COMPILATION_CACHE_DIR"] = folder
        env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"  # the default, 1 s, keeps none of these
    return env


def run_probes(harness: Harness, path: str, findings: list[Finding], timeout: float) -> list[Verified]:
    """Probe the findings of one file in a child of the harness; failures become `error` entries."""
    reply = harness.run(path, findings, timeout)
    ended = reply["ended"]
    if ended == "ok" and len(reply["outcomes"]) == len(findings):
        return [Verified(f, o["status"], o["evidence"]) for f, o in zip(findings, reply["outcomes"])]
    if ended == "timeout":
        reason = f"the module did not finish within {timeout:g} s"
    elif ended == "signal":
        reason = f"the interpreter was killed by signal {reply['signal']}"
    elif ended == "exit" and reply["code"] != 0:
        tail = (reply["tail"].strip().splitlines() or ["no output"])[-1]
        reason = f"the interpreter exited with status {reply['code']}: {tail}"
    elif ended == "harness":
        reason = reply["tail"]
    else:
        reason = "the probe gave no result (the module may exit early)"
    return [Verified(f, "error", reason) for f in findings]


def _text(results: list[Verified]) -> str:
    return "".join(f"{r.finding.path}:{r.finding.line}:{r.finding.column + 1}: {r.finding.code} "
                   f"{r.status}: {r.evidence}\n" for r in results)


def _json(results: list[Verified]) -> str:
    rows = [{"path": r.finding.path, "line": r.finding.line, "column": r.finding.column + 1,
             "code": r.finding.code, "message": r.finding.message, "status": r.status, "evidence": r.evidence}
            for r in results]
    return json.dumps(rows, indent=2) + "\n"


def _probed(work: list[tuple[str, list[Finding]]], options) -> list[list[Verified]]:
    """Every file's findings probed, `--jobs` files at a time, each worker thread with a harness of its own."""
    local = threading.local()
    harnesses: list[Harness] = []

    def probe(job: tuple[str, list[Finding]]) -> list[Verified]:
        if not hasattr(local, "harness"):
            local.harness = Harness(options.examples, compilations)
            harnesses.append(local.harness)
        return run_probes(local.harness, job[0], job[1], options.timeout)

    with tempfile.TemporaryDirectory(prefix="pytree-lint-verify-") as compilations:
        try:
            with ThreadPoolExecutor(max_workers=max(1, min(options.jobs, len(work)))) as pool:
                return list(pool.map(probe, work))
        finally:
            for harness in harnesses:
                harness.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="pytree-lint verify",
        description="Lint, then run each finding under jax.jit (using the module's examples() hook) and "
                    "report whether the predicted symptom shows. Runs the linted code: use on code you trust.")
    parser.add_argument("paths", nargs="*", default=["."])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT,
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
    batches = _probed(work, options)
    results = sorted((r for batch in batches for r in batch), key=lambda r: r.finding.order)
    written = write_report((_json if options.format == "json" else _text)(results))
    counts = {status: sum(r.status == status for r in results) for status in STATUSES}
    noun = "finding" if len(results) == 1 else "findings"
    print(f"pytree-lint verify: {len(results)} {noun}: " + ", ".join(f"{n} {s}" for s, n in counts.items()),
          file=sys.stderr)
    for path, reason in sorted(problems):
        print(f"{path}: error: {reason}", file=sys.stderr)
    if problems or counts["error"] or not written:
        return 2
    return 1 if counts["confirmed"] else 0
