"""Where pytree-lint keeps its caches, which build of it wrote them, and how they are written: a JSON file
(the per-file result cache's manifests, cache.py) or a database of entries (the module summaries,
analysis/project/summary.py)."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
import zlib
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

from .digest import hasher
from .diskio import read_regular


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
_FOLDERS_MADE: set[Path] = set()  # made (or found) by this process: each is made once


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
    """The JSON data of a cache file (written by write_json); raises OSError, or ValueError for a damaged one."""
    text = _unsealed(read_regular(path).decode("ascii", "replace"))
    if text is None:
        raise ValueError(f"{path}: damaged (its checksum does not hold)")
    return json.loads(text)


def write_json(path: Path, data) -> bool:
    """Write JSON atomically (a temporary file renamed): parallel runs and flake8's workers never read half
    a file. Whether it was written: a failure is otherwise ignored (the caches only ever save time)."""
    try:
        text = _sealed(json.dumps(data))  # `json.dump` would stream through the pure-Python encoder
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


def _sealed(text: str) -> str:
    """A cache file's or entry's JSON text with its checksum in front: a damaged one (another tool's write, a
    disk's fault) reads as none. Its name or key already names the build and layout that wrote it, so what
    reads whole needs no check of its shape (walking a module summary's shape cost more than decoding it, and
    a manifest's records 5-8 ms of each warm run over jax)."""
    return f"{zlib.crc32(text.encode()):08x}{text}"


def _unsealed(value) -> str | None:
    """The JSON text of a sealed file or entry whose checksum holds (None otherwise)."""
    if not isinstance(value, str) or len(value) < 8:
        return None
    text = value[8:]
    return text if value[:8] == f"{zlib.crc32(text.encode()):08x}" else None


class EntryDatabase:
    """JSON entries by key in one SQLite file (the standard library's), for caches with an entry per module:
    one file per entry made a cold run create a file per module summary (netket: 490; alternated runs, cold,
    2 jobs: 1.18 s with a file each, 0.80 s with the database; lineax 0.138 s and 0.115 s). Parallel flake8
    workers and forked `--jobs` share it under SQLite's file locks, each transaction's rollback journal in
    memory and nothing synced (a journal file or write-ahead log per process cost lineax 10 ms): it only ever
    saves time. Any failure reads as no entry and writes nothing; a damaged file is removed and made again. A
    connection belongs to its process: closed before a fork, opened on use."""

    _open: ClassVar[dict[Path, EntryDatabase]] = {}

    def __init__(self, path: Path, tables: tuple[str, ...]) -> None:
        self.path, self.tables = path, tables
        self._connection = None
        self._unusable = False  # it could not be opened (a folder without write access): not tried again

    @classmethod
    def at(cls, path: Path, tables: tuple[str, ...]) -> EntryDatabase:
        """The process's database of a file (one connection per file, whichever store asks)."""
        if path not in cls._open:
            cls._open[path] = cls(path, tables)
        return cls._open[path]

    def _connected(self):
        if self._connection is None:
            import _sqlite3 as sqlite3  # see _run

            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                                         check_same_thread=False)
            try:
                connection.execute("PRAGMA synchronous=OFF")
                connection.execute("PRAGMA journal_mode=MEMORY")
                for table in self.tables:
                    connection.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                                       " WITHOUT ROWID")
            except BaseException:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def get(self, table: str, key: str):
        """The JSON data of an entry (None: none, or it cannot be read)."""
        found = self._run(lambda connection: connection.execute(f"SELECT value FROM {table} WHERE key = ?",
                                                                (key,)).fetchone())
        text = _unsealed(found[0]) if found else None
        if text is None:
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return None

    def put(self, table: str, entries: list[tuple[str, object]]) -> bool:
        """Write entries (key, JSON data) in one transaction; whether they were written."""
        try:
            rows = [(key, _sealed(json.dumps(data))) for key, data in entries]
        except (TypeError, ValueError):
            return False

        def write(connection) -> bool:
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.executemany(f"INSERT OR REPLACE INTO {table} (key, value) VALUES (?, ?)", rows)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
            return True

        return self._run(write) is not None

    def _run(self, query):
        """`query`'s result on the connection (None when the database failed). A file that is no database, or a
        damaged one, is removed, to be made again at the next use; a database the process cannot open (a
        folder without write access) is not tried again."""
        try:
            # The standard library's `sqlite3` without its `dbapi2` wrapper, whose datetime adapters cost every
            # flake8 run per keystroke 1.8 ms to import (the C module has the same `connect` and errors);
            # imported here, so a run that finds every result in its manifest imports neither.
            import _sqlite3 as sqlite3
        except ImportError:  # a Python built without it: no cache
            return None
        if self._unusable:
            return None
        try:
            return query(self._connected())
        except (sqlite3.OperationalError, OSError):  # a lock held too long, a full disk, no access
            self._unusable = self._connection is None
        except sqlite3.DatabaseError:
            self.close()
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(f"{self.path}{suffix}")
        except sqlite3.Error:
            pass
        return None

    def close(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None

    @classmethod
    def close_all(cls) -> None:
        """Close every connection of the process (before it forks: a connection must not cross a fork)."""
        for database in cls._open.values():
            database.close()


# How long a write waits for another process's (a lock is held for one transaction: milliseconds).
BUSY_SECONDS = 5.0
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=EntryDatabase.close_all)
