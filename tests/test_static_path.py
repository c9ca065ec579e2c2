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
        from pytree_lint.faces.cli import main
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


def test_libcst_is_loaded_only_when_a_fix_is_asked_for(tmp_path):
    """The analysis runs on `ast`: flake8 and the CLI's report never load libcst, even on a file whose
    finding has a fix; asking for the fixes (--diff, JSON) loads it."""
    (tmp_path / "box.py").write_text(textwrap.dedent("""\
        import jax

        @jax.tree_util.register_pytree_node_class
        class Box:
            def __init__(self, x):
                self.x = x
                self.sizes = [1, 2]

            def tree_flatten(self):
                return (self.x,), self.sizes

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*children)

            def grow(self, size):
                self.sizes.append(size)
        """))
    probe = textwrap.dedent(f"""\
        import contextlib, io, sys
        from pytree_lint.faces.cli import main
        from pytree_lint.faces.flake8 import Plugin
        path = {str(tmp_path / "box.py")!r}
        lines = open(path).readlines()
        found = list(Plugin(None, lines, path).run())
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--no-cache", path])
        print(len(found), "libcst" in sys.modules)
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--no-cache", "--format", "json", path])
        print("libcst" in sys.modules)
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["1", "False", "True"], result.stderr
