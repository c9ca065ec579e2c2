"""Which rules run and which files are linted: the `select`/`ignore` logic shared by every face."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator

from .analysis.record import NamedTuple
from .diskio import read_regular


class ConfigError(ValueError):
    """A bad option value; the message says which and why."""


# The families of the public contract (spec.md): PTL1xx aux data, 2xx tree calls, 3xx flatten/unflatten,
# 4xx leaves, 5xx Flax NNX, 9xx the opt-in tier. (A pattern's text, as the others here that only a given
# configuration uses: `re` compiles it when first used, not at each start.)
CONTRACT_CODE = r"^PTL(?:[1-59](?:[0-9]{0,2}))?$"
# The opt-in tier: advice whose harm is conditional, off by default, as if in flake8's default ignore list:
# on with `--extend-select PTL9`, by code, or with an explicit `--select` that takes it in (`PTL`).
OPT_IN = "PTL9"


def parse_codes(value: str | list[str] | tuple[str, ...] | None, option: str) -> tuple[str, ...]:
    """`PTL101,PTL2` -> ("PTL101", "PTL2"); every entry must be a PTL code or a prefix of codes."""
    if value is None:
        return ()
    items = value if isinstance(value, (list, tuple)) else re.split(r"[,\s]+", value)
    codes = tuple(item.strip().upper() for item in items if item.strip())
    for code in codes:
        if not re.match(CONTRACT_CODE, code) or not any(rule.startswith(code) for rule in _rule_codes()):
            raise ConfigError(f"{option}: unknown rule code {code!r} (rules: {', '.join(_rule_codes())}; "
                              "a prefix such as PTL1 selects a family)")
    return codes


def _rule_codes() -> tuple[str, ...]:
    from .rules import RULES_BY_CODE  # the rules are imported only when a code is given

    return tuple(RULES_BY_CODE)


class Config(NamedTuple):
    select: tuple[str, ...] = ()  # none given: every rule but the opt-in tier
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    static_field_functions: tuple[str, ...] = ()  # the project's own helpers, e.g. "mylib.static_field"
    # (glob pattern, codes): the codes not reported in the files the pattern matches (flake8's option).
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str = ""  # the folder of the config file: per-file-ignores patterns are relative to it
    file_ignores: tuple[str, ...] = ()  # one file's per-file-ignores: no selection overrides them

    def for_path(self, path: str) -> Config:
        """The configuration of one file, with the codes its per-file-ignores silence."""
        if not self.per_file_ignores:
            return self
        absolute = os.path.abspath(path)
        relative = os.path.relpath(absolute, self.root or os.getcwd())
        ignored = tuple(code for pattern, codes in self.per_file_ignores for code in codes
                        if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(os.path.basename(absolute), pattern)
                        or fnmatch.fnmatch(absolute, pattern))
        return self._replace(file_ignores=ignored, per_file_ignores=()) if ignored else self

    def enabled(self, code: str) -> bool:
        """flake8's rule: the longest matching prefix of select and ignore decides; without an explicit
        select, the opt-in tier needs a prefix of its own (`--extend-select PTL9`)."""
        if self.file_ignores and code.startswith(self.file_ignores):
            return False
        select = self.select or ("PTL",)
        selected = max((len(p) for p in (*select, *self.extend_select) if code.startswith(p)), default=-1)
        ignored = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        if not self.select and code.startswith(OPT_IN) and selected < len(OPT_IN):
            return False
        return selected > ignored

    def excluded(self, path: str) -> bool:
        """flake8-style `--exclude`: a pattern matches the file's name or its path."""
        name = os.path.basename(path.rstrip(os.sep))
        absolute = os.path.abspath(path)
        return any(fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(path, pattern)
                   or fnmatch.fnmatch(absolute, os.path.abspath(pattern)) for pattern in self.exclude)


DEFAULT_CONFIG = Config()


SETTINGS_KEYS = ("select", "ignore", "extend-select", "exclude", "static-field-functions", "per-file-ignores")


# The files a folder's settings are read from, in this order.
CONFIG_FILE_NAMES = ("pyproject.toml", "setup.cfg", "tox.ini")


# How a config file can name our table: `[tool.pytree-lint]`, a dotted `tool."pytree-lint".x` key, or a
# `pytree-lint = {...}` key under `[tool]`; `[pytree-lint]` in setup.cfg and tox.ini.
_TABLE = {"toml": rb"(?m)tool\s*\.\s*[\"']?pytree-lint|^\s*[\"']?pytree-lint[\"']?\s*[=.]",
          "ini": rb"\[\s*pytree-lint\s*\]"}


def _our_text(path: str, kind: str) -> str | None:
    """The text of a config file that can hold our table, read once; None when there is no such file or
    it does not name the table: most projects' files do not, and are then not parsed (a TOML parser's
    import alone costs a tenth of a keystroke's budget)."""
    try:
        data = read_regular(path)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as error:
        raise ConfigError(f"{path}: {error}") from None
    if re.search(_TABLE[kind], data) is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: {error}") from None


def _read_settings(directory: str) -> tuple[str, dict] | None:
    """The `[tool.pytree-lint]` / `[pytree-lint]` table of the first config file in `directory`."""
    pyproject = os.path.join(directory, CONFIG_FILE_NAMES[0])
    text = _our_text(pyproject, "toml")
    if text is not None:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{pyproject}: {error}") from None
        except RecursionError:
            raise ConfigError(f"{pyproject}: nested too deeply to read") from None
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{pyproject}: `tool` must be a table, not {type(tool).__name__}")
        table = tool.get("pytree-lint")
        if table is not None and not isinstance(table, dict):
            raise ConfigError(f"{pyproject}: `tool.pytree-lint` must be a table, not {type(table).__name__}")
        if table is not None:
            return pyproject, table
    for name in CONFIG_FILE_NAMES[1:]:
        path = os.path.join(directory, name)
        text = _our_text(path, "ini")
        if text is not None:
            import configparser
            parser = configparser.RawConfigParser()  # as flake8 reads them: a `%` is a `%`
            try:
                parser.read_string(text, source=path)
            except configparser.Error as error:
                raise ConfigError(f"{path}: {error}") from None
            if parser.has_section("pytree-lint"):
                return path, dict(parser.items("pytree-lint"))
    return None


def folders_upward(start: str) -> Iterator[str]:
    """`start` (made absolute) and every folder above it, up to the root."""
    directory = os.path.abspath(start)
    while True:
        yield directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return
        directory = parent


def _config_stamp(folder: str) -> tuple:
    """What a folder's settings are read from: the modification time and size (or the absence) of each
    config file in the folder and in every folder above it."""
    stamp: list[tuple[int, int] | None] = []
    for directory in folders_upward(folder):
        for name in CONFIG_FILE_NAMES:
            try:
                info = os.stat(os.path.join(directory, name))
                stamp.append((info.st_mtime_ns, info.st_size))
            except OSError:
                stamp.append(None)
    return tuple(stamp)


def _as_list(value, option: str) -> list[str]:
    if isinstance(value, str):
        return [item for item in re.split(r"[,\n]+", value) if item.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ConfigError(f"{option}: expected a list of strings or a comma-separated string")


def parse_functions(values: list[str] | None, option: str) -> tuple[str, ...]:
    """Qualified function names such as `mylib.fields.static_field`."""
    names = tuple(value.strip() for value in values or () if value.strip())
    for name in names:
        if not all(part.isidentifier() for part in name.split(".")):
            raise ConfigError(f"{option}: {name!r} is not a dotted function name such as mylib.static_field")
    return names


# flake8's per-file-ignores string: `pattern:CODES` entries apart by new lines or by spaces before a pattern.
PER_FILE_ENTRY_BREAK = r"\n+|\s+(?=\S+:)"


def parse_per_file_ignores(value, option: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """flake8's `pattern:CODES` entries (a string, or a list of them), or a TOML table pattern -> codes."""
    if isinstance(value, dict):
        return tuple((str(pattern), parse_codes(_as_list(codes, option), option)) for pattern, codes in value.items())
    items = re.split(PER_FILE_ENTRY_BREAK, value) if isinstance(value, str) else _as_list(value, option)
    entries = []
    for item in items:
        if not item.strip():
            continue
        pattern, separator, codes = item.strip().partition(":")
        if not separator or not pattern.strip():
            raise ConfigError(f"{option}: expected `pattern:CODES`, got {item.strip()!r}")
        entries.append((pattern.strip(), parse_codes(codes, option)))
    return tuple(entries)


def build_config(settings: tuple[str, dict] | None, *, select=None, ignore=None, extend_select=None,
                 exclude=None, static_field_functions=None, per_file_ignores=None) -> Config:
    """Command-line options override the config file, key by key."""
    values: dict[str, list[str]] = {}
    per_file = ()
    root = ""
    if settings is not None:
        path, table = settings
        root = os.path.dirname(os.path.abspath(path))
        for key, value in table.items():
            normalised = key.replace("_", "-")
            if normalised not in SETTINGS_KEYS:
                raise ConfigError(f"{path}: unknown key {key!r} in pytree-lint settings "
                                  f"(known: {', '.join(SETTINGS_KEYS)})")
            if normalised == "per-file-ignores":
                per_file = parse_per_file_ignores(value, f"{path}: {key}")
            else:
                values[normalised] = _as_list(value, f"{path}: {key}")
        # A path pattern in a config file is relative to that file, wherever the command runs from.
        values["exclude"] = [os.path.join(root, p.strip()) if "/" in p else p for p in values.get("exclude", [])]
    for key, value in (("select", select), ("ignore", ignore), ("extend-select", extend_select),
                       ("exclude", exclude), ("static-field-functions", static_field_functions)):
        if value is not None:
            values[key] = _as_list(value, f"--{key}")
    if per_file_ignores is not None:
        per_file, root = parse_per_file_ignores(per_file_ignores, "--per-file-ignores"), ""
    return Config(
        select=parse_codes(values.get("select"), "select"),
        ignore=parse_codes(values.get("ignore"), "ignore"),
        extend_select=parse_codes(values.get("extend-select"), "extend-select"),
        exclude=tuple(p.strip() for p in values.get("exclude", [])),
        static_field_functions=parse_functions(values.get("static-field-functions"), "static-field-functions"),
        per_file_ignores=per_file,
        root=root,
    )


class ConfigLoader:
    """One loader for every face: a file's configuration is the settings of the config file nearest to it
    (from its own folder upward: its project's, wherever the command runs from), with the command line's
    options on top, and its per-file-ignores applied. Each folder is looked up once."""

    def __init__(self, revalidate: bool = False, **overrides) -> None:
        self.overrides = overrides  # build_config's keyword arguments: None leaves the file's setting
        # A long-running process (the language server) looks at the config files' modification times on each
        # lookup: an edit applies at once, with no file-watch notification from the client.
        self.revalidate = revalidate
        self._by_folder: dict[str, Config] = {}
        self._by_settings: dict[str | None, Config] = {}
        self._stamps: dict[str, tuple] = {}
        self._settings_found: dict[str, tuple[str, dict] | None] = {}  # folder -> its settings (_settings)

    def for_folder(self, folder: str) -> Config:
        folder = os.path.abspath(folder)
        if self.revalidate:
            stamp = _config_stamp(folder)
            if self._stamps.get(folder) != stamp:
                self._by_folder.pop(folder, None)
                self._by_settings.clear()  # a config file's content may have changed under its name
                self._settings_found.clear()
                self._stamps[folder] = stamp
        if folder not in self._by_folder:
            settings = self._settings(folder)
            key = settings[0] if settings is not None else None
            if key not in self._by_settings:
                self._by_settings[key] = build_config(settings, **self.overrides)
            self._by_folder[folder] = self._by_settings[key]
        return self._by_folder[folder]

    def _settings(self, folder: str) -> tuple[str, dict] | None:
        """The settings of the first folder with pytree-lint settings from `folder` upward. Each folder's config
        files are read once: a project's folders share those above them (netket's 83 folders read 661
        folders' files, with three failed opens each, when each walked up on its own)."""
        if folder not in self._settings_found:
            parent = os.path.dirname(folder)
            found = _read_settings(folder)
            if found is None and parent != folder:
                found = self._settings(parent)
            self._settings_found[folder] = found
        return self._settings_found[folder]

    def for_file(self, path: str) -> Config:
        """Raises ConfigError for a bad config file, naming it."""
        return self.for_folder(os.path.dirname(os.path.abspath(path))).for_path(path)
