"""The process that runs user code for `pytree-lint verify`: `python -m pytree_lint.runtime.harness`.

It imports JAX once, then serves requests, one JSON line each on stdin (a module's path, its findings, an
examples file, a timeout), and answers each with one JSON line on stdout. For every request it forks a child
that imports the module (running it: only on request) and runs each finding's probe (see probes.py). A forked
child starts from this process as it was after `import jax` and before any user code or computation, so each
module still meets JAX's process-wide caches (keyed by treedefs) empty, as in a fresh interpreter, without
paying JAX's import again (about 2 s against 0.3 s per module).

The child is made a session leader, so the module's own children die with it; it reports on a pipe of its own
(never stdout, which the module may write to); its stdout and stderr go to a file of which only the tail is read.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

MEMORY_LIMIT = 8 * 2**30  # bytes of address space for a child (JAX on CPU needs about 1 GiB)
OUTPUT_TAIL = 4096  # bytes of the module's own output read back for an error's evidence


def load_module(path: str):
    """The module of a file, executed: a module of a package under its dotted name (imported from the
    package's folder, as `python -m pkg.mod` would), so its relative imports work; a module alone as itself."""
    from ..analysis.project.modules import module_location

    root, dotted, is_package = module_location(Path(path).resolve())
    if "." in dotted or is_package:
        sys.path.insert(0, str(root))
        return importlib.import_module(dotted)
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)  # a module, and an examples file importing it, find their neighbours
    name = "pytree_lint_probe_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def probe_findings(path: str, findings: list[dict], examples_path: str | None) -> list[dict]:
    """Each finding's outcome, as a dict: what a forked child computes."""
    from ..rules import RULES_BY_CODE
    from .observe import Outcome, first_line, watch_tree_calls

    probes = [RULES_BY_CODE[f["code"]].runtime for f in findings if f["code"] in RULES_BY_CODE]
    if any(getattr(probe, "watches_tree_calls", False) for probe in probes):
        watch_tree_calls()  # before the module binds the tree functions it imports
    try:
        module = load_module(path)
        examples = load_module(examples_path) if examples_path else None
    except BaseException as error:  # the module's own import failure is the evidence
        outcomes = [Outcome("error", f"importing the module raised {first_line(error)}")] * len(findings)
    else:
        outcomes = []
        for finding in findings:
            rule = RULES_BY_CODE.get(finding["code"])
            if rule is None or rule.runtime is None:
                outcomes.append(Outcome("no-example", f"no runtime probe for {finding['code']}"))
            else:
                outcomes.append(rule.runtime.run(module, finding, examples))
    return [{"status": outcome.status, "evidence": outcome.evidence} for outcome in outcomes]


def _child(request: dict, results: int, output: int) -> None:
    """In the forked child: run the probes and write their outcomes to the `results` pipe. Never returns."""
    status = 1
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output, 1)
        os.dup2(output, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the module's stdin, open while it runs
        _limit_memory()
        outcomes = probe_findings(request["path"], request["findings"], request.get("examples"))
        payload = json.dumps(outcomes).encode()
        while payload:
            payload = payload[os.write(results, payload):]
        status = 0
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _limit_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform: the timeout still bounds the run


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """What the child writes on `fd` until it closes it; (data, False) when the deadline passes first."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks), False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks), True
            chunks.append(chunk)


def _tail(output) -> str:
    output.seek(0, os.SEEK_END)
    output.seek(max(0, output.tell() - OUTPUT_TAIL))
    return output.read().decode("utf-8", "replace")


def preload_libraries(path: str) -> None:
    """Import here, before forking, the pytree libraries (knowledge/'s, JAX aside) the module imports: each
    child then starts with them, as with JAX (`flax.nnx` takes 0.8 s to import: once per harness, not once
    per module). A library that fails to import is left to the child, which reports it."""
    import ast

    from ..knowledge import LIBRARY_PACKAGES

    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            if name.split(".", 1)[0] in LIBRARY_PACKAGES and name not in sys.modules:
                try:
                    importlib.import_module(name)
                except Exception:
                    pass


def serve_one(request: dict) -> dict:
    """Fork a child for one module and say how it ended: its outcomes, a timeout, a signal or an exit status."""
    preload_libraries(request["path"])
    with tempfile.TemporaryFile() as output:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _child(request, write_end, output.fileno())
        os.close(write_end)
        try:
            data, finished = _read_until(read_end, time.monotonic() + request["timeout"])
        finally:
            os.close(read_end)
        if not finished:
            _kill_group(pid)
        _, status = os.waitpid(pid, 0)
        _kill_group(pid)  # what the module started and left behind
        if not finished:
            return {"ended": "timeout"}
        if os.WIFSIGNALED(status):
            return {"ended": "signal", "signal": os.WTERMSIG(status)}
        code = os.WEXITSTATUS(status)
        if code != 0 or not data:
            return {"ended": "exit", "code": code, "tail": _tail(output)}
        return {"ended": "ok", "outcomes": json.loads(data)}


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is empty already


def main() -> int:
    import jax  # noqa: F401 - imported once here, before any fork: every child starts with it

    from .. import rules  # noqa: F401 - the probes, likewise

    for line in sys.stdin:
        reply = serve_one(json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
