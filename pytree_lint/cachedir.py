"""Where pytree-lint keeps its caches, which build of it wrote them, and how a cache file is written: shared
by the per-file result cache (cache.py) and the module summaries (analysis/project/summary.py)."""

from __future__ import annotations

import itertools
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from .digest import hasher
from .diskio import read_regular

# Entries are spread over 16 folders named by their key's first hex digit: a few thousand files each for the
# largest projects, and a cold run makes (and each process looks for) 16 folders per cache, not 256 (a cold
# netket run over two workers made 583 `mkdir` calls, 177 of them finding the other worker's folder; now 69).
SHARD_DIGITS = 1


def entry_path(directory: Path, key: str) -> Path:
    """Where the cache entry of a hex `key` lives in `directory`."""
    return directory / key[:SHARD_DIGITS] / f"{key[SHARD_DIGITS:]}.json"


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
    """A hash of this package's source files, by name, size and modification time (each process asks, so
    it only stats them): results cached by one build of the linter stay with it, and an edited checkout
    invalidates them."""
    digest = hasher()
    pending = [Path(__file__).parent]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir() and entry.name != "__pycache__":
                    pending.append(Path(entry.path))
                elif entry.name.endswith(".py"):
                    stat = entry.stat()
                    digest.update(f"{entry.path}|{stat.st_size}|{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


_WRITES = itertools.count()
_FOLDERS_MADE: set[Path] = set()  # made (or found) by this process: a cold run writes hundreds of files


def _new_tag() -> None:
    """What makes this process's temporary names its own: its id and a random part (tempfile's import alone
    would cost a first keystroke 4 ms), made once, not per write (each was two system calls)."""
    global _tag
    _tag = f"{os.getpid()}.{os.urandom(4).hex()}"


_tag = ""
_new_tag()
if hasattr(os, "register_at_fork"):  # a forked pool worker is a process of its own
    os.register_at_fork(after_in_child=_new_tag)
# A cache file is written as bytes by the descriptor: Python's `open` added three system calls to each of the
# thousand writes of a cold run (a terminal test, a seek, a second status).
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def read_json(path: Path):
    """The JSON data of a cache file; raises OSError, or ValueError for a damaged one."""
    return json.loads(read_regular(path))


def write_json(path: Path, data) -> bool:
    """Write JSON atomically (a temporary file renamed): parallel runs and flake8's workers never read half
    a file. Whether it was written: a failure is otherwise ignored (the caches only ever save time)."""
    try:
        text = json.dumps(data)  # `json.dump` would stream through the pure-Python encoder
    except (TypeError, ValueError):
        return False
    temporary = f"{path}.{_tag}.{next(_WRITES)}.tmp"
    try:
        if path.parent not in _FOLDERS_MADE:
            path.parent.mkdir(parents=True, exist_ok=True)
            _FOLDERS_MADE.add(path.parent)
        descriptor = os.open(temporary, _CREATE, 0o666)
        try:
            unwritten = memoryview(text.encode())
            while unwritten:
                unwritten = unwritten[os.write(descriptor, unwritten):]
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except OSError:
        _FOLDERS_MADE.discard(path.parent)  # removed meanwhile (a cleared cache): made again next time
        try:
            os.remove(temporary)
        except OSError:
            pass
        return False
    return True
