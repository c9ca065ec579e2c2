"""`pytree-lint server` driven by a real LSP client (pygls' own) over stdio: diagnostics on open, change
and save, quick fixes from the safe fixes, the project's configuration, and a server that stays up."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from conftest import MISUSE_MODULE

SWAPPED = textwrap.dedent("""\
    import jax


    @jax.tree_util.register_pytree_node_class
    class Box:
        def __init__(self, x):
            self.x = x

        def tree_flatten(self):
            return (self.x,), None

        @classmethod
        def tree_unflatten(cls, children, aux):
            return cls(*children)
    """)


class Session:
    """A client talking to a fresh server process, and the diagnostics it has received."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("pytree-lint-tests", "1")
        self.published: asyncio.Queue = asyncio.Queue()
        self.registrations: list[types.Registration] = []

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def on_registration(params: types.RegistrationParams) -> None:
            self.registrations.extend(params.registrations)

    async def __aenter__(self) -> Session:
        await self.client.start_io(sys.executable, "-m", "pytree_lint", "server")
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True))),
            root_uri=self.root.as_uri()))
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        while True:
            params = await asyncio.wait_for(self.published.get(), timeout=30)
            if params.uri == uri:
                return params.diagnostics

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int, int, int]]:
    return [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in diagnostics]


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=120))


def test_diagnostics_on_open_change_and_save(tmp_path):
    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "box.py", MISUSE_MODULE)
            opened = await session.diagnostics(uri)
            assert codes(opened) == [("PTL101", 12, 27, 37), ("PTL102", 12, 39, 49)]
            assert opened[0].source == "pytree-lint" and "np.arange(3)" in opened[0].message
            session.change(uri, MISUSE_MODULE.replace("np.arange(3)", "(0, 1, 2)"), 2)
            assert codes(await session.diagnostics(uri)) == [("PTL102", 12, 39, 49)]
            session.change(uri, "import jax\ndef broken(:\n", 3)  # mid-edit: no diagnostics, no crash
            assert list(await session.diagnostics(uri)) == []
            session.client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            assert list(await session.diagnostics(uri)) == []
    run(scenario())


def test_quick_fix_from_a_safe_fix(tmp_path):
    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "box.py", SWAPPED)
            [diagnostic] = await session.diagnostics(uri)
            assert diagnostic.code == "PTL303"
            actions = await session.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic])))
            [action] = actions
            assert action.kind == types.CodeActionKind.QuickFix
            edits = action.edit.changes[uri]
            assert [(e.range.start.line, e.range.start.character, e.new_text) for e in edits] == [
                (12, 28, "aux"), (12, 38, "children")]
            session.change(uri, "\n\n" + SWAPPED, 2)  # asked at once: the fix follows the new text
            [moved] = await session.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(
                    start=types.Position(line=14, character=0), end=types.Position(line=14, character=60)),
                context=types.CodeActionContext(diagnostics=[])))
            assert [e.range.start.line for e in moved.edit.changes[uri]] == [14, 14]
    run(scenario())


def test_closing_clears_diagnostics_and_cancels_a_pending_lint(tmp_path):
    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "box.py", MISUSE_MODULE)
            assert len(await session.diagnostics(uri)) == 2
            session.change(uri, MISUSE_MODULE + "\n", 2)
            session.client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            assert list(await session.diagnostics(uri)) == []
            await asyncio.sleep(0.5)  # ten times the debounce: the cancelled lint publishes nothing
            assert session.published.empty()
    run(scenario())


def test_the_projects_configuration_applies(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pytree-lint]\nignore = ["PTL101"]\n')
    (tmp_path / "pkg").mkdir()

    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "pkg" / "box.py", MISUSE_MODULE)
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL102"]
    run(scenario())


def test_a_changed_config_file_applies_at_once(tmp_path):
    (tmp_path / "pkg").mkdir()

    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "pkg" / "box.py", MISUSE_MODULE)
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL101", "PTL102"]
            assert [r.method for r in session.registrations] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
            config = tmp_path / "pyproject.toml"
            config.write_text('[tool.pytree-lint]\nignore = ["PTL101"]\n')
            session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
                types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]))
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL102"]
            config.write_text('[tool.pytree-lint]\nignore = ["PTL102"]\n')  # saved in the editor
            session.client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL101"]
    run(scenario())


def test_the_server_stays_up_on_malformed_messages(tmp_path):
    async def scenario():
        async with Session(tmp_path) as session:
            stdin = session.client._server.stdin  # the server process's own input: raw bytes, no protocol
            stdin.write(b"Content-Length: 12\r\n\r\n{not json!!}")
            stdin.write(b"Content-Length: 40\r\n\r\n" + b'{"jsonrpc": "2.0", "method": 7, "id": 1}')
            stdin.write(b"this is no header at all\r\n\r\n")
            await stdin.drain()
            uri = session.open(tmp_path / "box.py", MISUSE_MODULE)
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL101", "PTL102"]
    run(scenario())


def test_a_saved_module_updates_the_open_documents_that_import_it(tmp_path):
    """The module an open document imports appears (is written and saved): the document's diagnostics
    follow at once, without a restart."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    model = ("import jax\n\nfrom .masks import make_mask\n\n\n@jax.tree_util.register_pytree_node_class\n"
             "class Masked:\n    def __init__(self, x):\n        self.x = x\n        self.mask = make_mask()\n\n"
             "    def tree_flatten(self):\n        return (self.x,), self.mask\n\n    @classmethod\n"
             "    def tree_unflatten(cls, aux, children):\n        return cls(*children)\n")
    masks = tmp_path / "pkg" / "masks.py"

    async def scenario():
        async with Session(tmp_path) as session:
            uri = session.open(tmp_path / "pkg" / "model.py", model)
            assert list(await session.diagnostics(uri)) == []
            masks.write_text("import numpy as np\n\n\ndef make_mask():\n    return np.arange(4) > 1\n")
            saved = session.open(masks, masks.read_text())
            session.client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=saved)))
            assert [d.code for d in await session.diagnostics(uri)] == ["PTL101"]
    run(scenario())
