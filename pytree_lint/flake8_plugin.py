"""The flake8 face: the same engine, given the lines flake8 already read; flake8 applies `# noqa`."""

from __future__ import annotations

from typing import Iterator

from . import __version__
from .engine import LintError, lint_source


class Plugin:
    name = "pytree-lint"
    version = __version__

    def __init__(self, tree, lines: list[str], filename: str) -> None:
        # Asking for `tree` makes this a tree plugin, which flake8 only runs on files it could parse
        # (others get E999 from flake8 itself); the engine reuses that ast instead of parsing again.
        self._tree = tree
        self._lines = lines
        self._filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        try:
            findings = lint_source("".join(self._lines), self._filename, tree=self._tree)
        except LintError:
            return  # flake8 already reports what makes a file unparsable
        for finding in findings:
            yield finding.line, finding.column, f"{finding.code} {finding.message}", type(self)
