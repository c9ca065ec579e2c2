"""A content-hash cache of per-file results: an unchanged file costs a stat on the next run from the same
folder, a file touched but not changed a read and a hash.

A run's results live in one file per folder the CLI runs from (its manifest, as ruff keeps one cache file
per package): each file's entry with its stat and its key, which covers the file's bytes, its place, the
configuration and a fingerprint of pytree-lint's own code, so an edited file, another `--select`, or
another version of the linter never sees a stale result; each entry also lists the project modules its
findings were read from, with their hashes, so a change to one of those relints the file. One file per
result made a cold run create a file per linted file besides the summaries' (netket: 432 of 972 files, on
a disk where each creation cost 0.05-0.6 ms). The manifests live in the user cache directory
(`PYTREE_LINT_CACHE_DIR` overrides it); any failure to read or write one is ignored: the cache only ever
saves time.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from .cachedir import code_fingerprint, default_directory, read_json, write_json
from .config import Config
from .digest import ABSENT, content_digest
from .diskio import read_regular

# A word of a file's text: a name it writes (see ResultCache.stale).
WORD = re.compile(rb"\w+")


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
        # The manifest's records by absolute path (read by recall): [mtime, size, config, entry, {dependency:
        # [mtime, size], or None: absent}], an entry {"key", "findings": rows (cli._from_row), "error",
        # "dependencies": {path: digest}, "asked": names}.
        self._records: dict[str, list] = {}
        self._written = 0  # when the manifest was written
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

    def _manifest_path(self) -> Path:
        return self.directory / "manifests" / f"{content_digest(self._salt + os.getcwd().encode())}.json"

    def recall(self, jobs: list[tuple[str, Config]]) -> dict[str, dict]:
        """The cached entries of the files the runs from this folder linted, for those whose size and
        modification time (and those of the modules their findings were read from) are what they were
        then, under the same configuration. Files changed within a second of that run are read again (a
        second change in the same tick would keep the time): `recall_by_content` answers for them."""
        try:
            manifest = read_json(self._manifest_path())
            written, files = manifest["written"], manifest["files"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return {}
        if not (isinstance(written, int) and isinstance(files, dict)):
            return {}
        self._records = files
        self._written = written
        recalled = {}
        stat = _stats()
        for path, config in jobs:
            record = self._records.get(os.path.abspath(path))
            if record is not None and record[2] == repr(config) and stat(path) == record[:2] \
                    and self._settled(record) and all(stat(dep) == known for dep, known in record[4].items()):
                recalled[path] = record[3]
        return recalled

    def _settled(self, record: list) -> bool:
        """Whether a record's file had its time for over a second when the manifest was written: a change
        within the same tick would have kept it, so a younger record is not trusted by its stat."""
        return record[0] < self._written - 10**9

    def recall_by_content(self, jobs: list[tuple[str, Config]]) -> dict[str, dict]:
        """The cached entries of the files `recall` did not answer for whose content, not their stat, is what
        the manifest recorded (a checkout or a branch switch touches every file): each read and hashed here,
        so a run over a touched tree lints nothing, loads no analysis and starts no worker."""
        found = {}
        for path, config in jobs:
            record = self._records.get(os.path.abspath(path))
            if record is None:
                continue  # never linted from here (every file of a first run): nothing to read for
            try:
                data = read_regular(path)
            except OSError:
                continue
            entry = record[3]
            if entry["key"] == self.key(data, config, path) and self.unchanged(entry["dependencies"]):
                found[path] = entry
        return found

    @staticmethod
    def stale(recalled: dict[str, dict], changed: list[str]) -> list[str]:
        """The recalled files whose findings asked the project's other files about a name (who builds,
        registers or derives from a class of theirs...) that one of `changed` (files linted again, or new)
        writes: it may have become a user their lint never read, so never depended on (a file that stops
        being one was read, and is a dependency)."""
        asking = {path: entry["asked"] for path, entry in recalled.items() if entry["asked"]}
        if not asking:
            return []
        written: set[bytes] = set()
        for path in changed:
            try:
                written.update(WORD.findall(read_regular(path)))
            except OSError:
                continue
        return [path for path, asked in asking.items() if any(name.encode() in written for name in asked)]

    def remember(self, entries: dict[str, tuple[Config, dict]]) -> None:
        """Record each file's entry with its stat and its dependencies' (see recall), beside the records of
        the files earlier runs from this folder linted and this one did not (a pre-commit run over the
        changed files keeps the others'), while those files exist and their records can be recalled."""
        files = {path: record for path, record in self._records.items()
                 if self._settled(record) and os.path.exists(path)}
        stat = _stats()
        for path, (config, entry) in entries.items():
            own = stat(path)
            # A module the findings depend on not being there (`from .masks import make_mask` asks whether
            # `masks/make_mask.py` exists) is recorded as absent; one gone since its lint read it, not at all.
            deps = {dep: stat(dep) for dep in entry["dependencies"]}
            files.pop(os.path.abspath(path), None)
            if own is not None and all(known is not None or entry["dependencies"][dep] == ABSENT
                                       for dep, known in deps.items()):
                files[os.path.abspath(path)] = [*own, repr(config), entry, deps]
        write_json(self._manifest_path(), {"written": time.time_ns(), "files": files})
