"""`pytree-lint server`: a language server (LSP over stdio, on pygls) that publishes the engine's findings
as diagnostics when a document is opened, changed (debounced) or saved, and offers each safe fix as a
quick fix. Each document is linted with its own project's configuration, as the CLI lints the file; a
changed config file (watched through the client, or saved in it) relints every open document.

It stays up whatever the client sends: a document that does not parse gets no diagnostics (the user's
other tools report syntax errors), and an error of ours is logged to the client, not raised.
"""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..analysis.project import Project
from ..analysis.source import python_lines
from ..config import CONFIG_FILE_NAMES, DEFAULT_CONFIG, ConfigError, ConfigLoader
from ..engine import Finding, LintError, lint_text
from ..rules import RULES_BY_CODE
from .formats import HELP_URI

# How long typing must pause before a changed document is linted again.
DEBOUNCE_SECONDS = 0.05


class PytreeLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pytree-lint", __version__)
        self.loader = ConfigLoader()
        # The findings of each open document, by URI, with the version they were made from.
        self.findings: dict[str, tuple[int | None, list[Finding]]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}

    def current_findings(self, uri: str) -> list[Finding]:
        """The findings of the document as it is now (linted again if it changed since)."""
        document = self.workspace.get_text_document(uri)
        version, findings = self.findings.get(uri, (None, None))
        if findings is None or version != document.version:
            self.lint(uri)
            version, findings = self.findings.get(uri, (None, []))
        return findings

    def lint(self, uri: str) -> None:
        """Lint a document as it is now and publish its diagnostics."""
        self.pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return  # closed meanwhile
        document = self.workspace.get_text_document(uri)
        path = document.path or document.filename or "untitled.py"
        try:
            config = self.loader.for_file(path)
        except ConfigError as error:
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"pytree-lint: {error}"))
            config = DEFAULT_CONFIG
        text = document.source
        try:
            findings = lint_text(text, path, config, fixes=True)
        except LintError:
            findings = []  # a document that does not parse (yet): the editor's own tools say why
        self.findings[uri] = (document.version, findings)
        lines = python_lines(text)
        diagnostics = [_diagnostic(document.position_codec, lines, finding) for finding in findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=diagnostics))

    def reload_configuration(self) -> None:
        """Read the config files again and lint every open document with what they now say."""
        self.loader = ConfigLoader()
        for uri in list(self.findings):
            self.lint(uri)

    def lint_later(self, uri: str) -> None:
        """Lint when typing pauses: each change restarts the wait."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self.lint, uri)


def _range(codec, lines: list[str], line: int, column: int, end_line: int, end_column: int) -> types.Range:
    """An LSP range (0-based lines, the client's code units) of a 1-based line, 0-based column span."""
    span = types.Range(start=types.Position(line - 1, column), end=types.Position(end_line - 1, end_column))
    return codec.range_to_client_units(lines, span)


def _diagnostic(codec, lines: list[str], finding: Finding) -> types.Diagnostic:
    rule = RULES_BY_CODE.get(finding.code)
    return types.Diagnostic(
        range=_range(codec, lines, finding.line, finding.column, *finding.end),
        message=finding.message, severity=types.DiagnosticSeverity.Warning, code=finding.code,
        source="pytree-lint",
        code_description=types.CodeDescription(href=HELP_URI.format(code=finding.code.lower())) if rule else None)


server = PytreeLintServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: PytreeLintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.lint(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PytreeLintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.lint_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: PytreeLintServer, params: types.DidSaveTextDocumentParams) -> None:
    if _is_config_file(params.text_document.uri):
        ls.reload_configuration()
    else:  # a saved module may be one another open document imports, or one it looked for and did not find
        Project.forget_what_was_absent()
        for uri in dict.fromkeys([params.text_document.uri, *ls.findings]):
            ls.lint(uri)


@server.feature(types.INITIALIZED)
async def initialized(ls: PytreeLintServer, params: types.InitializedParams) -> None:
    """Ask the client to report changes of config files, where it can watch files for the server."""
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
    except Exception as error:  # a client that refuses: saving a config file in the editor still works
        ls.window_log_message(types.LogMessageParams(types.MessageType.Warning,
                                                     f"pytree-lint: cannot watch config files: {error}"))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: PytreeLintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(_is_config_file(change.uri) for change in params.changes):
        ls.reload_configuration()


def _is_config_file(uri: str) -> bool:
    return uri.rsplit("/", 1)[-1] in CONFIG_FILE_NAMES


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PytreeLintServer, params: types.DidCloseTextDocumentParams) -> None:
    waiting = ls.pending.pop(params.text_document.uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.findings.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: PytreeLintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The safe fix of each finding in the requested range, as a quick fix."""
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    lines = python_lines(document.source)
    wanted = params.range
    actions = []
    for finding in ls.current_findings(uri):
        if finding.fix is None or not finding.fix.safe:
            continue
        diagnostic = _diagnostic(document.position_codec, lines, finding)
        if diagnostic.range.end.line < wanted.start.line or diagnostic.range.start.line > wanted.end.line:
            continue
        edits = [types.TextEdit(range=_range(document.position_codec, lines, a, b, c, d), new_text=text)
                 for a, b, c, d, text in finding.fix.edits]
        actions.append(types.CodeAction(
            title=f"pytree-lint: {finding.fix.description}", kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic], is_preferred=True, edit=types.WorkspaceEdit(changes={uri: edits})))
    return actions


def main() -> int:
    server.start_io()
    return 0
