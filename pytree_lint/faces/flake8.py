"""The flake8 face: the same engine, given the lines flake8 already read; flake8 applies `# noqa`."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from .. import __version__
from ..config import OPT_IN, Config, ConfigError, ConfigLoader, parse_functions
from ..engine import InternalError, LintError, lint_source


class Plugin:
    name = "pytree-lint"
    version = __version__
    # Every rule runs, the opt-in tier too: flake8's own select and ignore decide what is shown.
    config = Config(extend_select=(OPT_IN,))
    # Each file's own `[tool.pytree-lint]` / `[pytree-lint]` settings, as the CLI reads them.
    loader = ConfigLoader()

    @classmethod
    def add_options(cls, manager) -> None:
        manager.extend_default_ignore([OPT_IN])  # the opt-in tier: reported only when selected by name
        manager.add_option(
            "--pytree-static-field-functions", default="", parse_from_config=True, comma_separated_list=True,
            help="qualified names of the project's own static-field helpers (e.g. mylib.fields.static_field)")

    @classmethod
    def parse_options(cls, options) -> None:
        try:
            functions = parse_functions(options.pytree_static_field_functions, "--pytree-static-field-functions")
        except ConfigError as error:
            raise SystemExit(f"pytree-lint: error: {error}") from None
        cls.config = Config(extend_select=(OPT_IN,), static_field_functions=functions)
        cls.loader = ConfigLoader(static_field_functions=list(functions) if functions else None)

    def __init__(self, tree, lines: list[str], filename: str) -> None:
        # Asking for `tree` makes this a tree plugin, which flake8 only runs on files it could parse
        # (others get E999 from flake8 itself); the engine reuses that ast instead of parsing again.
        self._tree = tree
        self._lines = lines
        self._filename = filename

    def _file_config(self) -> Config:
        """The file's project settings (select, ignore, per-file-ignores, helpers) with the opt-in tier
        computed: flake8's own selection applies on top of what is reported."""
        try:
            config = self.loader.for_file(self._filename)
        except ConfigError as error:
            print(f"pytree-lint: error: {error} (linting {self._filename} with the defaults)", file=sys.stderr)
            return self.config
        return config._replace(extend_select=(*config.extend_select, OPT_IN))

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        config = self._file_config()
        if config.excluded(self._filename):
            return  # the project's `[tool.pytree-lint] exclude`, as the CLI honours it
        try:
            findings = lint_source("".join(self._lines), self._filename, config, tree=self._tree)
        except InternalError:
            raise  # flake8 reports a plugin's failure: a bug must not pass as a clean file
        except LintError:
            return  # flake8 already reports what makes a file unparsable
        for finding in findings:
            yield finding.line, finding.column, f"{finding.code} {finding.message}", type(self)
