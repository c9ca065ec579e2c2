"""The fixtures are real JAX programs: each imports, and its examples flatten as pytrees.

This keeps the fixtures honest; `pytree-lint verify` (the runtime verifier, tests/test_verify.py) runs
them under `jax.jit` and confirms each finding's symptom.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import FIXTURES, fixture_files

pytest.importorskip("jax")

# Libraries some fixtures use; the test extra installs the light ones, the others are skipped when absent.
OPTIONAL_FRAMEWORKS = {"flax", "equinox", "jax_dataclasses", "simple_pytree", "numpyro", "chex", "penzai",
                       "netket", "jax_md", "tjax", "genjax", "distrax"}
PROBE = """
import importlib.util, json, sys
import jax
path = sys.argv[1]
spec = importlib.util.spec_from_file_location("fixture_under_test", path)
module = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(module)
except ModuleNotFoundError as error:
    print(json.dumps({"missing": error.name}))
    sys.exit(0)
report = {"examples": 0}
if hasattr(module, "examples"):
    examples = module.examples()
    report["examples"] = len(examples)
    report["leaves"] = [len(jax.tree.leaves(e)) for e in examples]
print(json.dumps(report))
"""


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_is_a_runnable_jax_program(path):
    result = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                            timeout=120, env={"JAX_PLATFORMS": "cpu", "PATH": ""})
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.splitlines()[-1])
    if "missing" in report:
        assert report["missing"].split(".")[0] in OPTIONAL_FRAMEWORKS, report
        pytest.skip(f"needs {report['missing']}, which is not installed")
    if path.name.startswith("bad_") and "def examples(" in path.read_text():
        assert report["examples"] >= 2, "examples() must give at least two successive inputs"
