"""`pytree-lint server`: a language server (LSP over stdio, on pygls) that publishes the engine's findings
as diagnostics when a document (or a notebook's cells, linted as one module) is opened, changed (debounced)
or saved, with the lines a message cites as related information, and offers code actions: each safe fix,
"suppress with `# noqa: PTLxxx`", and fix-all (`source.fixAll.pytree-lint`), answered from the findings
shown without waiting for a lint (unless the document changed since).

Each document is linted with its own project's configuration, as the CLI lints the file, read again when a
config file changes (its modification time: no watch notification is needed). The linting runs in a
process of its own (server_worker.py) within a time budget, so the server answers while it works; the
wire is read by server_transport.py, which answers every request, also a malformed one.

It stays up whatever the client sends: while a document does not parse, its last good diagnostics stay,
moved with the edits; an error of ours is logged to the client, not raised.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
from dataclasses import dataclass
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..analysis.module import citations
from ..analysis.record import remade
from ..analysis.syntax.source import python_lines
from ..config import CONFIG_FILE_NAMES, DEFAULT_CONFIG, Config, ConfigError, ConfigLoader
from ..engine import Finding, InternalError, LintError, apply_fixes
from ..noqa import suppression_edit
from ..notebooks import cells_as_module, in_cell
from ..rules import RULES_BY_CODE
from .formats import HELP_URI, cited_file, positive_seconds, source_lines
from .server_transport import StrictProtocol, serve_stdio
from .server_worker import LintWorker, Overrun

# How long typing must pause before a changed document is linted again.
DEBOUNCE_SECONDS = 0.05
# How long one lint may take before it is abandoned (`pytree-lint server --time-budget`).
DEFAULT_TIME_BUDGET = 20.0
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.pytree-lint"
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(notebook_selector=[types.NotebookDocumentFilterWithCells(
    cells=[types.NotebookCellLanguage(language="python")], notebook="*")])


@dataclass(frozen=True)
class Shown:
    """What a document's diagnostics were made from: its version and text, and the findings (in the
    document's own lines: a notebook cell's findings are in the cell)."""

    version: int | None
    text: str
    findings: list[Finding]


class PytreeLintServer(LanguageServer):
    def __init__(self, time_budget: float = DEFAULT_TIME_BUDGET) -> None:
        super().__init__("pytree-lint", __version__, protocol_cls=StrictProtocol,
                         notebook_document_sync=NOTEBOOK_SYNC)
        self.loader = ConfigLoader(revalidate=True)
        self.worker = LintWorker(time_budget)
        self.shown: dict[str, Shown] = {}  # by the URI diagnostics were published for
        self.last_good: dict[str, Shown] = {}  # each text document's last lint that parsed
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Future] = set()  # lints running in the background (kept from the collector)

    def in_background(self, work) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- documents ------------------------------------------------------------------------------------------

    def open_document(self, uri: str):
        """The open text document (or notebook cell) at `uri`, however the client encodes it, or None."""
        return self.workspace.text_documents.get(unquote(uri))

    def config_for(self, path: str) -> Config:
        try:
            return self.loader.for_file(path)
        except ConfigError as error:
            self.log(types.MessageType.Error, str(error))
            return DEFAULT_CONFIG

    def log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(kind, f"pytree-lint: {message}"))

    # --- linting --------------------------------------------------------------------------------------------

    def cancel_pending(self, uri: str) -> None:
        """Forget the lint `uri` waits for (it is linted now, or closed)."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()

    def lint_later(self, uri: str) -> None:
        """Lint when typing pauses: each change restarts the wait."""
        self.cancel_pending(uri)
        self.pending[uri] = asyncio.get_running_loop().call_later(
            DEBOUNCE_SECONDS, lambda: self.in_background(self.lint(uri)))

    async def lint(self, uri: str) -> None:
        """Lint a document (or a notebook) as it is now and publish its diagnostics."""
        self.cancel_pending(uri)
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            await self._lint_notebook(uri, notebook)
            return
        document = self.open_document(uri)
        if document is None:
            return  # closed meanwhile
        version, text = document.version, document.source
        path = document.path or "untitled.py"
        try:
            linted = await self._linted(text, path)
        except LintError:  # does not parse (yet): the last good findings, moved with the edits
            good = self.last_good.get(uri)
            findings = _moved(good.findings, good.text, text) if good is not None else []
        else:
            if linted is None:
                return
            findings = linted
            self.last_good[uri] = Shown(version, text, findings)
        current = self.open_document(uri)
        if current is None or current.version != version:
            return  # closed or changed meanwhile: the newer text's lint publishes
        self._publish(uri, Shown(version, text, findings))

    async def _lint_notebook(self, uri: str, notebook) -> None:
        cells = []  # (number in the notebook, cell URI, its document)
        for number, cell in enumerate(notebook.cells, start=1):
            document = self.open_document(cell.document)
            if cell.kind == types.NotebookCellKind.Code and document is not None and \
                    document.language_id in (None, "python"):
                cells.append((number, cell.document, document))
        source = cells_as_module([(number, document.source) for number, _uri, document in cells])
        versions = [document.version for _number, _uri, document in cells]
        try:
            findings = await self._linted(source.text, to_fs_path(uri) or "notebook.ipynb")
        except LintError:  # a cell that does not parse (yet): its diagnostics are kept as shown
            return
        if findings is None:
            return
        if [document.version for _number, _uri, document in cells] != versions:
            return  # a cell changed meanwhile: the notebook's next lint publishes
        by_cell: dict[int, list[Finding]] = {number: [] for number, _uri, _document in cells}
        for finding in findings:
            placed = in_cell(finding, source, keep_fix=True)
            by_cell[placed.cell or 0].append(remade(placed, cell=None))
        for number, cell_uri, document in cells:
            self._publish(cell_uri, Shown(document.version, document.source, by_cell[number]))

    async def _linted(self, text: str, path: str) -> list[Finding] | None:
        """The findings of `text`, linted as the file `path` with its project's configuration (none if it
        is excluded); None when the lint overran its budget or met a bug of ours (logged to the client).
        LintError when the text does not parse."""
        config = self.config_for(path)
        if config.excluded(path):
            return []
        try:
            return await self.worker.lint(text, path, config)
        except Overrun as error:
            self.log(types.MessageType.Error, f"linting {path} {error}; its diagnostics are not updated")
        except InternalError as error:
            self.log(types.MessageType.Error, f"internal error linting {path}: {error}")
        return None

    def _publish(self, uri: str, shown: Shown) -> None:
        self.shown[uri] = shown
        lines = python_lines(shown.text)
        codec = self.workspace.position_codec
        diagnostics = [self.diagnostic(uri, codec, lines, finding) for finding in shown.findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=shown.version, diagnostics=diagnostics))

    async def current_findings(self, uri: str) -> list[Finding]:
        """The findings of the document as it is now (linted again if it changed since)."""
        for _attempt in range(3):  # a change may land while it is linted
            document = self.open_document(uri)
            if document is None:
                return []
            shown = self.shown.get(uri)
            if shown is not None and shown.version == document.version:
                return shown.findings
            await self.lint(self._owner(uri))
        return []

    def reload_configuration(self) -> None:
        """Read the config files again and lint every open document with what they now say."""
        self.loader = ConfigLoader(revalidate=True)
        self.relint_everything()

    def relint_everything(self, but: str | None = None) -> None:
        """Lint every open document (but the one just linted) again, in the background."""
        owners = {self._owner(uri) for uri in self.shown} - {but}
        for uri in owners:
            self.in_background(self.lint(uri))

    def _owner(self, uri: str) -> str:
        """What is linted to update `uri`'s diagnostics: its notebook for a cell, else the document."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        return notebook.uri if notebook is not None else uri

    # --- what a diagnostic says -----------------------------------------------------------------------------

    def diagnostic(self, uri: str, codec, lines: list[str], finding: Finding) -> types.Diagnostic:
        rule = RULES_BY_CODE.get(finding.code)
        return types.Diagnostic(
            range=_range(codec, lines, finding.line, finding.column, *finding.end),
            message=finding.message, severity=types.DiagnosticSeverity.Warning, code=finding.code,
            source="pytree-lint", related_information=self._related(uri, codec, lines, finding) or None,
            code_description=types.CodeDescription(href=HELP_URI.format(code=finding.code.lower())) if rule else None)

    def _related(self, uri: str, codec, lines: list[str], finding: Finding) -> list[types.DiagnosticRelatedInformation]:
        """The places the message cites, in this document, another cell or another module of the project."""
        related = []
        for path, cell, line in citations(finding.message):
            target, target_lines = self._cited(uri, finding.path, path, cell, lines)
            if target is None or not 0 < line <= len(target_lines):
                continue
            text = target_lines[line - 1].rstrip("\r\n")
            start = len(text) - len(text.lstrip())
            span = _range(codec, target_lines, line, start, line, len(text))
            cited = f"{path}:{line}" if path else (f"cell {cell}, line {line}" if cell else f"line {line}")
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=target, range=span), message=f"cited: {cited}"))
        return related

    def _cited(self, uri: str, own_path: str, path: str | None, cell: int | None,
               lines: list[str]) -> tuple[str | None, list[str]]:
        """The URI and lines of a cited place: this document, a cell of its notebook, or a project file."""
        if cell is not None:
            notebook = self.workspace.get_notebook_document(cell_uri=uri)
            if notebook is None or not 0 < cell <= len(notebook.cells):
                return None, []
            document = self.open_document(notebook.cells[cell - 1].document)
            return (notebook.cells[cell - 1].document, python_lines(document.source)) if document else (None, [])
        if path is None:
            return uri, lines
        found = cited_file(own_path, path)
        target = from_fs_path(found) if found is not None else None
        if found is None or target is None:
            return None, []
        open_document = self.open_document(target)  # as the editor has it, else as saved
        return target, python_lines(open_document.source) if open_document is not None else source_lines(found)


def _range(codec, lines: list[str], line: int, column: int, end_line: int, end_column: int) -> types.Range:
    """An LSP range (0-based lines, the client's code units) of a 1-based line, 0-based column span."""
    span = types.Range(start=types.Position(line - 1, column), end=types.Position(end_line - 1, end_column))
    return codec.range_to_client_units(lines, span)


def _moved(findings: list[Finding], old: str, new: str) -> list[Finding]:
    """The findings of `old`, on the lines they moved to in `new`; those on a changed line are dropped, and
    none keeps a fix (its edits are of the old text)."""
    before, after = python_lines(old), python_lines(new)
    moved_to: dict[int, int] = {}  # 1-based line in old -> in new, for the lines left as they were
    for tag, old_start, old_end, new_start, _new_end in difflib.SequenceMatcher(
            None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            moved_to.update((old_start + k + 1, new_start + k + 1) for k in range(old_end - old_start))
    kept = []
    for finding in findings:
        end_line = finding.end[0]
        if finding.line in moved_to and end_line in moved_to:
            kept.append(remade(finding, line=moved_to[finding.line], end_line=moved_to[end_line], fix=None))
    return kept


def _line_edits(codec, old: str, new: str) -> list[types.TextEdit]:
    """The edits that make `old` into `new`, one per changed run of lines (the editor keeps the rest)."""
    before, after = python_lines(old), python_lines(new)
    edits = []
    for tag, old_start, old_end, new_start, new_end in difflib.SequenceMatcher(
            None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        start = types.Position(old_start, 0)
        if old_end < len(before) or old.endswith(("\n", "\r")):
            end = types.Position(old_end, 0)
        else:  # the last line has no line end: up to its end
            end = codec.position_to_client_units(before, types.Position(old_end - 1, len(before[-1])))
        edits.append(types.TextEdit(range=types.Range(start=start, end=end),
                                    new_text="".join(after[new_start:new_end])))
    return edits


server = PytreeLintServer()


@server.feature(types.INITIALIZED)
async def initialized(ls: PytreeLintServer, params: types.InitializedParams) -> None:
    """Start the lint process, and ask the client to report changes of config files where it can watch
    files for the server (an edit is seen anyway, by its modification time, at the next lint)."""
    ls.in_background(ls.worker.start())
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    pattern = "**/{" + ",".join(CONFIG_FILE_NAMES) + "}"
    registration = types.Registration(
        id="pytree-lint-config-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=pattern)]))
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception as error:  # a client that refuses: config edits are still seen
        ls.log(types.MessageType.Warning, f"cannot watch config files: {error}")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: PytreeLintServer, params: types.DidOpenTextDocumentParams) -> None:
    await ls.lint(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PytreeLintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.lint_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: PytreeLintServer, params: types.DidSaveTextDocumentParams) -> None:
    if _is_config_file(params.text_document.uri):
        ls.reload_configuration()
        return
    # A saved module may be one an open document imports, or one it looked for and did not find.
    await ls.worker.forget_what_was_absent()
    await ls.lint(params.text_document.uri)
    ls.relint_everything(but=params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PytreeLintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.cancel_pending(uri)
    ls.shown.pop(uri, None)
    ls.last_good.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
async def did_open_notebook(ls: PytreeLintServer, params: types.DidOpenNotebookDocumentParams) -> None:
    await ls.lint(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: PytreeLintServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.lint_later(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
async def did_save_notebook(ls: PytreeLintServer, params: types.DidSaveNotebookDocumentParams) -> None:
    await ls.lint(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: PytreeLintServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.cancel_pending(params.notebook_document.uri)
    for cell in params.cell_text_documents:
        ls.shown.pop(cell.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell.uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: PytreeLintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(_is_config_file(change.uri) for change in params.changes):
        ls.reload_configuration()


def _is_config_file(uri: str) -> bool:
    return unquote(uri).rsplit("/", 1)[-1] in CONFIG_FILE_NAMES


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
async def code_action(ls: PytreeLintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """For each finding in the requested range, its safe fix and a `# noqa` comment; for the document, a
    fix-all when it has safe fixes. `context.only` narrows the kinds."""
    uri = params.text_document.uri
    findings = await ls.current_findings(uri)
    document = ls.open_document(uri)
    if document is None or not findings:
        return []
    only = params.context.only

    def wanted(kind: str) -> bool:
        return only is None or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)

    text, codec = document.source, document.position_codec
    lines = python_lines(text)
    asked = params.range
    actions = []
    for finding in findings if wanted(types.CodeActionKind.QuickFix) else []:
        diagnostic = ls.diagnostic(uri, codec, lines, finding)
        if diagnostic.range.end.line < asked.start.line or diagnostic.range.start.line > asked.end.line:
            continue
        if finding.fix is not None and finding.fix.safe:
            edits = [types.TextEdit(range=_range(codec, lines, a, b, c, d), new_text=new)
                     for a, b, c, d, new in finding.fix.edits]
            actions.append(types.CodeAction(
                title=f"pytree-lint: {finding.fix.description}", kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic], is_preferred=True, edit=types.WorkspaceEdit(changes={uri: edits})))
        a, b, c, d, new = suppression_edit(text, finding.line, finding.code)
        actions.append(types.CodeAction(
            title=f"pytree-lint: suppress {finding.code} with `# noqa: {finding.code}`",
            kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
            edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=_range(codec, lines, a, b, c, d),
                                                                   new_text=new)]})))
    safe = [f.fix for f in findings if f.fix is not None and f.fix.safe]
    if wanted(FIX_ALL) and safe:
        # The shown findings' safe fixes, in one pass, made here: the answer never waits for a lint. (A fix
        # that another one exposes, or one overlapping another, is offered again after this one.)
        fixed = apply_fixes(text, safe)
        if fixed != text:
            actions.append(types.CodeAction(
                title="pytree-lint: fix all safe fixes in this file", kind=FIX_ALL,
                edit=types.WorkspaceEdit(changes={uri: _line_edits(codec, text, fixed)})))
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pytree-lint server", description="The language server, on stdio.")
    parser.add_argument("--time-budget", type=positive_seconds, default=DEFAULT_TIME_BUDGET, metavar="SECONDS",
                        help="how long one lint may take before it is abandoned and reported (default: "
                             f"{DEFAULT_TIME_BUDGET:g})")
    options = parser.parse_args(argv or [])
    server.worker.budget = options.time_budget
    try:
        serve_stdio(server)
    finally:
        server.worker.stop()
    return 0
