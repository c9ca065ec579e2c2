"""The CLI's worker processes: forks of the run, made once its files are ordered and the analysis is loaded
(each starts with both), the run's own process linting beside them. Made of `os.fork`, a shared memory and a
file lock rather than `concurrent.futures`: its imports and its start took 30-40 ms of equinox's 0.5 s run,
and its feeding thread kept the main process from linting beside the workers (it waited for the interpreter's
lock). Where `os.fork` is missing (Windows), the run lints in one process."""

from __future__ import annotations

import fcntl
import marshal
import mmap
import os
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

Job = TypeVar("Job")
# The run's share of the memory: how many jobs are done and the first job that may be free (4 bytes each),
# then the job each process is on (4 bytes each: the job's number plus one, 0: none), then a byte per job for
# its taker (the process's number plus one, 0: free).
_DONE, _CURSOR, _ON = 0, 4, 8
# How far past the first free job a process looks for one that waits on no job another process is on.
LOOKAHEAD = 32


class Claims:
    """Which jobs of a run are taken, by which process, and the job each process is on, in memory the forks
    share, changed under a POSIX lock on the file behind it (the system frees it when its holder dies: a
    worker killed while holding it stops no one)."""

    def __init__(self, count: int, processes: int) -> None:
        self.count, self.processes = count, processes
        self.process = 0  # this process's number: 0 for the run's own, 1... for its forks
        self._takers = _ON + 4 * processes  # where the taker bytes start
        self._file = _anonymous_file()
        os.ftruncate(self._file, self._takers + count)
        self._memory = mmap.mmap(self._file, self._takers + count)

    @contextmanager
    def _locked(self):
        fcntl.lockf(self._file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(self._file, fcntl.LOCK_UN)

    def _number(self, at: int) -> int:
        return int.from_bytes(self._memory[at:at + 4], "little")

    def _set(self, at: int, value: int) -> None:
        self._memory[at:at + 4] = value.to_bytes(4, "little")

    def claim(self, job: int) -> bool:
        """Whether this process takes the job: the first to ask does."""
        with self._locked():
            if self._memory[self._takers + job]:
                return False
            self._memory[self._takers + job] = self.process + 1
            return True

    def next_free(self, waits_on: Sequence[int]) -> int | None:
        """The first job no process has taken, taken by this one as the job it is on (None: none is left);
        of the next LOOKAHEAD free ones, the first that waits on no job another process is on (`waits_on`:
        per job, the set of the jobs it waits on as bits). A module whose imported module another process is
        summarising would summarise it again: 12 of equinox's 72 modules when each process took the first."""
        with self._locked():
            first = self._number(_CURSOR)
            while first < self.count and self._memory[self._takers + first]:
                first += 1
            self._set(_CURSOR, first)
            if first >= self.count:
                return None
            busy = self._on_elsewhere()
            chosen, looked = first, 0
            for job in range(first, self.count):
                if self._memory[self._takers + job]:
                    continue
                if not any(waits_on[job] >> other & 1 for other in busy):
                    chosen = job
                    break
                looked += 1
                if looked == LOOKAHEAD:
                    break
            self._memory[self._takers + chosen] = self.process + 1
            self._set(_ON + 4 * self.process, chosen + 1)
            return chosen

    def on_elsewhere(self, job: int) -> bool:
        """Whether another process is on the job now (read without the lock: a moment's answer)."""
        return job in self._on_elsewhere()

    def _on_elsewhere(self) -> list[int]:
        """The jobs the other processes are on."""
        return [on - 1 for other in range(self.processes) if other != self.process
                and (on := self._number(_ON + 4 * other))]

    def untaken(self) -> Iterator[int]:
        """The jobs no process has taken, in order (read without the lock: a moment's answer)."""
        return (job for job in range(self._number(_CURSOR), self.count) if not self._memory[self._takers + job])

    def taker(self, job: int) -> int | None:
        """The number of the process that took the job (None: no process)."""
        return self._memory[self._takers + job] - 1 if self._memory[self._takers + job] else None

    def finished(self, job: int) -> int:
        """A job this process took done; how many are done."""
        with self._locked():
            if self._number(_ON + 4 * self.process) == job + 1:
                self._set(_ON + 4 * self.process, 0)
            done = self._number(_DONE) + 1
            self._set(_DONE, done)
            return done

    def close(self) -> None:
        self._memory.close()
        os.close(self._file)


def _anonymous_file() -> int:
    """A file in memory with no name (Linux), or a temporary file removed at once (macOS)."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("pytree-lint-claims")
    import tempfile

    descriptor, name = tempfile.mkstemp(prefix="pytree-lint-claims")
    os.unlink(name)
    return descriptor


class _Worker(Generic[Job]):
    """One process's part of the run: the jobs it takes, in the run's order, and those it takes on the way."""

    def __init__(self, jobs: Sequence[Job], keys: Sequence[Hashable], claims: Claims,
                 waits_on: Sequence[int]) -> None:
        self.jobs, self.keys, self.claims, self.waits_on = jobs, keys, claims, waits_on
        self.numbers: dict[Hashable, int] = {}  # a key -> its job (the first, when two paths name one file)
        for number, key in enumerate(keys):
            self.numbers.setdefault(key, number)
        self.next: list[int] = []  # taken while the process did another job

    def take(self, key: Hashable) -> bool:
        """Take the job of a key (a file) when it is free (True): this process does it next."""
        job = self.numbers.get(key)
        if job is None or not self.claims.claim(job):
            return False
        self.next.append(job)
        return True

    def untaken(self) -> Iterator[Hashable]:
        """The keys of the jobs no process has taken, in the run's order (a moment's answer: see take)."""
        return (self.keys[job] for job in self.claims.untaken())

    def on_elsewhere(self, key: Hashable) -> bool:
        """Whether another process is on the job of a key (a file) now."""
        job = self.numbers.get(key)
        return job is not None and self.claims.on_elsewhere(job)

    def work(self, do: Callable[[Job], Any], done: Callable[[int], None], results: list[tuple[int, Any]]) -> None:
        """Add (job, result) for each job this process takes to `results`, until none is left."""
        while (job := self.claims.next_free(self.waits_on)) is not None:
            self.next.insert(0, job)
            while self.next:
                job = self.next.pop(0)
                results.append((job, do(self.jobs[job])))
                done(self.claims.finished(job))


def run_forked(jobs: Sequence[Job], keys: Sequence[Hashable], waits_on: Sequence[int], processes: int,
               do: Callable[[Job], Any], share: Callable[[_Worker | None], None],
               gone: Callable[[Job, str], Any], done: Callable[[int], None] = lambda count: None) -> list:
    """Each job's result, done by this process and `processes - 1` forks of it, each job better after the
    jobs it `waits_on` (a set of job numbers as bits: the modules its module imports, through others too);
    a fork's results must be marshal's types.
    `share` gives each process its worker, which takes the job of a key and tells whether another process is
    on it (None once the run is over); `gone` makes the result of a job whose fork ended before it was done;
    `done` is told how many jobs are done each time this process finishes one."""
    claims = Claims(len(jobs), processes)
    worker = _Worker(jobs, keys, claims, waits_on)
    share(worker)
    forks: dict[int, tuple[int, int]] = {}  # process number -> (its id, the pipe its results come through)
    try:
        for process in range(1, processes):
            readable, writable = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # the system allows no more processes: the run goes on with those it has
                os.close(readable)
                os.close(writable)
                break
            if pid == 0:
                os.close(readable)
                claims.process = process
                _be_a_fork(worker, do, writable)
            os.close(writable)
            forks[process] = pid, readable
        results: list[tuple[int, Any]] = []
        worker.work(do, done, results)
        for process in list(forks):
            pid, readable = forks.pop(process)
            results.extend(_collected(jobs, claims, process, pid, readable, gone))
        return [result for _, result in results]
    finally:
        share(None)
        for pid, readable in forks.values():  # this process failed or was interrupted: no fork outlives it
            import signal  # here: its import makes enums of every signal, 3 M instructions of each parallel run

            os.close(readable)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        claims.close()


def _be_a_fork(worker: _Worker, do: Callable[[Any], Any], results: int) -> None:
    """A fork's life: its jobs, their results written to the run's process, its end (never a return into
    the code that forked it: a test's or an editor's process)."""
    done: list[tuple[int, Any]] = []
    failure = None
    try:
        try:
            worker.work(do, lambda count: None, done)
        except BaseException as error:  # told to the run, which reports the files this process took
            failure = f"{type(error).__name__}: {error}"
        try:
            written = marshal.dumps((done, failure))
        except ValueError as error:
            written = marshal.dumps(([], f"its results could not be sent: {error}"))
        with os.fdopen(results, "wb") as pipe:
            pipe.write(written)
    finally:
        os._exit(0)


def _collected(jobs: Sequence[Job], claims: Claims, process: int, pid: int, readable: int,
               gone: Callable[[Job, str], Any]) -> list[tuple[int, Any]]:
    """A fork's (job, result) pairs, once it ended; for each job it took and did not finish, `gone`'s."""
    with os.fdopen(readable, "rb") as pipe:
        written = pipe.read()
    _, status = os.waitpid(pid, 0)
    try:
        results, failure = marshal.loads(written)
    except (EOFError, ValueError, TypeError):  # it died before it wrote
        results, failure = [], (f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                                else f"exit status {os.waitstatus_to_exitcode(status)}")
    if failure is None:
        return results
    finished = {job for job, _ in results}
    reason = f"not linted: the worker process that took it ended ({failure})"
    return results + [(job, gone(jobs[job], reason)) for job in range(claims.count)
                      if claims.taker(job) == process and job not in finished]
