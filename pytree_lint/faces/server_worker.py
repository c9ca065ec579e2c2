"""The language server's linting, in a process of its own.

The event loop stays free to answer the client while a document is linted, and a lint that overruns its time
budget is abandoned (the process killed, and started again for the next lint) instead of leaving the server
deaf. The process keeps the engine's project caches (module summaries, the modules looked for) between lints,
as the server itself would.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.connection import Connection

from ..config import Config
from ..engine import Finding, InternalError, LintError

# How long the worker may take to start (spawn an interpreter, import the analysis): not the lint's budget.
START_SECONDS = 60.0


class Overrun(Exception):
    """A lint took longer than the time budget and was abandoned."""


def _serve(connection: Connection) -> None:
    """The worker process: lint what the server sends, one document at a time."""
    from ..analysis.project.modules import Project
    from ..engine import lint_text, load_analysis

    load_analysis()
    connection.send(("ready", None))
    while True:
        try:
            kind, arguments = connection.recv()
        except (EOFError, OSError):
            return  # the server is gone
        if kind == "forget":
            Project.forget_what_was_absent()
            continue
        text, path, config = arguments
        reply: tuple[str, object]
        try:
            reply = ("done", lint_text(text, path, config, fixes=True))
        except InternalError as error:
            reply = ("internal", str(error))
        except LintError as error:
            reply = ("unlintable", str(error))
        except Exception as error:  # a bug of ours: reported, and the worker goes on
            reply = ("internal", f"{type(error).__name__}: {error}")
        connection.send(reply)


class LintWorker:
    """The server's handle on the worker process: one request at a time, each within `budget` seconds."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.process: multiprocessing.process.BaseProcess | None = None
        self.connection: Connection | None = None
        self.lock = asyncio.Lock()


    async def forget_what_was_absent(self) -> None:
        """Modules looked for and not found may exist now (a file was saved): look again."""
        async with self.lock:
            if self.connection is not None:
                self.connection.send(("forget", None))

    async def start(self) -> None:
        async with self.lock:
            await self._started()

    async def _started(self) -> Connection:
        if self.connection is not None and self.process is not None and self.process.is_alive():
            return self.connection
        self.stop()
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or loop of ours
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name="pytree-lint worker", daemon=True)
        process.start()
        theirs.close()
        self.process, self.connection = process, ours
        await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, ours.recv), START_SECONDS)
        return ours

    async def lint(self, text: str, path: str, config: Config) -> list[Finding]:
        """The document's findings, with fixes. LintError when it does not parse, InternalError for a bug of
        ours, Overrun when the budget ran out."""
        async with self.lock:
            try:
                connection = await self._started()
            except (asyncio.TimeoutError, EOFError, OSError) as error:
                self.stop()
                raise InternalError(f"the lint process did not start ({type(error).__name__})") from None

            def exchange():
                connection.send(("lint", (text, path, config)))
                return connection.recv()

            waiting = asyncio.get_running_loop().run_in_executor(None, exchange)
            try:
                status, value = await asyncio.wait_for(asyncio.shield(waiting), self.budget)
            except asyncio.TimeoutError:
                # The exchange's thread is still reading: killing the process ends that read (EOF), and the
                # connection is closed only then, never under the thread's feet.
                waiting.add_done_callback(lambda _: connection.close())
                self.stop(close=False)
                raise Overrun(f"took more than {self.budget:g} s and was abandoned") from None
            except (EOFError, OSError):
                self.stop()
                raise InternalError("the lint process ended (out of memory?)") from None
        if status == "internal":
            raise InternalError(value)
        if status == "unlintable":
            raise LintError(value)
        return value

    def stop(self, close: bool = True) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
        if self.connection is not None and close:
            self.connection.close()
        self.process = self.connection = None
