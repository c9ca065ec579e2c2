"""The child process of `pytree-lint verify`: `python -m pytree_lint.runtime.harness FILE`, the file's
findings as JSON on stdin, one outcome per finding as JSON on the last line of stdout.

It imports the module (running it: only on request), and each finding's rule probes it (see probes.py).
JAX keeps process-wide caches keyed by treedefs, so every file gets a fresh interpreter.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import sys
from typing import Any

from ..rules import RULES_BY_CODE
from .observe import Outcome, first_line, watch_tree_calls


def load_module(path: str):
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)  # a module, and an examples file importing it, find their neighbours
    name = "pytree_lint_probe_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def probe_finding(module: Any, finding: dict, examples: Any = None) -> Outcome:
    rule = RULES_BY_CODE.get(finding["code"])
    if rule is None or rule.runtime is None:
        return Outcome("no-example", f"no runtime probe for {finding['code']}")
    return rule.runtime.run(module, finding, examples)


def main() -> int:
    arguments = sys.argv[1:]
    path, examples_path = arguments[0], arguments[2] if arguments[1:2] == ["--examples"] else None
    findings = json.load(sys.stdin)
    probes = [RULES_BY_CODE[f["code"]].runtime for f in findings if f["code"] in RULES_BY_CODE]
    if any(getattr(probe, "watches_tree_calls", False) for probe in probes):
        watch_tree_calls()  # before the module binds the tree functions it imports
    try:
        module = load_module(path)
        examples = load_module(examples_path) if examples_path else None
    except BaseException as error:  # the module's own import failure is the evidence
        outcomes = [Outcome("error", f"importing the module raised {first_line(error)}")] * len(findings)
    else:
        outcomes = [probe_finding(module, finding, examples) for finding in findings]
    sys.stdout.write("\n" + json.dumps([dataclasses.asdict(o) for o in outcomes]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
