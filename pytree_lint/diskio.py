"""Reading and writing the user's files, and a Python file's bytes as its text. Only regular files are
read: a FIFO, a socket or a device named `*.py` (or `pyproject.toml`) would block the run on its first read,
or never end; it is refused instead, with an error naming the file, like any file that cannot be read. A
file is rewritten by a temporary file beside it renamed over it, so a failed write (a full disk, `ulimit
-f`) leaves it as it was."""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import stat

# Larger files are generated code, not something a person registers pytrees in by hand.
MAX_FILE_BYTES = 16 * 2**20
# In a run whose sources stay as they are (see settle_sources): the folder a relative path starts from, and
# each source read so far by its absolute path.
_settled: tuple[str, dict[str, bytes]] | None = None


class LintError(Exception):
    """A file that could not be linted; the message is the reason, for the user."""


def read_regular(path: str | os.PathLike) -> bytes:
    """The bytes of a regular file. Raises OSError for anything else (opened without blocking, so a FIFO
    without a writer does not hang the open)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        chunks = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def settle_sources(settled: bool) -> None:
    """From now on, read each source once (True: a run over files that stay as they are, the CLI's: a cold
    run over netket read each of its files three to five times, for the import order, the lint, the summary
    and the content hash), or each time it is asked for again (False)."""
    global _settled
    try:
        _settled = (os.getcwd(), {}) if settled else None
    except OSError:  # the current folder is gone: relative paths cannot be told apart
        _settled = None


def read_settled(path: str | os.PathLike) -> bytes:
    """A source's bytes (see read_regular), read from the disk once in a settled run (see settle_sources)."""
    if _settled is None:
        return read_regular(path)
    folder, read = _settled
    key = os.path.normpath(os.path.join(folder, path))
    data = read.get(key)
    if data is None:
        data = read[key] = read_regular(path)
    return data


def replace_atomically(path: str | os.PathLike, data: bytes) -> None:
    """Write `data` as the file's new content, keeping its permission bits: written to a temporary file in
    the same folder, then renamed over it. Raises OSError, and then the file is untouched."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)  # what the umask took from `os.open`'s mode
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def python_text(data: bytes) -> str:
    """A Python file's bytes as text, honouring a PEP 263 coding cookie and a UTF-8 BOM; LintError for
    what is no Python source to lint (too large, binary, undecodable)."""
    if len(data) > MAX_FILE_BYTES:
        raise LintError(f"file too large to lint ({len(data) / 2**20:.1f} MiB; the limit is "
                        f"{MAX_FILE_BYTES // 2**20} MiB)")
    if b"\0" in data:
        raise LintError("not a Python source file (it contains NUL bytes)")
    return _decoded(data)[0]


def _decoded(data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with (what writing it back must use)."""
    if not data.startswith(codecs.BOM_UTF8) and b"coding" not in data[:_second_line_end(data)]:
        try:  # no BOM, no PEP 263 cookie: UTF-8, as tokenize would say (its import and its reading spared)
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass  # tokenize says why
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise LintError(f"cannot decode the file: {error}") from None


def _second_line_end(data: bytes) -> int:
    """Where a source's second line ends (a coding cookie is read on the first two only)."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first >= 0 else -1
    return len(data) if second < 0 else second + 1


def read_source(path: str) -> tuple[str, str]:
    """A file's text and its encoding (a PEP 263 cookie or BOM is kept on writing back)."""
    return _decoded(read_file(path))


def read_file(path: str) -> bytes:
    try:
        return read_settled(path)
    except OSError as error:
        raise LintError(f"cannot read the file: {error.strerror or error}") from None
