"""README's editor setups, run in the real editors (headless), each skipped when the editor is not
installed: the snippet from README, a file with a misuse, and the diagnostic the editor receives."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MISUSE_MODULE

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_block(language: str, after: str) -> str:
    """The first ```language block of README after the line containing `after`."""
    text = README.read_text()
    return re.search(rf"```{language}\n(.*?)```", text[text.index(after):], re.DOTALL).group(1)


def editor_environment(home: Path) -> dict[str, str]:
    """The editor finds `pytree-lint` on PATH (this interpreter's scripts) and no config of the user's."""
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"), "XDG_STATE_HOME": str(home / ".local/state"),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "box.py").write_text(MISUSE_MODULE)
    return root


def neovim_version() -> tuple[int, int] | None:
    if shutil.which("nvim") is None:
        return None
    first = subprocess.run(["nvim", "--version"], capture_output=True, text=True).stdout.split("\n", 1)[0]
    match = re.search(r"v(\d+)\.(\d+)", first)
    return (int(match.group(1)), int(match.group(2))) if match else None


@pytest.mark.skipif(neovim_version() is None, reason="Neovim (nvim) is not installed")
def test_neovim_shows_a_diagnostic_with_readmes_setup(tmp_path):
    root = project(tmp_path)
    setup = readme_block("lua", "Neovim 0.10 or newer" if neovim_version() >= (0, 10) else "Neovim 0.7 to 0.9")
    (tmp_path / "init.lua").write_text(setup)
    report = tmp_path / "diagnostics.txt"
    wait = (f"lua vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100); "
            f"local out = {{}}; for _, d in ipairs(vim.diagnostic.get(0)) do "
            f"table.insert(out, d.lnum .. ':' .. d.col .. ':' .. tostring(d.code or d.user_data.lsp.code)) end; "
            f"vim.fn.writefile(out, '{report}')")
    subprocess.run(["nvim", "--headless", "-u", str(tmp_path / "init.lua"), "box.py", "-c", wait, "-c", "qa!"],
                   cwd=root, env=editor_environment(tmp_path), timeout=120, capture_output=True)
    assert report.read_text().split() == ["12:27:PTL101", "12:39:PTL102"]


def emacs_has_eglot() -> bool:
    if shutil.which("emacs") is None:
        return False
    probe = subprocess.run(["emacs", "--batch", "--eval", "(progn (package-initialize) (require 'eglot))"],
                           capture_output=True, timeout=60)
    return probe.returncode == 0


@pytest.mark.skipif(not emacs_has_eglot(), reason="Emacs with eglot is not installed")
def test_emacs_eglot_shows_a_diagnostic_with_readmes_setup(tmp_path):
    root = project(tmp_path)
    setup = readme_block("elisp", "Emacs 29+")
    report = tmp_path / "diagnostics.txt"
    # Batch Emacs runs no command loop: the hooks it runs after a command (where eglot-ensure connects) and
    # flymake's idle check are run by hand.
    script = f"""
(package-initialize)
{setup}
(find-file "{root / 'box.py'}")
(run-hooks 'post-command-hook)
(with-timeout (60 nil)
  (while (not (flymake-diagnostics)) (flymake-start) (accept-process-output nil 0.1)))
(let ((found (mapcar (lambda (d)
                       (let ((text (flymake-diagnostic-text d)))
                         (string-match "PTL[0-9]+" text)
                         (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d)) (match-string 0 text))))
                     (flymake-diagnostics))))
  (with-temp-file "{report}" (insert (mapconcat #'identity found "\\n"))))
(kill-emacs 0)
"""
    (tmp_path / "run.el").write_text(script)
    ran = subprocess.run(["emacs", "--batch", "-l", str(tmp_path / "run.el")], cwd=root,
                         env=editor_environment(tmp_path), timeout=120, capture_output=True, text=True)
    assert report.exists(), ran.stderr[-2000:]
    assert sorted(report.read_text().split()) == ["13:PTL101", "13:PTL102"]
