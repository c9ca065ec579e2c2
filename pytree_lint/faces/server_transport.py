"""The language server's side of the wire: frames read from stdin, and an answer to every request, also to
one that breaks the protocol's rules (pygls drops those in silence, and the client waits forever).

- A header without a valid `Content-Length` is skipped, and reading resumes at the next line that carries
  one (also one glued after garbage): a bad frame costs that message, not the session.
- A body that is no JSON gets a Parse error (-32700); a request whose parameters do not fit its method, an
  error for its id; a request before `initialize`, ServerNotInitialized (-32002); a request after
  `shutdown`, Invalid request (-32600).
- An error answered carries its message, never a Python traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcServerNotInitialized
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

logger = logging.getLogger(__name__)

CONTENT_LENGTH = re.compile(rb"Content-Length:[ \t]*(\d+)", re.IGNORECASE)
# A frame announcing more than this is taken for garbage: its header is skipped, not its "body" awaited.
MAX_FRAME_BYTES = 256 * 2**20
PARSE_ERROR = -32700


class StrictProtocol(LanguageServerProtocol):
    """pygls' protocol, answering the requests pygls would leave unanswered."""

    initialize_received = False

    def receive(self, body: bytes) -> None:
        """Handle one frame's body."""
        try:
            message = json.loads(body, object_hook=self.structure_message)
        except JsonRpcException as error:  # a message of the wrong shape: answered if it is a request
            data = json.loads(body)
            if isinstance(data, dict) and "id" in data and "method" in data:
                code, text = self._refusal(data["method"]) or (error.code, error.message)
                self._answer_error(data["id"], code, text)
            return
        except (ValueError, RecursionError):  # no JSON (JSONDecodeError and UnicodeDecodeError are ValueErrors)
            self._answer_error(None, PARSE_ERROR, "Parse error: the message is not JSON")
            return
        method = getattr(message, "method", None)
        if method is None and not hasattr(message, "result") and not hasattr(message, "error"):
            self._answer_error(getattr(message, "id", None), JsonRpcInvalidRequest.CODE,
                               "Invalid request: no method")
            return
        if method == types.INITIALIZE:
            self.initialize_received = True
        refusal = self._refusal(method) if method is not None else None
        if refusal is not None:
            if getattr(message, "id", None) is not None:  # a request; a notification is dropped, as the protocol says
                self._answer_error(message.id, *refusal)
            return
        self.handle_message(message)

    def _refusal(self, method) -> tuple[int, str] | None:
        """Why a message with this method is not handled now, as an error code and message; None if it is."""
        if not isinstance(method, str):
            return JsonRpcInvalidRequest.CODE, "Invalid request: the method is not a string"
        if method == types.EXIT:
            return None
        if not self.initialize_received and method != types.INITIALIZE:
            return JsonRpcServerNotInitialized.CODE, "the server is not initialized: send `initialize` first"
        if self._shutdown:
            return JsonRpcInvalidRequest.CODE, "Invalid request: the server is shutting down (only `exit` is accepted)"
        return None

    def _answer_error(self, msg_id, code: int, message: str) -> None:
        """An error response (with a null id when the request's is not known)."""
        self._send_response(msg_id, None, types.ResponseError(code=code, message=message))

    def _send_response(self, msg_id, result=None, error: types.ResponseError | None = None) -> None:
        if error is not None and error.data is not None:  # pygls puts the traceback there
            error = types.ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)


async def _read_frames(reader: StdinAsyncReader, protocol: StrictProtocol, stop: threading.Event) -> None:
    while not stop.is_set():
        length = None
        while True:  # the header: up to a blank line after a Content-Length
            line = await reader.readline()
            if not line:
                return  # the client closed stdin
            if not line.strip():
                if length is not None:
                    break
                continue  # a blank line outside a frame, or the end of a header without a length: skipped
            match = CONTENT_LENGTH.search(line)
            if match is not None:
                length = int(match.group(1))
        if length > MAX_FRAME_BYTES:
            logger.error("skipped a frame announcing %d bytes", length)
            continue
        body = await reader.readexactly(length)
        if len(body) < length:
            return  # the client closed stdin mid-frame
        try:
            protocol.receive(body)
        except Exception:  # a bug of ours or pygls': logged, and the next frame is read
            logger.exception("Unable to handle message")


def serve_stdio(server: LanguageServer) -> None:
    """Serve the client on stdin and stdout until it sends `exit` or closes the stream."""
    server._stop_event = stop = threading.Event()  # what pygls' exit and shutdown set
    reader = StdinAsyncReader(sys.stdin.buffer, server.thread_pool)
    protocol = server.protocol
    assert isinstance(protocol, StrictProtocol)  # the server is made with protocol_cls=StrictProtocol
    protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(_read_frames(reader, protocol, stop))
    except (BrokenPipeError, KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
