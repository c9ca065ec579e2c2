"""The lint path never imports JAX, never imports or runs the code it lints."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_linting_neither_imports_jax_nor_runs_the_module(tmp_path):
    marker = tmp_path / "module-was-executed"
    (tmp_path / "evil.py").write_text(textwrap.dedent(f"""\
        import jax
        import numpy as np
        open({str(marker)!r}, "w").close()

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self):
                self.table = np.arange(3)

            def tree_flatten(self):
                return (), self.table
        """))
    probe = textwrap.dedent(f"""\
        import sys
        from pytree_lint.cli import main
        status = main([{str(tmp_path / "evil.py")!r}])
        leaked = sorted(name for name in ("jax", "numpy", "evil") if name in sys.modules)
        print("LEAKED", leaked)
        sys.exit(status)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "PTL101" in result.stdout
    assert "LEAKED []" in result.stdout
    assert not marker.exists()


def test_libcst_is_loaded_only_for_files_that_pass_the_prefilter():
    """flake8 loads every plugin in every run: a run over files without pytree code must stay cheap, and
    so must a file that mentions the words but keeps nothing but imports."""
    probe = textwrap.dedent("""\
        import sys
        from pytree_lint.flake8_plugin import Plugin
        list(Plugin(None, ["import os\\n", "print(os.sep)\\n"], "plain.py").run())
        list(Plugin(None, ["import jax\\n", "from jax import jit  # static_argnums, register_pytree\\n"],
                    "imports_only.py").run())
        print("before", "libcst" in sys.modules)
        list(Plugin(None, ["import jax\\n", "jax.tree_util.register_static(int)\\n"], "tree.py").run())
        print("after", "libcst" in sys.modules)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["before", "False", "after", "True"], result.stderr
