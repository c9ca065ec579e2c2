"""A content-hash cache of per-file results: an unchanged file costs a read and a hash on the next run.

The key covers the file's bytes, the configuration and a fingerprint of pytree-lint's own code, so an
edited file, another `--select`, or another version of the linter never sees a stale result; each entry
also lists the project modules its findings were read from, with their hashes, so a change to one of
those relints the file. Entries live
in the user cache directory (`PYTREE_LINT_CACHE_DIR` overrides it); any failure to read or write one is
ignored: the cache only ever saves time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeGuard

from .cachedir import code_fingerprint, default_directory, entry_path, read_json, write_json
from .config import Config
from .digest import ABSENT, content_digest
from .diskio import read_regular
from .shapes import conforms


@cache
def _digest(path: str) -> str | None:
    try:
        return content_digest(read_regular(path))
    except OSError:
        return None


def _stat(path: str) -> list[int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_mtime_ns, stat.st_size]


def _stats() -> Callable[[str], list[int] | None]:
    """_stat, each path asked once (a module many files' findings were read from is one of their
    dependencies each)."""
    return cache(_stat)


class ResultCache:
    def __init__(self, fixes: bool = False, directory: Path | None = None) -> None:
        """`fixes`: whether the results carry fixes (asked for by --fix, --diff and JSON). One per run: the
        files' hashes of an earlier run in the process are forgotten (the files may have changed since)."""
        self.directory = directory if directory is not None else default_directory()
        self._salt = f"{code_fingerprint()}|fixes={fixes}".encode()
        _digest.cache_clear()

    def key(self, data: bytes, config: Config, path: str) -> str:
        """The key of a file's content linted under `config` at its place: the same content elsewhere (a
        copy of the project) imports other modules, whose content its findings depend on."""
        return content_digest(self._salt + repr(config).encode() + b"\0" + os.path.abspath(path).encode() + b"\0"
                              + data)

    def unchanged(self, dependencies: dict[str, str]) -> bool:
        """Whether every file a cached result was read from still has the content it had (each file is
        hashed once per run)."""
        return all((_digest(path) or ABSENT) == digest for path, digest in dependencies.items())

    def _path(self, key: str) -> Path:
        return entry_path(self.directory, key)

    # the run's manifest: unchanged files recognised by their stat, read in one go ---------------------------
    def _manifest_path(self) -> Path:
        return self.directory / "manifests" / f"{content_digest(self._salt + os.getcwd().encode())}.json"

    def recall(self, jobs: list[tuple[str, Config]]) -> dict[str, dict]:
        """The cached entries of the files the last run from this folder linted, for those whose size and
        modification time (and those of the modules their findings were read from) are what they were
        then, under the same configuration. Files changed within a second of that run are read again (a
        second change in the same tick would keep the time)."""
        try:
            manifest = read_json(self._manifest_path())
            written, files = manifest["written"], manifest["files"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return {}
        if not (isinstance(written, int) and isinstance(files, dict)):
            return {}
        recalled = {}
        stat = _stats()
        for path, config in jobs:
            record = files.get(os.path.abspath(path))
            if _valid_record(record) and record[2] == repr(config) and stat(path) == record[:2] \
                    and record[0] < written - 10**9 and all(stat(dep) == known for dep, known in record[4].items()):
                recalled[path] = record[3]
        return recalled

    def remember(self, entries: dict[str, tuple[Config, dict]]) -> None:
        """Record each file's entry with its stat and its dependencies' (see recall)."""
        files = {}
        stat = _stats()
        for path, (config, entry) in entries.items():
            own = stat(path)
            deps = {dep: stat(dep) for dep in entry.get("dependencies", {})}
            if own is not None and all(deps.values()):
                files[os.path.abspath(path)] = [*own, repr(config), entry, deps]
        write_json(self._manifest_path(), {"written": time.time_ns(), "files": files})

    def get(self, key: str) -> dict | None:
        """A file's cached entry; None when there is none or it is not of the shape `put` writes (a
        damaged file is then linted again and its entry rewritten)."""
        try:
            entry = read_json(self._path(key))
        except (OSError, ValueError, RecursionError):
            return None
        return entry if valid_entry(entry) else None

    def put(self, key: str, entry: dict) -> None:
        write_json(self._path(key), entry)


# The shapes the caches write (anything else read back is damage: ignored, and rewritten) -------------------
_EDIT = tuple[int, int, int, int, str]
# [line, column, code, message, end line, end column, target, member, fix, cell] (cli._from_row)
_ROW = tuple[int, int, str, str, int, int, str | None, str | None, tuple[str, bool, tuple[_EDIT, ...]] | None,
             int | None]
_ENTRY = {"findings": tuple[_ROW, ...], "error": str | None, "dependencies": dict[str, str]}
# [mtime, size, config, entry, {dependency: [mtime, size]}]
_RECORD = tuple[int, int, str, dict, dict[str, tuple[int, int]]]


def valid_entry(entry) -> bool:
    """A file's entry: {"findings": [row, ...], "error": str | None, "dependencies": {path: digest}}."""
    return (isinstance(entry, dict) and "findings" in entry and "error" in entry
            and all(conforms(entry[key], hint) for key, hint in _ENTRY.items() if key in entry))


def _valid_record(record: object) -> TypeGuard[list]:
    """A manifest record (see _RECORD) whose entry is valid."""
    return conforms(record, _RECORD) and valid_entry(record[3])  # type: ignore[index]
