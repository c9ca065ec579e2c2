"""Which files a run lints: the paths named, and the Python files under the folders named."""

from __future__ import annotations

import os

from .config import Config, ConfigLoader

SKIPPED_DIRECTORIES = frozenset({
    ".git", ".hg", ".svn", "__pycache__", "build", "dist", ".tox", ".nox", ".venv", "venv", ".eggs",
    "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages",
})
PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")


def _skipped_directory(path: str, name: str, config: Config) -> bool:
    return (name in SKIPPED_DIRECTORIES or name.endswith(".egg-info")
            or os.path.exists(os.path.join(path, "pyvenv.cfg")) or config.excluded(path))


def collect_files(paths: list[str], loader: ConfigLoader) -> tuple[list[str], list[tuple[str, str]]]:
    """Python files under `paths` (explicit files always count), and the paths that do not exist. Each
    file and folder is judged by its own configuration's excludes. Raises ConfigError."""
    files: list[str] = []
    missing: list[tuple[str, str]] = []
    for path in paths:
        if os.path.isdir(path):
            for root, directories, names in os.walk(path):
                config = loader.for_folder(root)
                directories[:] = sorted(d for d in directories
                                        if not _skipped_directory(os.path.join(root, d), d, config))
                for name in sorted(names):
                    full = os.path.normpath(os.path.join(root, name))
                    if name.endswith(PYTHON_SUFFIXES) and not config.excluded(full):
                        files.append(full)
        elif os.path.lexists(path):
            if not loader.for_file(path).excluded(path):
                files.append(os.path.normpath(path))
        else:
            missing.append((path, "no such file or directory"))
    return list(dict.fromkeys(files)), missing
