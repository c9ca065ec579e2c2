"""Content hashes for the caches. BLAKE2 is built into CPython (`hashlib.blake2b` is this function), while
importing hashlib loads OpenSSL, about 3 ms of every keystroke's flake8 run."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # a Python built without its own BLAKE2
    from hashlib import blake2b


# The digest a dependency that does not exist is recorded with: any file that appears there differs.
ABSENT = ""


def hasher():
    """A 256-bit hash to feed piece by piece (`update`), read with `hexdigest()`."""
    return blake2b(digest_size=32)


def content_digest(data: bytes) -> str:
    """The hex digest of some bytes."""
    return blake2b(data, digest_size=32).hexdigest()
