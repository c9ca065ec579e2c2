"""The fixtures are real JAX programs: each imports, and its examples flatten as pytrees.

This keeps the fixtures honest; `pytree-lint verify` (the runtime verifier, tests/test_verify.py) runs
them under `jax.jit` and confirms each finding's symptom. All fixtures are imported by one interpreter (one
JAX import), each under a name of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import FIXTURES, fixture_files, unmet_requirement

pytest.importorskip("jax")

# Libraries some fixtures use; the test extra installs the light ones, the others are skipped when absent.
OPTIONAL_FRAMEWORKS = {"flax", "equinox", "jax_dataclasses", "simple_pytree", "numpyro", "chex", "penzai",
                       "netket", "jax_md", "tjax", "genjax", "distrax", "tensorflow_probability"}
PROBE = """
import importlib.util, json, sys, traceback
import jax
for number, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"fixture_under_test_{number}", path)
    module = importlib.util.module_from_spec(spec)
    report = {"examples": 0}
    try:
        spec.loader.exec_module(module)
        if hasattr(module, "examples"):
            examples = module.examples()
            report["examples"] = len(examples)
            report["leaves"] = [len(jax.tree.leaves(e)) for e in examples]
    except ModuleNotFoundError as error:
        report = {"missing": error.name}
    except BaseException:
        report = {"error": traceback.format_exc()[-2000:]}
    print(json.dumps({path: report}), flush=True)
"""


@pytest.fixture(scope="module")
def reports() -> dict[str, dict]:
    paths = [str(path) for path in fixture_files()]
    result = subprocess.run([sys.executable, "-c", PROBE, *paths], capture_output=True, text=True,
                            timeout=600, env={"JAX_PLATFORMS": "cpu", "PATH": ""})
    assert result.returncode == 0, result.stderr[-2000:]
    found = {}
    for line in result.stdout.splitlines():
        if line.startswith("{"):
            found.update(json.loads(line))
    return found


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_is_a_runnable_jax_program(path, reports):
    unmet = unmet_requirement(path)
    if unmet:
        pytest.skip(unmet)
    report = reports[str(path)]
    assert "error" not in report, report["error"]
    if "missing" in report:
        assert report["missing"].split(".")[0] in OPTIONAL_FRAMEWORKS, report
        pytest.skip(f"needs {report['missing']}, which is not installed")
    if path.name.startswith("bad_") and "def examples(" in path.read_text():
        assert report["examples"] >= 2, "examples() must give at least two successive inputs"
