"""A content-hash cache of per-file results: an unchanged file costs a read and a hash on the next run.

The key covers the file's bytes, the configuration and a fingerprint of pytree-lint's own code, so an
edited file, another `--select`, or another version of the linter never sees a stale result; each entry
also lists the project modules its findings were read from, with their hashes, so a change to one of
those relints the file. Entries live
in the user cache directory (`PYTREE_LINT_CACHE_DIR` overrides it); any failure to read or write one is
ignored: the cache only ever saves time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from .config import Config


def default_directory() -> Path:
    override = os.environ.get("PYTREE_LINT_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "pytree-lint"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of this package's source: results cached by one build of the linter stay with it."""
    digest = hashlib.sha256()
    package = Path(__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=None)
def _digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class ResultCache:
    def __init__(self, fixes: bool = False, directory: Path | None = None) -> None:
        """`fixes`: whether the results carry fixes (asked for by --fix, --diff and JSON)."""
        self.directory = directory if directory is not None else default_directory()
        self._salt = f"{code_fingerprint()}|fixes={fixes}".encode()

    def key(self, data: bytes, config: Config) -> str:
        """The key of a file's content linted under `config` (each file has its own)."""
        return hashlib.sha256(self._salt + repr(config).encode() + b"\0" + data).hexdigest()

    def unchanged(self, dependencies: dict[str, str]) -> bool:
        """Whether every file a cached result was read from still has the content it had (each file is
        hashed once per run)."""
        return all(_digest(path) == digest for path, digest in dependencies.items())

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key[2:]}.json"

    def get(self, key: str) -> dict | None:
        try:
            with open(self._path(key), encoding="utf-8") as handle:
                return json.load(handle)
        except (OSError, ValueError):
            return None

    def put(self, key: str, entry: dict) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(entry, handle)
            os.replace(temporary, path)
        except OSError:
            pass
