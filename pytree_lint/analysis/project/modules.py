"""The project a file belongs to, and names followed across its modules.

A file's project is the nearest folder upward holding pyproject.toml, setup.cfg, setup.py or .git (else
the folder above its top package). Its modules are found the way Python would import them: from the
folder above the file's own top package (`pkg/sub/mod.py` with `pkg/__init__.py` and `pkg/sub/__init__.py`
is `pkg.sub.mod`), then the project folder and its `src/`. Each module is read only when a name is
followed into it, and what other modules need of it is kept as a `ModuleSummary` (analysis/project/summary.py),
cached on disk by content hash. Nothing is imported or executed.

Library names stay library names: `jax` and `numpy` are never followed (knowledge/ says what they mean),
and a name that knowledge/ knows by its public spelling (`flax.struct.dataclass`) keeps that spelling
even when the library itself is the project being linted.
"""

from __future__ import annotations

import ast
import heapq
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, KeysView
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...digest import ABSENT, content_digest
from ...diskio import LintError, python_text, read_regular, read_settled
from ...knowledge import BASES, KNOWN_NAMES, LIBRARY_BY_NAME, PytreeLibrary
from ...knowledge.jax import BY_METHODS, Mechanism
from ...knowledge.python import MEMOIZERS
from ..pytrees.jitted import factory_statics, through_signature
from ..record import NamedTuple, record
from ..syntax.model import ClassInfo, ModuleIndex, child_nodes
from ..syntax.names import MEANT, canonical
from ..syntax.source import HOME, Source, parse, python_lines
from .summary import (
    ITEMS,
    ArrayPassed,
    AttributeChange,
    ClassFacts,
    Construction,
    FileText,
    FunctionFacts,
    HashedObject,
    JitFacts,
    Keeps,
    ModuleSummary,
    RegisteredElsewhere,
    SubclassRegistration,
    SummaryStore,
    TreeMapFacts,
    Value,
)

if TYPE_CHECKING:
    from collections.abc import Callable

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
# Names under these heads mean what knowledge/ says, even when their source is in the project.
NEVER_FOLLOWED = frozenset({"jax", "jaxlib", "numpy"})
# How many folders without `__init__.py` a module may sit in below its package (namespace portions): netket's
# `_src/operator/permutation/` is three.
NAMESPACE_DEPTH = 3
# How many re-exports a name is followed through before it is left unknown (cycles end there too).
MAX_HOPS = 16
# How many of the project's files are searched for a class's constructor calls: a very large project is
# searched in part rather than made slow (an unsearched call stays unknown, and unknown stays silent).
MAX_SEARCHED_FILES = 3000
# How many builders, each returning the object the one before returns, are followed across modules.
MAX_BUILDER_LEVELS = 4
# How long a worker process waits for the summary another is making (see Project._made_elsewhere), at most,
# and how often it looks for it: a summary takes 1-30 ms; a process killed while making one is waited for no
# longer than this.
AWAIT_SECONDS = 2.0
AWAIT_POLL_SECONDS = 0.0005
# The modules a file imports, read from its text before it is parsed: `from .x import`, `import a.b`.
IMPORTED_MODULE = re.compile(r"^[ \t]*(?:from[ \t]+(\.+[\w.]*|[\w.]+)[ \t]+import|import[ \t]+([\w.]+))", re.MULTILINE)
# Either statement at once, for the text index: `from module import a, b as c` (parenthesised over lines too;
# the module, then the names) or `import module`.
IMPORT_STATEMENT = re.compile(r"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|(?:[^\n#\\]|\\\r?\n)*)"
                              r"|^[ \t]*import[ \t]+([\w.]+)", re.MULTILINE)
COMMENT = re.compile(r"#[^\n]*")  # inside a parenthesised `from module import (...)`
INSTALLED = frozenset({"site-packages", "dist-packages"})
# A call of a capitalised name (which classes a module may build), matched on the reversed text: a
# pattern that starts with "(" is searched for as a literal, four times faster than `\b([A-Z]\w*)\s*\(`
# forwards, with the same matches.
CONSTRUCTED_REVERSED = re.compile(rb"\(\s*(\w*[A-Z])(?!\w)")
# A capitalised name, as written or imported (not an attribute's): its look-behind comes after the capital,
# so that the scan looks for a capital first (2.5 times faster than `(?<![\w.])[A-Z]\w*`, the same matches).
MENTIONED = re.compile(rb"[A-Z](?<![\w.][A-Z])\w*")
MAX_REEXPORTS = 3  # modules passing an imported name on, followed to find a class's users from their texts
# What follows a colon as an annotation may (or a dict value, a lambda's body: a superset): `list[Gauges]`.
ANNOTATION = re.compile(rb":[ \t]*([\w.\[\], |'\"]+)")
# Spells one of jax.tree_util's registering functions: may register a class another module defines.
REGISTERS = re.compile("|".join(re.escape(mechanism.value) for mechanism in Mechanism).encode())
# The bases of a class statement (`class S(m.Base, metaclass=M)`), and the last part of each name in them.
CLASS_BASES = re.compile(rb"class[ \t]+\w+[ \t]*\(([^)]*)\)")
LAST_NAME = re.compile(rb"(\w+)(?![\w.])")
# The registering functions that flatten and unflatten by the class's methods, by the name a summary keeps.
BY_METHODS_NAMES = {mechanism.value: mechanism for mechanism in BY_METHODS}
# What every registering function's name starts with: a file without it is not searched (twice as fast).
REGISTERING_PREFIX = os.path.commonprefix([mechanism.value for mechanism in Mechanism]).encode()  # noqa: RUF071 - names
# A module-level class; the look-behind comes after `class` (`^class`, the same matches): a pattern starting
# with a literal is scanned for it, 7 times faster.
DEFINED_CLASS = re.compile(r"class(?<=^class)\s+(\w+)", re.MULTILINE)
# Another name for a capitalised one at module level: `M = Mesh` (`from .mesh import Mesh as M`: the imports).
ASSIGNED_AS = re.compile(rb"^(\w+)[ \t]*=[ \t]*([A-Z]\w*)[ \t]*$", re.MULTILINE)
ASSIGNED_NAME = re.compile(rb"=[ \t]*[A-Z]\w*[ \t]*$", re.MULTILINE)  # where ASSIGNED_AS may match
# What decoding and parsing a project module's source may raise: the module is then unknown.
UNREADABLE = (LintError, SyntaxError, ValueError, RecursionError, MemoryError)
SKIPPED_FOLDERS = frozenset({".git", ".hg", ".tox", ".nox", ".venv", "venv", "node_modules", "__pycache__",
                             "build", "dist", ".eggs", "site-packages"})


@lru_cache(maxsize=4096)
def _marked_root(folder: Path) -> Path | None:
    """The nearest folder from `folder` upward with a project marker (each folder asked once)."""
    if any((folder / marker).exists() for marker in ROOT_MARKERS):
        return folder
    return None if folder.parent == folder else _marked_root(folder.parent)


def find_root(path: Path) -> Path:
    """The project folder of a file: the nearest folder upward with a project marker, else the folder
    above the file's top package. An installed package (under site-packages) is a project of its own: its
    top package folder."""
    import_root, module, _ = module_location(path)
    if import_root.name in INSTALLED or any(parent.name in INSTALLED for parent in import_root.parents):
        return import_root / module.split(".", 1)[0] if module else import_root
    return _marked_root(path.parent) or import_root


def resolved_path(path: str) -> Path:
    """A file's absolute path, symbolic links resolved: once per path (each resolution asks the system about
    every folder above the file), a relative one from the current folder."""
    return _resolved_absolute(os.path.abspath(path))


@lru_cache(maxsize=4096)
def _resolved_absolute(path: str) -> Path:
    folder, name = os.path.split(path)
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(_resolved_folder(folder), name)


@lru_cache(maxsize=4096)
def _resolved_folder(folder: str) -> str:
    """A folder's real path: asked once per folder, not once per file in it."""
    return os.path.realpath(folder)


@lru_cache(maxsize=4096)
def module_location(path: Path) -> tuple[Path, str, bool]:
    """(the folder the module is imported from, its dotted name, whether it is a package's __init__). A
    folder without `__init__.py` inside a package is a namespace portion of it (PEP 420: netket's `_src/`),
    so `netket/_src/logging/wandb_log.py` is `netket._src.logging.wandb_log`."""
    is_package = path.name == "__init__.py"
    import_root, package = _package_of(path.parent)
    return import_root, ".".join(package if is_package else (*package, path.stem)), is_package


@lru_cache(maxsize=4096)
def _package_of(folder: Path) -> tuple[Path, tuple[str, ...]]:
    """(the folder a folder's package is imported from, the package's dotted parts; none outside a package),
    each folder asked once."""
    if folder.parent != folder and (os.path.exists(os.path.join(folder, "__init__.py")) or _inside_package(folder)):
        import_root, package = _package_of(folder.parent)
        return import_root, (*package, folder.name)
    return folder, ()


class RunOrder(NamedTuple):
    """How a whole-project run takes its files (see imported_first)."""

    paths: list[str]  # each after the files of the run it imports
    imported: frozenset[Path]  # the files another file of the run imports
    imports: dict[str, list[str]]  # a path -> the paths of the run its file imports

    def waits_on(self) -> list[int]:
        """For each path, the paths it imports, directly or through others, as a set of their places in
        `paths` (bits): a worker process lints first a file whose imports no other is linting."""
        place = {path: number for number, path in enumerate(self.paths)}
        imported: list[int] = []
        for path in self.paths:  # the imported files first (but in a cycle)
            bits = 0
            for each in self.imports.get(path, ()):
                other = place[each]
                bits |= 1 << other | (imported[other] if other < len(imported) else 0)
            imported.append(bits)
        return imported


def imported_first(paths: list[str]) -> RunOrder:
    """`paths` ordered so that a module comes after the modules of `paths` it imports (and their packages),
    cycles broken where met, and the files another of `paths` imports: each of those, linted, summarises
    itself (Project.adopt) before a module importing it asks, and is parsed once for both. Among the modules
    whose imports are placed, those more modules depend on come first (see _depended_on_first), the given
    order kept otherwise."""
    resolved = {path: resolved_path(path) for path in paths}
    located = {path: module_location(file) for path, file in resolved.items() if path.endswith(".py")}
    modules: dict[str, str] = {}
    for path, (_root, module, _is_package) in located.items():
        modules.setdefault(module, path)
    ordered: list[str] = []
    placed: set[str] = set()
    imported: set[Path] = set()
    imports_of: dict[str, list[str]] = {}
    for first in paths:
        pending: list[tuple[str, bool]] = [(first, False)]
        while pending:  # depth-first, a module placed after its imports (post-order), without recursion
            path, expanded = pending.pop()
            if path in placed and not expanded:
                continue
            if expanded:
                ordered.append(path)
                continue
            placed.add(path)
            pending.append((path, True))
            imports = imports_of[path] = _imports_among(path, located.get(path), modules)
            imported.update(resolved[each] for each in imports)
            pending.extend((each, False) for each in reversed(imports) if each not in placed)
    return RunOrder(_depended_on_first(ordered, imports_of), frozenset(imported), imports_of)


def _depended_on_first(ordered: list[str], imports_of: dict[str, list[str]]) -> list[str]:
    """`ordered` (each module after those it imports, cycles broken) reordered so that, of the modules whose
    imports are placed, the one more modules depend on (through others too) comes first: a worker process
    then lints a module many others import before they are taken, rather than waiting for the process
    linting it (equinox's workers waited 9-15 ms a cold run for `_module/_flatten.py` and its like, 1-2 ms
    after; netket 2% faster)."""
    place = {path: number for number, path in enumerate(ordered)}
    users: list[list[int]] = [[] for _ in ordered]  # the modules importing each, placed after it
    waiting = [0] * len(ordered)  # how many of its imports each waits for
    for number, path in enumerate(ordered):
        for each in imports_of.get(path, ()):
            if place[each] < number:
                users[place[each]].append(number)
                waiting[number] += 1
    above = [0] * len(ordered)  # bits: the modules depending on each, through others too
    for number in reversed(range(len(ordered))):
        for user in users[number]:
            above[number] |= 1 << user | above[user]
    ready = [(-above[number].bit_count(), number) for number in range(len(ordered)) if not waiting[number]]
    heapq.heapify(ready)
    result = []
    while ready:
        _, number = heapq.heappop(ready)
        result.append(ordered[number])
        for user in users[number]:
            waiting[user] -= 1
            if not waiting[user]:
                heapq.heappush(ready, (-above[user].bit_count(), user))
    return result


def _imports_among(path: str, location: tuple[Path, str, bool] | None, modules: dict[str, str]) -> list[str]:
    """The paths of `modules` (dotted name -> path) that the file at `path` (at `location`, see
    module_location; None: not a Python file) imports, with their packages (not jax's or numpy's: their
    names are never followed, their summaries never asked)."""
    if location is None:
        return []
    try:
        text = read_settled(path).decode("utf-8", "replace")
    except OSError:
        return []
    _root, module, is_package = location
    found: list[str] = []
    for match in import_matches(IMPORTED_MODULE, text):
        name = absolute(match.group(1) or match.group(2), module, is_package)
        parts = name.split(".") if name and name.split(".", 1)[0] not in NEVER_FOLLOWED else []
        for cut in range(1, len(parts) + 1):
            imported = modules.get(".".join(parts[:cut]))
            if imported is not None and imported != path and imported not in found:
                found.append(imported)
    return found


def _assigned_as(data: bytes) -> list[tuple[str, str]]:
    """(original, other name) for each capitalised name a module-level assignment gives another name
    (ASSIGNED_AS, tried only on the lines ASSIGNED_NAME ends)."""
    return [(original.decode(), alias.decode()) for match in ASSIGNED_NAME.finditer(data)
            for alias, original in ASSIGNED_AS.findall(data, data.rfind(b"\n", 0, match.start()) + 1, match.end())]


def file_text(data: bytes, mtime: int, size: int) -> FileText:
    """What the text index keeps of a file's text (`data`, of that version). Each pattern is searched once
    over the whole text (the import statements only where a line spells `import`), and only the distinct
    names found are decoded."""
    called = {name[::-1].decode() for name in set(CONSTRUCTED_REVERSED.findall(data[::-1]))}
    annotated = {name.decode() for name in set(MENTIONED.findall(b" ".join(ANNOTATION.findall(data))))}
    derived = {name.decode() for name in set(LAST_NAME.findall(b" ".join(CLASS_BASES.findall(data))))}
    text = data.decode("utf-8", "replace")
    from_imports: dict[str, list[str]] = {}
    imports: set[str] = set()
    renamed: list[tuple[str, str]] = []  # (original, other name): the imports', then the assignments'
    for match in import_matches(IMPORT_STATEMENT, text):
        module, names = match.group(1), match.group(2)
        if module is None:  # `import module`
            imports.add(match.group(3))
            continue
        imports.add(module)
        taken = from_imports.setdefault(module, [])
        for item in COMMENT.sub("", names).strip("()").replace("\\", " ").split(","):
            words = item.split()
            if words and (words[0].isidentifier() or words[0] == "*"):
                taken.append(words[0])
                if len(words) == 3 and words[1] == "as" and "A" <= words[0][0] <= "Z":
                    renamed.append((words[0], words[2]))
    # A class called, annotated or derived from by another name is: `M(...)` after `from .mesh import Mesh as M`.
    for original, alias in [*renamed, *_assigned_as(data)]:
        for named in (called, annotated, derived):
            if alias in named:
                named.add(original)
    # A file importing a name by name mentions it there: only one importing `*` is searched for the names it
    # mentions (a third of the index's cost when every file was).
    stars = any("*" in names for names in from_imports.values())
    return FileText(mtime, size, tuple(sorted(called)), tuple(sorted(imports)),
                    tuple(sorted({name.decode() for name in set(MENTIONED.findall(data))})) if stars else (),
                    REGISTERING_PREFIX in data and REGISTERS.search(data) is not None, tuple(sorted(annotated)),
                    {module: tuple(names) for module, names in from_imports.items()}, tuple(sorted(derived)))


def import_matches(pattern: re.Pattern, text: str) -> Iterator[re.Match]:
    """The matches of IMPORT_STATEMENT or IMPORTED_MODULE in a file's text, tried only where a line spelling
    `import` starts (found as a literal: several times faster than the patterns' scan from every line)."""
    start = -1
    at = text.find("import")
    while at >= 0:
        line = text.rfind("\n", 0, at) + 1
        if line > start:
            start = line
            match = pattern.match(text, line)
            if match is not None:
                yield match
        at = text.find("import", at + 6)


def _below(folder: str, *names: str) -> str:
    """`os.path.join` of an absolute folder and plain names (no separator in them), without its checks of
    each part: a module name not found is looked for through several (2,000 times a cold netket run)."""
    return folder.rstrip(os.sep) + os.sep + os.sep.join(names)


def _inside_package(folder: Path) -> bool:
    """A folder without `__init__.py` with a package at most NAMESPACE_DEPTH folders above it: a namespace
    portion nested in it. Only the file's own folders are asked, a few levels up."""
    return any((up / "__init__.py").exists() for up in list(folder.parents)[:NAMESPACE_DEPTH])


def summarised_source(path: str, digest: str) -> bytes | None:
    """A module's source, when its content is still the one its summary was made from (`digest`)."""
    try:
        data = read_settled(path)
    except OSError:
        return None
    return data if content_digest(data) == digest else None


def _read_class(summary: ModuleSummary, name: str) -> ClassInfo | None:
    """A class of another module, parsed from the lines its statement spans there (not the whole module)."""
    facts = summary.classes.get(name)
    data = summarised_source(summary.path, summary.digest) if facts is not None else None
    if data is None:
        return None
    first, last = facts.lines  # type: ignore[union-attr]
    try:
        text = python_text(data)
        # Empty lines before it: the parser numbers its lines as the module does.
        tree = parse("\n" * (first - 1) + "".join(python_lines(text)[first - 1:last]))
    except UNREADABLE:
        return None
    node = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(node, ast.ClassDef) or node.name != name:
        return None
    source = Source(text, summary.display_path, summary.module)
    _mark_foreign(node, source, summary)
    return ModuleIndex.build(ast.Module([node], []), source).classes.get(name)


def _mark_foreign(definition: ast.AST, source: Source, summary: ModuleSummary) -> None:
    """Mark a definition's nodes as read from `summary`'s module: each with its source, and each name it
    reads of that module (an import, a definition; not a parameter or local of its functions) with what
    it stands for there. Iterative: a deeply nested expression is no reason to fail. One walk: the names
    are judged once it is over, when each def's locals (the names stored anywhere below it) are known
    (walking each def again for them was a third of the time netket's classes took to read)."""
    names: list[tuple[ast.Name, _Scope | None]] = []
    pending: list[tuple[ast.AST, _Scope | None]] = [(definition, None)]
    while pending:
        node, scope = pending.pop()
        setattr(node, HOME, source)
        kind = type(node)
        if kind is ast.Name:
            names.append((node, scope))
            if scope is not None and type(node.ctx) is ast.Store:
                scope.stored(node.id)
            continue
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.Lambda:
            arguments = node.args
            scope = _Scope(scope, kind is not ast.Lambda, [
                a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                *filter(None, [arguments.vararg, arguments.kwarg])]])
        pending.extend(zip(child_nodes(node), repeat(scope)))
    for name, scope in names:
        if scope is None or name.id not in scope.bound():
            if name.id in summary.names:
                setattr(name, MEANT, summary.names[name.id])
            elif name.id in summary.defined:
                setattr(name, MEANT, f"{summary.module}.{name.id}")


class _Scope:
    """A def or lambda of a definition read from another module (see _mark_foreign): the names it binds (its
    parameters; a def's, the names stored anywhere below it too, in its nested defs and lambdas as well),
    and the def or lambda around it, whose names are bound in it too."""

    def __init__(self, around: _Scope | None, keeps_stores: bool, parameters: list[str]) -> None:
        self.around, self.keeps_stores, self.names = around, keeps_stores, set(parameters)
        self._bound: frozenset[str] | None = None

    def stored(self, name: str) -> None:
        """A name stored below this scope: a local of each def around it."""
        scope: _Scope | None = self
        while scope is not None:
            if scope.keeps_stores:
                scope.names.add(name)
            scope = scope.around

    def bound(self) -> frozenset[str]:
        """The names bound here (asked once every store is seen)."""
        if self._bound is None:
            self._bound = frozenset(self.names) | (self.around.bound() if self.around is not None else frozenset())
        return self._bound


def _jit_facts(function: FunctionFacts, positions: set[int], names: set[str]) -> JitFacts:
    """A function's jit facts from the static positions and names its decorator gives (JAX maps each to the
    other through the signature)."""
    positions, names = through_signature(positions, names, function.params)
    return JitFacts(tuple(sorted(positions)), tuple(sorted(names)), function.params, False,
                    tuple(p for p in function.array_params if p in names))


def absolute(qualified: str, module: str, is_package: bool) -> str | None:
    """A relative import's name made absolute from the importing module (`.masks.f` in `pkg.model` is
    `pkg.masks.f`); None when it climbs above the top package."""
    if not qualified.startswith("."):
        return qualified
    level = len(qualified) - len(qualified.lstrip("."))
    package = module.split(".") if is_package else module.split(".")[:-1]
    if level - 1 > len(package) or not module:
        return None
    base = package[:len(package) - (level - 1)]
    rest = qualified[level:]
    return ".".join([*base, rest] if rest else base) or None


@record
class Definition:
    """Something a project module defines at top level, found by following a name."""

    summary: ModuleSummary
    name: str

    @property
    def function(self) -> FunctionFacts | None:
        return self.summary.function(self.name)

    @property
    def cls(self) -> ClassFacts | None:
        return self.summary.classes.get(self.name)

    @property
    def jit(self) -> JitFacts | None:
        """The static arguments, when its own module shows the name is a jitted function or a
        `partial(jax.jit, ...)` (see ModuleView.jit for wrappers of other modules)."""
        return self.summary.jitted.get(self.name)


class Project:
    """One project's modules, read and summarised on demand; one instance per project folder per process."""

    _instances: ClassVar[dict[Path, Project]] = {}
    # How a module's source becomes its summary: `Summarizer.run`, which reads it with the analysis the rules
    # use, which asks the project in turn (engine.load_analysis wires the two).
    summarize: ClassVar[Callable[..., ModuleSummary | None] | None] = None
    # The files whose lint summarises them from its tree (see adopt): in a run over a whole project (the CLI),
    # those another file of the run imports, which will ask; an editor's save would make a summary no one reads.
    adopted_files: ClassVar[frozenset[Path]] = frozenset()
    # The files the process will lint and has not begun to (the CLI's run): one summarised before its lint
    # keeps its tree for it (one summarised after, none: its lint is over).
    files_to_lint: ClassVar[set[Path]] = set()
    # In a pool worker of the CLI's run: whether this process takes the lint of a file it parses for a
    # summary (it then lints it next, from that tree; False: another worker has it). None: no pool.
    takes: ClassVar[Callable[[Path], bool] | None] = None
    # In a pool worker: whether another worker is on the lint of a file now (see _made_elsewhere).
    linted_elsewhere: ClassVar[Callable[[Path], bool] | None] = None
    # In a pool worker: the files no worker has taken the lint of yet, in the run's order (see _made_ahead).
    untaken: ClassVar[Callable[[], Iterator[Path]] | None] = None
    # The CLI's run under way (a token per run; None: none): the project's files stay as they are while it
    # lints them, so each is checked for a change once per run, not by each lint that reads it (netket: 14,000
    # checks of 432 files). A language server, which sees edits, checks a file each time a lint reads it.
    settled: ClassVar[object | None] = None
    # How the calls a summarised module makes of a project function (by name) are read when a value must be
    # followed into them: `Summarizer.calls_in` (not summarised: few values ask).
    read_calls: ClassVar[Callable[[ModuleSummary, str], tuple[Construction, ...]] | None] = None

    def __init__(self, root: Path, store: SummaryStore | None = None) -> None:
        self.root = root
        self._store = store
        # file -> (size and time, summary, the settled run that last checked them)
        self._summaries: dict[Path, tuple[tuple[int, int] | None, ModuleSummary | None, object | None]] = {}
        # (import folder, module) -> its file, or None and the file a package there would hold for it
        self._located: dict[tuple[Path, str], tuple[Path | None, Path | None]] = {}
        self._roots: dict[Path, tuple[tuple[str, bool], ...]] = {}  # see _import_roots
        self._listings: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # see _listing
        self._files: dict[Path, list[Path]] = {}
        self._tops: dict[tuple[Path, str], Path] = {}  # see _top
        # Per searched folder: capitalised name -> the files calling it, and -> the files mentioning it
        # (asking each file once, not once per class: a module of many classes stays linear).
        self._name_index: dict[Path, tuple[dict[str, list[Path]], ...]] = {}
        self._reaching: dict[tuple[Path, str], frozenset[Path]] = {}  # see _importing_module
        self._named_sets: dict[tuple[Path, str, bool, bool], frozenset[Path]] = {}  # see _named
        self._orders: dict[Path, dict[Path, int]] = {}  # see _order
        self._index: dict[str, FileText] | None = None  # file -> what its text says (see _text)
        self._checked: set[str] = set()  # the files whose index row this lint has found current (see _text)
        self._packages: dict[Path, str] = {}  # file -> the package its relative imports start from
        self._index_changed = False
        # (question, file, name) -> (what other modules answer, the files asked, by content hash): _asked
        self._answers: dict[tuple[str, Path, str], tuple[Any, dict[Path, str]]] = {}
        # (question, import folder, ...) -> (what it answers, the summaries read for it): see remembered
        self._remembered: dict[tuple, tuple[Any, dict[Path, str], object | None]] = {}  # (answer, read, run)
        self._reading: list[dict[Path, str]] = []  # the summaries each question being answered has read
        self._digests: dict[tuple[Path, int, int], str] = {}
        self._present: dict[Path, tuple[str, object | None]] = {}  # file -> (content hash, settled run): presence
        self.consulted: dict[Path, str] = {}  # every module read for a lint: its path and content hash
        # The names a lint asked the project's other files about (who builds, registers, derives from, changes
        # it): a file that comes to write one may become a user the lint never read (ResultCache.stale).
        self.asked: set[str] = set()
        self._foreign: dict[tuple[str, str, str], ClassInfo | None] = {}  # (path, digest, class): read once
        self._linting: Path | None = None  # the file of the lint under way (see view)
        self._shared: set[Path] = set()  # the files whose summary this worker process wrote for the others
        self._making = 0  # how many summaries the process is making now (one asks for others)
        self._ahead = False  # making a summary while it waits for another process's (see _made_ahead)
        self._calls: dict[tuple[str, str, str], tuple[Construction, ...]] = {}  # (path, digest, function)
        self._root_prefix = os.path.join(str(root), "")

    @property
    def store(self) -> SummaryStore:
        if self._store is None:
            self._store = SummaryStore()
        return self._store

    @classmethod
    def for_file(cls, path: str) -> Project | None:
        """The project of a Python file or notebook named by its path (None for text that has no place:
        a string, stdin without a name)."""
        if not path.endswith((".py", ".pyi", ".ipynb")):
            return None
        try:
            file = resolved_path(path)
            if not file.parent.is_dir():
                return None
            root = find_root(file)
        except (OSError, RuntimeError, ValueError):
            return None
        if root not in cls._instances:
            cls._instances[root] = Project(root)
        return cls._instances[root]

    @classmethod
    def forget_what_was_absent(cls) -> None:
        """Look again, in every project, for the modules that were not there and the files that may build
        a class: a long-running process (the language server) calls it when a file is saved."""
        for project in cls._instances.values():
            project._located = {key: found for key, found in project._located.items() if found[0] is not None}
            project._listings.clear()
            project._files.clear()
            project._name_index.clear()
            project._reaching.clear()
            project._named_sets.clear()
            project._orders.clear()
            project._answers.clear()
            project._remembered.clear()
            project._foreign.clear()
        module_location.cache_clear()  # a folder may have become a package
        _package_of.cache_clear()
        _resolved_absolute.cache_clear()
        _resolved_folder.cache_clear()

    def view(self, path: str) -> ModuleView:
        """What a file's analysis asks of the project, answered from that file's place in it."""
        file = self._linting = resolved_path(path)
        Project.files_to_lint.discard(file)
        import_root, module, is_package = module_location(file)
        self._checked.clear()  # a new lint: each file's text is looked at once more (it may have changed)
        return ModuleView(self, file, import_root, module, is_package)

    # modules -------------------------------------------------------------------------------------------------
    def _import_roots(self, first: Path) -> tuple[tuple[str, bool], ...]:
        """Where modules are imported from: the file's own import folder, then the project folder and its
        `src/` when they hold it (an installed package's project is its package folder: no import folder);
        each as a string, with whether only the project's own modules are looked for there (the file's own
        folder outside the project: an installed package's imports of the packages beside it)."""
        if first not in self._roots:
            if first == self.root or self._inside(str(first)):
                folders = list(dict.fromkeys([first, self.root, self.root / "src"]))
            else:
                folders = [first]
            self._roots[first] = tuple((str(folder), folder == first) for folder in folders)
        return self._roots[first]

    def locate(self, module: str, import_root: Path) -> Path | None:
        """The file of a dotted module name, as Python would find it from these folders, when it is in the
        project (an installed package's imports of other installed packages are not followed)."""
        key = (import_root, module)
        if key not in self._located:
            found = None
            parts = module.split(".")
            if all(part.isidentifier() for part in parts):
                for folder, own_only in self._import_roots(import_root):
                    base = _below(folder, *parts)  # strings: this runs for every imported name
                    for candidate, within, name in ((base + ".py", parts[:-1], parts[-1] + ".py"),
                                                    (_below(base, "__init__.py"), parts, "__init__.py")):
                        if (not own_only or self._inside(candidate)) and self._holds(folder, within, name):
                            found = Path(candidate)
                            break
                    if found is not None:
                        break
            # A module of a package here that is not there yet: a lint that looked for it depends on it.
            root = str(import_root)
            awaited = Path(_below(root, *parts) + ".py") if found is None and (
                import_root == self.root or self._inside(_below(root, parts[0], ""))) \
                and parts[0] in self._listing(root)[1] else None
            self._located[key] = (found, awaited)
        found, awaited = self._located[key]
        if awaited is not None:
            self.consulted[awaited] = ABSENT
        return found

    def _holds(self, folder: str, within: list[str], name: str) -> bool:
        """Whether the folder `folder/within...` holds a file `name`, read from the folders' listings (each
        listed once: most names looked for are not there, and each was a failed path walk in the kernel: a
        cold equinox run's failed `stat` calls, 1,039 before, 326 after)."""
        for part in within:
            if part not in self._listing(folder)[1]:
                return False
            folder = _below(folder, part)
        return name in self._listing(folder)[0]

    def _listing(self, folder: str) -> tuple[frozenset[str], frozenset[str]]:
        """The names of a folder's files and of its folders (symbolic links followed; none when it cannot
        be read)."""
        if folder not in self._listings:
            files, folders = set(), set()
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        try:
                            if entry.is_file():
                                files.add(entry.name)
                            elif entry.is_dir():
                                folders.add(entry.name)
                        except OSError:
                            continue
            except OSError:
                pass
            self._listings[folder] = (frozenset(files), frozenset(folders))
        return self._listings[folder]

    def remembered(self, view: ModuleView, key: tuple, answer: Callable[[], Any]) -> Any:
        """What `answer` says, asked once per project for every module that asks the same question: `key`
        names the question and what its answer depends on besides summaries (the import folder, a summary's
        content hash). The summaries read for it are kept with it: each is read again for the next module
        that asks (a changed one has the question answered anew, and each counts as consulted for its lint).
        In a settled run an answer read again once is not checked again: its files stay as they are."""
        known = self._remembered.get(key)
        if known is not None:
            if Project.settled is not None and known[2] is Project.settled:
                self.consulted.update(known[1])
            elif all(view.digest_of(file) == digest for file, digest in known[1].items()):
                self._remembered[key] = (*known[:2], Project.settled)
            else:
                known = None
        if known is not None:
            for reading in self._reading:
                reading.update(known[1])
            return known[0]
        self._reading.append({})
        try:
            found = answer()
        finally:
            read = self._reading.pop()
        for reading in self._reading:
            reading.update(read)
        self._remembered[key] = (found, read, Project.settled)
        return found

    def read(self, file: Path, digest: str) -> None:
        """A project file read (the content hash it was read with, ABSENT: none) for each question being
        answered."""
        for reading in self._reading:
            reading[file] = digest

    def _inside(self, path: str) -> bool:
        """A file or folder below the project's folder (a string test: `Path.parents` makes a path per level)."""
        return path.startswith(self._root_prefix)

    def summary_of(self, file: Path) -> ModuleSummary | None:
        """The summary of a project file (None when it cannot be read or parsed: it is then unknown). A
        file changed since it was read (a long-running language server sees edits) is read again, unless the
        project is settled."""
        known = self._summaries.get(file)
        if known is None or Project.settled is None or known[2] is not Project.settled:
            known = self._current(file, known)
        summary = known[1]
        if summary is not None:
            self.consulted[file] = summary.digest
        else:  # unreadable or not Python yet: a lint that asked depends on it being fixed
            try:
                self.consulted[file] = content_digest(read_settled(file))
            except OSError:
                self.consulted[file] = ABSENT
        return summary

    def presence(self, file: Path) -> str:
        """The content hash of a project file read only for being there (ABSENT: it is not), not summarised:
        a module a name stands for whole. Checked once per settled run; the lint that asked depends on it."""
        known = self._present.get(file)
        if known is None or Project.settled is None or known[1] is not Project.settled:
            known = self._present[file] = (self._digest(file), Project.settled)
        self.consulted[file] = known[0]
        return known[0]

    def summarised(self, file: Path) -> bool:
        """Whether the process has made (or read) a summary of the file, current or not."""
        return file in self._summaries

    def _current(self, file: Path, known: tuple | None) -> tuple:
        """What `_summaries` knows of a file as it is now: `known`'s summary when its size and time are the
        same."""
        try:
            stat = file.stat()
            version = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            version = None
        if known is None or known[0] != version:
            if known is not None:
                self._answers.clear()  # they were read from the old text
                self._remembered.clear()
            known = self._summaries[file] = (version, self._summarise(file), Project.settled)
        elif known[2] is not Project.settled:
            known = self._summaries[file] = (*known[:2], Project.settled)
        return known

    def foreign_class(self, definition: Definition) -> ClassInfo | None:
        """A class another module of the project defines, read from that module's source as a module reads
        its own classes (once per content): its nodes quote and cite that module (`source.HOME`), and the
        names it reads stand for what they mean there (`names.MEANT`). None when the module changed since
        its summary was made, or does not define the class at its top level."""
        summary = definition.summary
        key = (summary.path, summary.digest, definition.name)
        if key not in self._foreign:
            self._foreign[key] = _read_class(summary, definition.name)
        return self._foreign[key]

    def adopt(self, file: Path, tree: ast.Module, text: str) -> None:
        """Summarise a file from the tree its own lint parsed, when the process knows no summary of it yet
        and the text is the file's: a module another one imports is then parsed once, not twice (the CLI
        lints the imported modules first)."""
        if file not in Project.adopted_files or file in self._summaries:
            return
        self._summarised_now(file, (tree, text))

    def _summarised_now(self, file: Path, parsed: tuple[ast.Module, str] | None = None) -> bool:
        """Summarise a file the process knows no summary of, kept with its size and time as they are now
        (see _current; `parsed` as _summarise's); whether it could be read."""
        try:
            stat = file.stat()
        except OSError:
            return False
        self._summaries[file] = ((stat.st_mtime_ns, stat.st_size), self._summarise(file, parsed), Project.settled)
        return True

    def _summarise(self, file: Path, parsed: tuple[ast.Module, str] | None = None) -> ModuleSummary | None:
        try:
            data = read_settled(file)
        except OSError:
            return None
        _, module, is_package = module_location(file)
        digest = content_digest(data)
        cached = self.store.get(digest, module, is_package)
        if cached is None and parsed is None:
            cached = self._made_elsewhere(file, digest, module, is_package)
        if cached is not None:
            # Kept by content: the same module in another checkout (or a moved project) made it there.
            cached.path, cached.kept_in = str(file), self.store
            return cached
        if Project.summarize is None:
            raise RuntimeError("no summarizer: call engine.load_analysis() first")
        keep = parsed is None and file in Project.files_to_lint and (Project.takes is None or Project.takes(file))
        self._making += 1
        try:
            summary = Project.summarize(data, str(file), module, is_package, digest, parsed, keep)
        finally:
            self._making -= 1
        if summary is not None:
            summary.kept_in = self.store
            if Project.takes is not None:  # at once: another process of the run may ask for it during this lint
                if self.store.put(summary):
                    self._shared.add(file)
            else:
                self.store.put_later(summary)
        return summary

    def _made_elsewhere(self, file: Path, digest: str, module: str, is_package: bool) -> ModuleSummary | None:
        """The summary of a module another worker process is linting now, read from the store once that
        process has written it (a lint summarises a module another imports before anything else: see adopt),
        rather than made a second time here (lineax's largest module was, in each cold run: 24 ms). None
        when no other process is on it. Only a process that is making no summary, and whose own module's
        summary is written (when another imports it), waits: two processes never wait on each other (a
        summary kept to be written later made two wait the whole AWAIT_SECONDS: diffrax 0.5 s to 4.5). It
        waits while the other is on the file, at most AWAIT_SECONDS (a process killed on it)."""
        if (Project.linted_elsewhere is None or self._making or file not in Project.adopted_files
                or not self.store.enabled or not Project.linted_elsewhere(file)
                or (self._linting in Project.adopted_files and self._linting not in self._shared)):
            return None
        deadline = time.monotonic() + AWAIT_SECONDS
        while True:
            if not self._made_ahead():
                time.sleep(AWAIT_POLL_SECONDS)
            summary = self.store.get(digest, module, is_package)
            if summary is not None or time.monotonic() > deadline:
                return summary
            if not Project.linted_elsewhere(file):  # moved on: written since the read above, or never
                return self.store.get(digest, module, is_package)

    def _made_ahead(self) -> bool:
        """While the process waits for a summary another is making: the summary of the first file no process
        has taken the lint of, made here, the file then taken (see _summarise: its lint comes next here, from
        the tree kept), rather than idling (lineax's `_solve.py` waited 21-23 ms a cold run for `_operator.py`'s
        summary, and every module left imported `_operator.py`). Whether one was made."""
        if Project.untaken is None or self._ahead:
            return False
        for file in Project.untaken():
            if file in self._summaries:
                continue
            self._ahead = True
            try:
                if self._summarised_now(file):
                    return True
            finally:
                self._ahead = False
        return False

    def _top(self, import_root: Path, package: str) -> Path:
        """The folder searched for the users of a module of the top package `package` imported from
        `import_root`: the project's (its tests and scripts too) when the module is inside it, else the
        package's. Once per pair: its lists are asked for hundreds of times a run, and a path made anew is
        hashed anew."""
        key = (import_root, package)
        if key not in self._tops:
            self._tops[key] = self.root if import_root == self.root or self._inside(str(import_root)) \
                else import_root / package
        return self._tops[key]

    def files(self, import_root: Path, package: str) -> list[Path]:
        """The Python files that may build a class of such a module (see `_top`): nearest first, at most
        MAX_SEARCHED_FILES."""
        top = self._top(import_root, package)
        if top not in self._files:
            found: list[Path] = []
            for folder, subfolders, names in os.walk(top):
                subfolders[:] = sorted(s for s in subfolders if s not in SKIPPED_FOLDERS and not s.startswith("."))
                found.extend(Path(folder) / name for name in sorted(names) if name.endswith(".py"))
                if len(found) >= MAX_SEARCHED_FILES:
                    break
            self._files[top] = found[:MAX_SEARCHED_FILES]
        return self._files[top]

    def _files_naming(self, import_root: Path, package: str, name: str, called: bool, deriving: bool = False
                      ) -> list[Path]:
        """The searched files (see `files`) whose text calls `name` (`called` False: that may write it bare: they
        import it by name, or import `*` and mention it; `deriving`: that name it among a class's bases)."""
        return self._name_lists(import_root, package)[4 if deriving else 0 if called else 1].get(name, [])

    def _files_importing(self, import_root: Path, package: str, name: str) -> list[Path]:
        """The searched files whose text imports `name` (`from m import name`) or everything (`*`) from a
        module."""
        lists = self._name_lists(import_root, package)[2]
        return [*lists.get(name, []), *lists.get("*", [])]

    def _name_lists(self, import_root: Path, package: str) -> tuple[dict[str, list[Path]], ...]:
        """Per name, the searched files that call it, that may write it bare and that import it by name; per
        module they import (absolute; "" for a relative import climbing out of what can be told), the files
        importing it; per name, the files deriving a class from it."""
        top = self._top(import_root, package)
        if top not in self._name_index:
            lists: tuple[dict[str, list[Path]], ...] = ({}, {}, {}, {}, {})
            for file in self.files(import_root, package):
                text = self._text(file)
                if text is None:
                    continue
                imported = {name for names in text.from_imports.values() for name in names}
                modules = {(self._absolute_import(file, module) if module.startswith(".") else module) or ""
                           for module in text.imports}
                for names, found in zip((text.calls, {*text.mentions, *imported}, imported, modules, text.derived),
                                        lists):
                    for each in names:
                        found.setdefault(each, []).append(file)
            self._name_index[top] = lists
        return self._name_index[top]

    def imported_by_name(self, file: Path) -> KeysView[str]:
        """The names the searched files of a module's project import by name (`from module import name`, from
        any module): the module's public functions whose facts another module asks for (one reached as an
        attribute of its module is asked for rarely: 10 of the 228 asked in netket, whose modules' 545 public
        functions are imported by name 334)."""
        import_root, module, _ = module_location(file)
        return self._name_lists(import_root, module.split(".", 1)[0])[2].keys()

    def _importing_module(self, import_root: Path, package: str, module: str) -> frozenset[Path]:
        """The searched files importing `module` or a package above it (or by a relative import that climbs
        out of what can be told): with the files importing a class's name from anywhere (a re-export, which
        `_imports_name` follows), the only files that may reach that class. Once per module: each of its
        classes asks."""
        key = (self._top(import_root, package), module)
        if key not in self._reaching:
            by_module, parts = self._name_lists(import_root, package)[3], module.split(".")
            self._reaching[key] = frozenset({*by_module.get("", ()), *(
                file for cut in range(1, len(parts) + 1) for file in by_module.get(".".join(parts[:cut]), ()))})
        return self._reaching[key]

    def _text(self, file: Path) -> FileText | None:
        """What the text index knows of a file (see FileText): read once, and kept on disk with the file's
        size and modification time (the next process only stats the files that did not change)."""
        if self._index is None:
            self._index = self.store.load_index(self.root)
        key = str(file)
        if key in self._checked:  # found current earlier in this lint: each file is asked about many times
            return self._index.get(key)
        try:
            stat = file.stat()
        except OSError:
            return None
        self._checked.add(key)
        known = self._index.get(key)
        if known is None or (known.mtime, known.size) != (stat.st_mtime_ns, stat.st_size):
            try:
                data = read_regular(file)  # from the disk, not a settled run's copy: kept with this stat
            except OSError:
                data = b""
            known = self._index[key] = file_text(data, stat.st_mtime_ns, stat.st_size)
            self._index_changed = True
        return known

    def _save_index(self) -> None:
        """Keep the text index on disk for the next process, when this one read a file anew."""
        if self._index_changed:
            self.store.save_index(self.root, self._index)
            self._index_changed = False

    def _digest(self, file: Path) -> str:
        """A file's content hash, read once per version of it (its modification time and size)."""
        try:
            stat = file.stat()
        except OSError:
            return ABSENT
        key = (file, stat.st_mtime_ns, stat.st_size)
        if key not in self._digests:
            try:
                self._digests[key] = content_digest(read_settled(file))
            except OSError:
                return ABSENT
        return self._digests[key]

    def may_register(self, view: ModuleView, class_name: str) -> bool:
        """Whether another project file may register the class `class_name` of the module `view` sees from:
        it mentions the class, imports its module and spells a registering word (from their texts alone)."""
        package = view.module.split(".", 1)[0]
        if package in NEVER_FOLLOWED:
            return False
        key = ("may register", view.file, class_name)
        self.asked.add(class_name)
        if key not in self._answers:  # asked by the prefilter and by the analysis: read once
            users = [file for file in self._may_use(view, package, class_name, called=False)
                     if self._imports_name(file, view.module, class_name, view.import_root)]
            self._save_index()
            # A user that registers nothing today may tomorrow: a lint that asked depends on each.
            self._answers[key] = (any((text := self._text(file)) is not None and text.registers for file in users),
                                  {file: self._digest(file) for file in users})
        found, dependencies = self._answers[key]
        self.consulted.update(dependencies)
        return found

    def _imports_module(self, file: Path, module: str) -> bool:
        """A file that imports `module` or its package, by its absolute name or relatively."""
        text = self._text(file)
        return text is not None and any(self._reaches(file, imported, module) for imported in text.imports)

    def _reaches(self, file: Path, imported: str, module: str) -> bool:
        """An import `file` writes (`..core`, `pkg.mod`) names `module` or a package above it (or climbs out
        of what can be told: then it may)."""
        absolute = self._absolute_import(file, imported) if imported.startswith(".") else imported
        return absolute is None or absolute == module or module.startswith(absolute + ".")

    def _imports_name(self, file: Path, module: str, name: str, import_root: Path, depth: int = 0) -> bool:
        """A file that imports `name` (or *) from `module`, from a package above it, or from a project module
        that does so in turn (a re-export, a few levels deep): what a file mentioning a class by its bare
        name needs to mean this module's."""
        text = self._text(file)
        for imported, names in (text.from_imports.items() if text else ()):
            if name not in names and "*" not in names:
                continue
            if self._reaches(file, imported, module):
                return True
            absolute = self._absolute_import(file, imported) if imported.startswith(".") else imported
            other = self.locate(absolute, import_root) if depth < MAX_REEXPORTS and absolute else None
            if other is not None and other != file and self._imports_name(other, module, name, import_root,
                                                                           depth + 1):
                return True
        return False

    def _absolute_import(self, file: Path, relative: str) -> str | None:
        """The absolute name of a relative import (`..core.scope`) in `file`; None when it climbs out."""
        if file not in self._packages:
            _root, name, is_package = module_location(file)
            self._packages[file] = name if is_package else name.rpartition(".")[0]
        parts = self._packages[file].split(".") if self._packages[file] else []
        rest = relative.lstrip(".")
        climbed = len(relative) - len(rest) - 1
        if climbed > len(parts) or (climbed == len(parts) and not rest):
            return None
        return ".".join([*parts[:len(parts) - climbed], *([rest] if rest else [])])

    def _users(self, view: ModuleView, class_name: str, called: bool, registering: bool = False,
               annotating: bool = False, deriving: bool = False):
        """(caller view, summary) for each other project file that may use the class `class_name` of the
        module `view` sees from: those that call (or, `called` False, mention) it and import its module (and,
        `registering`, spell a registering call: the others are `may_register`'s dependencies; `annotating`,
        annotate with it); `deriving`: those that name it among a class's bases, by its name or its module's."""
        package = view.module.split(".", 1)[0]
        if package in NEVER_FOLLOWED:
            return  # jax's own classes: their names are library names wherever they are used
        def uses(file: Path) -> bool:
            text = self._text(file)
            # A file calling the class may reach it through its module (`mesh.Mesh(...)`) or by its name.
            return text is not None and (
                ((called or deriving) and self._imports_module(file, view.module))
                or self._imports_name(file, view.module, class_name, view.import_root)) and not (
                registering and not text.registers) and not (annotating and class_name not in text.annotated)

        yield from self._views_of(filter(uses, self._may_use(view, package, class_name, called, deriving)))

    def _may_use(self, view: ModuleView, package: str, class_name: str, called: bool, deriving: bool = False
                 ) -> list[Path]:
        """The other searched files that call (or, `called` False, mention; `deriving`, derive from) the class
        `class_name` of the module `view` sees from and may reach it (see _importing_module): the only ones a
        question about its users reads. A file outside these cannot use the class, whatever its text
        mentions: it is never asked about."""
        if self.files(view.import_root, package) == [view.file]:
            return []  # a module alone (a script, a notebook): no other file to index
        naming = self._files_naming(view.import_root, package, class_name, called, deriving)
        if not naming:
            return []
        reaching = self._importing_module(view.import_root, package, view.module)
        importing = self._files_importing(view.import_root, package, class_name)
        if len(reaching) + len(importing) >= len(naming):
            imported = set(importing)
            return [file for file in naming if (file in reaching or file in imported) and file != view.file]
        # Fewer files may reach the class than name it: those of them that name it, in the files' order (a
        # name every module defines and calls, `Node` in each of N modules, made each module read N files).
        named = self._named(view.import_root, package, class_name, called, deriving)
        order = self._order(view.import_root, package)
        return sorted({file for file in (*reaching, *importing) if file in named and file != view.file},
                      key=order.__getitem__)

    def _named(self, import_root: Path, package: str, name: str, called: bool, deriving: bool) -> frozenset[Path]:
        """_files_naming's files as a set, made once per name."""
        key = (self._top(import_root, package), name, called, deriving)
        if key not in self._named_sets:
            self._named_sets[key] = frozenset(self._files_naming(import_root, package, name, called, deriving))
        return self._named_sets[key]

    def _order(self, import_root: Path, package: str) -> dict[Path, int]:
        """Each searched file's place in `files`."""
        top = self._top(import_root, package)
        if top not in self._orders:
            self._orders[top] = {file: place for place, file in enumerate(self.files(import_root, package))}
        return self._orders[top]

    def _views_of(self, files):
        """(view, summary) for each of `files` that is Python this interpreter reads (the text index, read
        to choose them, saved after)."""
        for file in files:
            summary = self.summary_of(file)
            if summary is not None:
                yield self.view_of(summary), summary
        self._save_index()

    def view_of(self, summary: ModuleSummary) -> ModuleView:
        """The project as the module a summary was made of sees it."""
        file = Path(summary.path)
        return ModuleView(self, file, module_location(file)[0], summary.module, summary.is_package)

    def _names_definition(self, caller: ModuleView, summary: ModuleSummary, name: str, view: ModuleView,
                          defined: str) -> bool:
        """A name of the caller's module that, followed from its own place, is the class or function
        `defined` of this very file."""
        module, _, last = caller.resolve_in(summary, name).rpartition(".")
        return last == defined and bool(module) and self.locate(module, caller.import_root) == view.file

    def _asked(self, question: str, view: ModuleView, name: str, users, answer: Callable) -> list:
        """What the summaries of `users` ((caller view, summary) pairs) answer about the name `name` of the
        module `view` sees from (`answer(caller, summary)`), asked once. Every summary asked is a dependency
        of the lint: one that says nothing today may tomorrow."""
        key = (question, view.file, name)
        self.asked.add(name)
        if key not in self._answers:
            asked = list(users)
            self._answers[key] = ([found for caller, summary in asked for found in answer(caller, summary)],
                                  {Path(summary.path): summary.digest for _caller, summary in asked})
        found, dependencies = self._answers[key]
        self.consulted.update(dependencies)
        return found

    def _facts_naming(self, question: str, view: ModuleView, name: str, users, facts: Callable,
                      named: Callable) -> list:
        """(fact, summary) for each fact of the users' summaries (`facts(summary)`) whose name (`named(fact)`),
        followed from its module, is the class or function `name` of the module `view` sees from."""
        return self._asked(question, view, name, users, lambda caller, summary: [
            (fact, summary) for fact in facts(summary) if self._names_definition(caller, summary, named(fact), view,
                                                                                 name)])

    def constructions(self, view: ModuleView, class_name: str) -> list[tuple[Construction, ModuleSummary]]:
        """Every call in the project that builds the class `class_name` of the module `view` sees from, with
        the module making it. Only files whose text calls the class by its name are summarised, and a call
        counts when its name, followed from that file's own place, reaches this very file."""
        return self._facts_naming("constructions", view, class_name, self._users(view, class_name, called=True),
                                  lambda summary: summary.uses("constructions"), lambda made: made.callee)

    def subclasses(self, view: ModuleView, class_name: str, keeps: Keeps, own: Iterable[str] = ()
                   ) -> list[tuple[ModuleView, ModuleSummary, str]]:
        """The classes other project modules derive from the class `class_name` of the module `view` sees
        from, directly or through others that `keeps` (of any module: `own`, those of its own module), that
        `keeps` too (asked with the names a class binds and whether its module shows a library registering
        it): (their module's view, its summary, the class's name), each once."""
        found: list[tuple[ModuleView, ModuleSummary, str]] = []
        pending = [(view, class_name), *((view, name) for name in own)]
        seen = {(view.file, name) for _view, name in pending}
        while pending:
            base_view, base = pending.pop()
            derived = list(self._facts_naming("subclasses", base_view, base,
                                              self._users(base_view, base, called=False, deriving=True),
                                              lambda summary: [(name, each) for name, facts in summary.classes.items()
                                                               for each in facts.bases], lambda pair: pair[1]))
            if base_view is not view:  # and those of the base's own module (not among its users)
                summary = self.summary_of(base_view.file)
                within = f"{base_view.module}.{base}"
                derived.extend(((name, within), summary) for name, facts in (summary.classes.items() if summary
                                                                             else ()) if within in facts.bases)
            for (name, _base), summary in derived:
                facts = summary.classes[name]
                sub_view = base_view if Path(summary.path) == base_view.file else self.view_of(summary)
                if (sub_view.file, name) not in seen and keeps(facts.declared, facts.library is not None):
                    seen.add((sub_view.file, name))
                    pending.append((sub_view, name))
                    if sub_view.file != view.file:
                        found.append((sub_view, summary, name))
        return found

    def changes_elsewhere(self, view: ModuleView, class_name: str, holders: tuple[tuple[str, str], ...] = ()
                          ) -> list[tuple[AttributeChange, ModuleSummary]]:
        """The in-place changes other project modules make to attributes of objects of the class
        `class_name` of the module `view` sees from, through what they declare as one; and through the
        items of `holders` ((class, attribute): a collection of it the module's class declares), as changes
        of the class's attribute (`for stack in tower.stacks: stack.sizes.append(...)`)."""
        found = self._changes_of(view, class_name)
        holding = [(view, holder, attribute) for holder, attribute in holders]
        holding.extend((self.view_of(summary), holder, attribute)
                       for (holder, attribute, _held), summary in self._holders_elsewhere(view, class_name))
        for holder_view, holder, attribute in holding:  # a new list: the answers are kept for the next question
            prefix = f"{attribute}{ITEMS}"
            found = [*found, *((change._replace(attribute=change.attribute[len(prefix):]), summary)
                               for change, summary in self._changes_of(holder_view, holder)
                               if change.attribute.startswith(prefix))]
        return found

    def _changes_of(self, view: ModuleView, class_name: str) -> list[tuple[AttributeChange, ModuleSummary]]:
        """The in-place changes other project modules make through what they declare as an object of the
        class `class_name` of the module `view` sees from (or an item of a collection of it)."""
        return self._facts_naming("changes", view, class_name,
                                  self._users(view, class_name, called=False, annotating=True),
                                  lambda summary: summary.uses("changes"), lambda change: change.cls)

    def _holders_elsewhere(self, view: ModuleView, class_name: str
                           ) -> list[tuple[tuple[str, str, str], ModuleSummary]]:
        """((holder class, attribute, held class), module) for each class of another project module that
        declares an attribute a collection of the class `class_name` of the module `view` sees from
        (`silos: list[Silo]`): the changes made through its items are changes of this class's objects."""
        return self._facts_naming("holders", view, class_name,
                                  self._users(view, class_name, called=False, annotating=True),
                                  lambda summary: [(holder, attribute, held)
                                                   for holder, facts in summary.classes.items()
                                                   for attribute, held in facts.holds],
                                  lambda holding: holding[2])

    def hashed_elsewhere(self, view: ModuleView, class_name: str) -> list[tuple[HashedObject, ModuleSummary]]:
        """The objects of the class `class_name` of the module `view` sees from that other project modules
        pass as static arguments of jitted calls."""
        return self._facts_naming("hashed", view, class_name, self._users(view, class_name, called=False),
                                  lambda summary: summary.uses("hashed"), lambda hashed: hashed.cls)

    def arrays_passed(self, view: ModuleView, function: str) -> list[tuple[ArrayPassed, ModuleSummary]]:
        """The calls other project modules make of the function `function` of the module `view` sees from
        that pass a parameter annotated as an array (from the files that import it by its name)."""
        return self._facts_naming("arrays passed", view, function, self._importers(view, function),
                                  lambda summary: summary.uses("arrays_passed"), lambda passed: passed.callee)

    def _importers(self, view: ModuleView, name: str):
        """(caller view, summary) for each other project file that imports the name `name` of the module
        `view` sees from (from it, a package above it, or a module re-exporting it)."""
        package = view.module.split(".", 1)[0]
        if package in NEVER_FOLLOWED:
            return
        yield from self._views_of(
            file for file in self._files_importing(view.import_root, package, name)
            if file != view.file and self._imports_name(file, view.module, name, view.import_root))

    def built_through(self, builder: str, summary: ModuleSummary, line: int,
                      depth: int = 0) -> tuple[str, ModuleSummary, int] | None:
        """Where calls of a builder (see Construction.builder; of `summary`'s module, whose call at `line` makes
        the object) make its object per call: a call of another module that does, or one that is itself
        returned by a builder there, judged the same way (a few levels deep); or the builder itself, when
        nothing in the project calls it (a library's factory, a dispatcher's registered implementation: its
        users call it, as often as they like). None when nothing says it is made per call."""
        name = builder.rsplit(".", 1)[-1]
        view = self.view_of(summary)

        def answer() -> tuple[str, ModuleSummary, int] | None:
            calls = self.calls_elsewhere(view, name)
            for call, module in calls:
                if call.per_call:
                    return call.per_call, module, call.line
            for call, module in calls if depth < MAX_BUILDER_LEVELS else ():
                found = self.built_through(call.builder, module, call.line, depth + 1) if call.builder else None
                if found is not None:
                    return found
            if not getattr(summary.function(name), "called_here", True) and not self.imported_elsewhere(view, name):
                return f"{name}(...)", summary, line
            return None

        # Once per builder and depth: builders returning each other's objects across many modules would
        # otherwise be followed along every path.
        return self.remembered(view, ("built through", builder, summary.path, summary.digest, depth), answer)

    def imported_elsewhere(self, view: ModuleView, name: str) -> bool:
        """Whether another project file imports the name `name` of the module `view` sees from: its summary
        binds the name (or takes `*`), so an import in a docstring's example is none."""
        return any(summary.stars or any(target.rsplit(".", 1)[-1] == name for target in summary.names.values())
                   for _view, summary in self._importers(view, name))

    def registrations_elsewhere(self, view: ModuleView, class_name: str) -> list[tuple[RegisteredElsewhere,
                                                                                     ModuleSummary]]:
        """The registering calls other project modules make of the class `class_name` of the module `view`
        sees from (`register_dataclass(Params, meta_fields=[...])` in another module)."""
        return self._facts_naming("registrations", view, class_name,
                                  self._users(view, class_name, called=False, registering=True),
                                  lambda summary: summary.registered, lambda fact: fact.cls)

    def calls_elsewhere(self, view: ModuleView, function: str) -> list[tuple[Construction, ModuleSummary]]:
        """The calls other project modules make of the function `function` of the module `view` sees from
        that pass something known (from the files that import it by its name), with their modules."""
        return self._facts_naming("calls", view, function, self._importers(view, function),
                                  lambda summary: self._calls_in(summary, function), lambda call: call.callee)

    def _calls_in(self, summary: ModuleSummary, function: str) -> tuple[Construction, ...]:
        """The calls a project module makes of functions named `function`, read from its source (once per
        content)."""
        key = (summary.path, summary.digest, function)
        if key not in self._calls:
            self._calls[key] = Project.read_calls(summary, function) if Project.read_calls is not None else ()
        return self._calls[key]

    def subclasses_elsewhere(self, view: ModuleView, class_name: str) -> list[Definition]:
        """The classes other project modules derive directly from the class `class_name` of the module
        `view` sees from."""
        found = self._facts_naming("subclasses", view, class_name, self._users(view, class_name, called=False),
                                   lambda summary: [(name, base) for name, facts in summary.classes.items()
                                                    for base in facts.bases], lambda pair: pair[1])
        return list({(summary.path, name): Definition(summary, name) for (name, _base), summary in found}.values())

    def transformed_elsewhere(self, view: ModuleView, class_name: str) -> list[ModuleSummary]:
        """The other project modules where the class `class_name` of the module `view` sees from reaches a
        JAX transformation (their summaries' `transformed`)."""
        return self._asked("transformed", view, class_name, self._users(view, class_name, called=False),
                           lambda caller, summary: [summary] if any(
                               self._names_definition(caller, summary, name, view, class_name)
                               for name in summary.uses("transformed")) else [])


class ModuleView:
    """The project as one module sees it: its names followed to library names or project definitions."""

    def __init__(self, project: Project, file: Path, import_root: Path, module: str, is_package: bool) -> None:
        self.project = project
        self.file = file
        self.import_root = import_root
        self.module = module
        self.is_package = is_package
        self._resolved: dict[str, str] = {}
        self._referred: dict[str, tuple[tuple[Value, ModuleSummary], ...]] = {}
        # file -> its summary, asked of the project once per view (a view lives for one lint of one file: the
        # project checks each time whether the file changed)
        self._summaries: dict[Path, ModuleSummary | None] = {}

    def absolute(self, qualified: str) -> str | None:
        return absolute(qualified, self.module, self.is_package)

    def imports_project(self, text: str) -> bool:
        """Whether the module's text imports another module of the project (a relative import, or a module
        found in the project's folders), judged before the module is parsed."""
        for match in import_matches(IMPORTED_MODULE, text):
            module = match.group(1) or match.group(2)
            if module.startswith("."):
                if "." in self.module or self.is_package:  # a module of a package: its siblings are the project's
                    return True
                continue
            head = module.split(".", 1)[0]
            if head not in NEVER_FOLLOWED and self.project.locate(head, self.import_root) is not None:
                return True
        return False

    def registered_elsewhere(self, text: str) -> bool:
        """Whether another module of the project may register a class the module's text defines: the
        module is then read though its text spells no registering word (see Project.may_register)."""
        return any(self.project.may_register(self, name) for name in DEFINED_CLASS.findall(text))

    def resolve(self, qualified: str) -> str:
        """The name a (possibly relative) imported name finally stands for: the public library spelling
        knowledge/ knows, another library's name, or the project definition it was imported from."""
        if qualified not in self._resolved:
            name = self.absolute(qualified)
            self._resolved[qualified] = qualified if name is None else self.followed(name)
        return self._resolved[qualified]

    def resolve_in(self, summary: ModuleSummary, qualified: str) -> str:
        """`qualified` as written in another module (`summary`) resolved from there."""
        name = absolute(qualified, summary.module, summary.is_package)
        return qualified if name is None else self.followed(name)

    def followed(self, name: str) -> str:
        """An absolute name followed through the project's imports and re-exports to where it is defined."""
        return self.project.remembered(self, ("follow", self.import_root, name), lambda: self._follow(name, 0, set()))

    def _follow(self, name: str, hops: int, seen: set[str]) -> str:
        name = canonical(name)
        if name in KNOWN_NAMES or name.split(".", 1)[0] in NEVER_FOLLOWED or hops > MAX_HOPS or name in seen:
            return name
        seen.add(name)
        split = self._module_prefix(name)
        if split is None:
            return name
        file, rest = split
        if not rest:  # a module named whole (`from flax import errors`): only that it is there is read
            self.presence_of(file)
            return name
        summary = self.summary_of(file)
        if summary is None:
            return name
        head, _, tail = rest.partition(".")
        if head in summary.names:
            target = summary.names[head]
            return self._follow(f"{target}.{tail}" if tail else target, hops + 1, seen)
        if head in summary.defined:
            return name
        for star in summary.stars:
            if self.project.locate(star, self.import_root) is None:
                continue  # a compiled or missing module: nothing to follow (and no name to grow)
            followed = self._follow(f"{star}.{rest}", hops + 1, seen)
            if self.definition(followed) is not None:
                return followed
        return name

    def summary_of(self, file: Path) -> ModuleSummary | None:
        if file not in self._summaries:
            self._summaries[file] = self.project.summary_of(file)
        summary = self._summaries[file]
        self.project.read(file, summary.digest if summary is not None else ABSENT)
        return summary

    def presence_of(self, file: Path) -> str:
        """The content hash of a project module read only for being there (see Project.presence), recorded as
        a summary read is."""
        digest = self.project.presence(file)
        self.project.read(file, digest)
        return digest

    def digest_of(self, file: Path) -> str:
        """The content hash of a project file as an answer read it: its summary's (ABSENT: none) when the
        process made one, else the file's (see presence_of): checking a remembered answer summarises
        nothing new."""
        if file not in self._summaries and not self.project.summarised(file):
            return self.presence_of(file)
        summary = self.summary_of(file)
        return summary.digest if summary is not None else ABSENT

    def _module_prefix(self, name: str) -> tuple[Path, str] | None:
        """The longest leading part of `name` that is a project module, its file and the rest."""
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            file = self.project.locate(".".join(parts[:cut]), self.import_root)
            if file is not None:
                return file, ".".join(parts[cut:])
        return None

    def definition(self, name: str | None) -> Definition | None:
        """The project definition a resolved name stands for (None: a library name knowledge/ knows, even
        when the library is the project, or unknown)."""
        if not name or name in KNOWN_NAMES or name.split(".", 1)[0] in NEVER_FOLLOWED:
            return None
        module, _, defined = name.rpartition(".")
        if not module:
            return None
        file = self.project.locate(module, self.import_root)
        summary = self.summary_of(file) if file is not None else None
        if summary is None or defined not in summary.defined:
            return None
        return Definition(summary, defined)

    # values across modules ---------------------------------------------------------------------------------
    def returned_by(self, definition: Definition) -> tuple[tuple[Value, ModuleSummary], ...]:
        """What a project function returns, each value with the module that makes it."""
        if definition.function is None:
            return ()
        return self.resolved(definition.summary, definition.summary.returned_by(definition.name))

    def held_by(self, definition: Definition) -> tuple[tuple[Value, ModuleSummary], ...]:
        """What a project module's top-level name holds, each value with the module that makes it."""
        return self.resolved(definition.summary, definition.summary.bindings.get(definition.name, ()))

    def resolved(self, summary: ModuleSummary, values: tuple[Value, ...]) -> tuple[tuple[Value, ModuleSummary], ...]:
        """`values` of the module `summary` with their references replaced by what they stand for."""
        for value in values:
            if value.refers is not None:
                self._reference(value.refers)
        return self._joined(summary, values)

    def _joined(self, summary: ModuleSummary | None,
                values: tuple[Value, ...]) -> tuple[tuple[Value, ModuleSummary], ...]:
        """`values` of `summary` joined with what their references, already followed, stand for."""
        found = [(value, summary) for value in values if value.refers is None and summary is not None]
        for value in values:
            if value.refers is not None:  # an element of what it stands for: the element of that element
                found.extend((referred._replace(elements=(*value.elements, *referred.elements)), where)
                             if value.elements else (referred, where)
                             for referred, where in self._referred.get(value.refers, ()))
        return _first_of_each_kind(found)

    def _reference(self, reference: str) -> tuple[tuple[Value, ModuleSummary], ...]:
        """What a reference stands for, each once per view, the references it leads to followed first (a
        loop, not recursion: a chain of helpers across a thousand modules is a thousand steps); a reference
        met again while it is being followed (a cycle) stands for nothing there."""
        pending, following = [reference], set()
        while pending:
            current = pending[-1]
            if current in self._referred:
                pending.pop()
                continue
            whole, key = _selected(current)
            if key is not None:  # `pkg.m.f()[0]`: the element of what `pkg.m.f()` stands for
                if whole not in self._referred and whole not in following:
                    following.add(current)
                    pending.append(whole)
                    continue
                self._referred[current] = tuple((value._replace(elements=value.elements[1:]), summary)
                                                for value, summary in self._referred.get(whole, ())
                                                if value.elements[:1] == (key,))
                following.discard(current)
                pending.pop()
                continue
            referred = self._referred_values(current)
            waiting = [v.refers for _summary, values in referred for v in values if v.refers is not None
                       and v.refers not in self._referred and v.refers not in following]
            if waiting and current not in following:
                following.add(current)
                pending.extend(waiting)
                continue
            self._referred[current] = tuple(joined for summary, values in referred
                                            for joined in self._joined(summary, values))
            following.discard(current)
            pending.pop()
        return self._referred[reference]

    def _referred_values(self, reference: str) -> list[tuple[ModuleSummary | None, tuple[Value, ...]]]:
        """The values a reference names directly, each with its module's summary (`pkg.m.f()`: f's returns;
        `pkg.m.X`: X's; `pkg.m.f(x)`: what other modules' calls of f pass as its parameter `x`)."""
        name, _, parameter = reference.partition("(")
        parameter = parameter.rstrip(")")
        definition = self.definition(self.followed(name))
        if definition is None:
            return []
        if parameter:
            return self._passed_elsewhere(definition, parameter)
        if reference.endswith("()"):
            returned = definition.summary.returned_by(definition.name) if definition.function is not None else ()
            return [(definition.summary, returned)]
        return [(definition.summary, definition.summary.bindings.get(definition.name, ()))]

    def _passed_elsewhere(self, definition: Definition, parameter: str
                          ) -> list[tuple[ModuleSummary | None, tuple[Value, ...]]]:
        """What the calls other project modules make of a project function pass as its parameter."""
        facts = definition.function
        if facts is None or parameter not in facts.params:
            return []
        position = facts.params.index(parameter)
        return [(summary, tuple(argument.value for argument in call.arguments
                                if argument.keyword == parameter or argument.position == position))
                for call, summary in self.project.calls_elsewhere(self.project.view_of(definition.summary),
                                                                  definition.name)]

    def _once(self, question: str, definition: Definition, answer: Callable[[], Any]) -> Any:
        """A question about a project definition, answered once per project (Project.remembered)."""
        summary = definition.summary
        return self.project.remembered(self, (question, self.import_root, summary.path, summary.digest,
                                              definition.name), answer)

    def _classes_and_bases(self, definition: Definition) -> list[tuple[Definition, ClassFacts, list[str]]]:
        """A project class and its bases across modules, nearest first, each once (bases that lead back to
        a class already seen, through imports or repeated, end there): (definition, facts, resolved bases)."""
        return self._once("bases", definition, lambda: list(self._bases_of(definition)))

    def _bases_of(self, definition: Definition):
        pending, seen = [definition], set()
        while pending and len(seen) <= MAX_HOPS * 4:
            current = pending.pop(0)
            key = (current.summary.module, current.name)
            if current.cls is None or key in seen:
                continue
            seen.add(key)
            resolved = [self.resolve_in(current.summary, base) for base in current.cls.bases]
            yield current, current.cls, resolved
            pending.extend(parent for name in resolved if (parent := self.definition(name)) is not None)

    def class_library(self, definition: Definition) -> PytreeLibrary | None:
        """The library that registers a project class: its own module's verdict, else through its bases
        (library bases, or project classes in yet other modules)."""
        for _definition, facts, bases in self._classes_and_bases(definition):
            if facts.library is not None:
                return LIBRARY_BY_NAME.get(facts.library)
            for resolved in bases:
                library = BASES.get(resolved) or next((lib for lib in BASES.values() if lib.registered_prefixes
                                                       and resolved.startswith(lib.registered_prefixes)), None)
                if library is not None:
                    return library
        return None

    def library_base(self, definition: Definition, names: frozenset[str]) -> str | None:
        """The first of `names` (library classes) a project class derives from, nearest first, through its
        bases in any module (an `nnx.Variable` subclass of another module)."""
        for _definition, _facts, bases in self._classes_and_bases(definition):
            found = next((resolved for resolved in bases if resolved in names), None)
            if found is not None:
                return found
        return None

    def subclass_registration(self, definition: Definition, depth: int = 0) -> SubclassRegistration | None:
        """How a project class's `__init_subclass__` or `__new__` registers each subclass: its own, else a
        base's, else what its metaclass (or a base's) registers of each class it makes (across modules)."""
        for current, facts, _bases in self._classes_and_bases(definition):
            if facts.registers_subclasses is not None:
                return facts.registers_subclasses
            meta = self.definition(self.resolve_in(current.summary, facts.metaclass)) if facts.metaclass else None
            found = self.subclass_registration(meta, depth + 1) if meta is not None and depth < MAX_HOPS else None
            if found is not None:
                return found
        return None

    def class_host_state(self, definition: Definition) -> bool:
        """A project class declared a host-side state holder, by itself or through a base of another module."""
        return any(facts.host_state for _definition, facts, _bases in self._classes_and_bases(definition))

    def jit(self, definition: Definition, hops: int = 0) -> JitFacts | None:
        """How a project function is jitted: in its own module, or by a decorator of another module, a
        `partial(jax.jit, ...)` (`@jit_static`) or a jit decorator factory (`@jit_static("n")`). Its static
        parameters annotated as arrays come with it (PTL405 reports them in its module)."""
        if definition.jit is not None or definition.function is None:
            return definition.jit
        function = definition.function
        for decorator in function.decorators:
            wrapper = self.definition(self.resolve_in(definition.summary, decorator))
            if wrapper is not None and wrapper.jit is not None and wrapper.jit.wrapper:
                positions, names = set(wrapper.jit.static_positions), set(wrapper.jit.static_names)
                return _jit_facts(function, positions, names)
        for call in function.decorator_calls:  # `@jit_static("n")`: a jit decorator factory of the project
            factory = self.definition(self.resolve_in(definition.summary, call.name))
            if factory is not None and factory.function is not None and factory.function.jit_factory is not None:
                positions, names = factory_statics(factory.function.jit_factory, factory.function.params,
                                                   list(call.args), call.keywords)
                return _jit_facts(function, positions, names)
        forward = function.forward  # a plain wrapper of a jitted function: static where it passes on
        if forward is None or hops >= MAX_HOPS:
            return None
        callee = self.definition(self.followed(forward.callee))
        facts = self.jit(callee, hops + 1) if callee is not None else None
        if facts is None or facts.wrapper:
            return None
        static = {parameter for keyword, position, parameter in forward.arguments
                  if keyword in facts.static_names or position in facts.static_positions}
        if not static:
            return None
        arrays = {parameter for keyword, position, parameter in forward.arguments if parameter in static and (
            keyword in facts.static_arrays or (position is not None and position < len(facts.params)
                                               and facts.params[position] in facts.static_arrays))}
        wrapper = _jit_facts(function, set(), static)
        return wrapper._replace(static_arrays=tuple(sorted(set(wrapper.static_arrays) | arrays)))

    def tree_map(self, definition: Definition, hops: int = 0) -> tuple[TreeMapFacts, ModuleSummary] | None:
        """How a project function maps its parameters as every tree of a multi-tree map, with the module
        that makes the map: in its own body, or by returning a call of such a function that passes them on
        (its trees then named by its own parameters)."""
        function = definition.function
        if function is None:
            return None
        if function.tree_map is not None:
            return function.tree_map, definition.summary
        forward = function.forward
        if forward is None or hops >= MAX_HOPS:
            return None
        callee = self.definition(self.followed(forward.callee))
        found = self.tree_map(callee, hops + 1) if callee is not None and callee.function is not None else None
        if found is None:
            return None
        facts, module = found
        parameters = callee.function.params  # type: ignore[union-attr]
        passed = {keyword if keyword is not None else parameters[position]: parameter
                  for keyword, position, parameter in forward.arguments
                  if keyword is not None or (position is not None and position < len(parameters))}
        if not all(tree in passed for tree in facts.trees):
            return None
        return facts._replace(trees=tuple(passed[tree] for tree in facts.trees)), module

    def foreign_class(self, definition: Definition) -> ClassInfo | None:
        return self.project.foreign_class(definition) if definition.cls is not None else None

    def memoized(self, definition: Definition) -> bool:
        """A project function decorated with a memoiser (see memoizes): a call with equal arguments returns an
        earlier call's object."""
        facts = definition.function
        return facts is not None and any(
            self.memoizes(self.resolve_in(definition.summary, name))
            for name in (*facts.decorators, *(call.name for call in facts.decorator_calls)))

    def memoizes(self, name: str) -> bool:
        """A decorator's resolved name that memoises: `functools.lru_cache`, `functools.cache`, or a project
        decorator that applies one (in any module)."""
        decorator = self.definition(name)
        return name in MEMOIZERS or (decorator is not None and decorator.function is not None
                                     and decorator.function.memoizes)

    def is_nnx_class(self, definition: Definition) -> bool:
        """A project class that is a Flax NNX pytree (through its bases, in any module)."""
        return self.class_library(definition) is LIBRARY_BY_NAME.get("flax.nnx")

    def decorator_library(self, definition: Definition | None) -> PytreeLibrary | None:
        """The library whose decorator a project decorator applies (`return flax.struct.dataclass(cls)`)."""
        facts = definition.function if definition is not None else None
        return LIBRARY_BY_NAME.get(facts.registers) if facts is not None and facts.registers else None

    def constructions(self, class_name: str) -> list[tuple[Construction, ModuleSummary]]:
        """The calls other project modules make of this module's class `class_name`."""
        return self.project.constructions(self, class_name)

    def subclass_constructions(self, class_name: str, keeps: Keeps, own: Iterable[str] = ()
                               ) -> list[tuple[str, Construction, ModuleSummary]]:
        """The calls anywhere in the project of the classes other project modules derive from this module's
        class `class_name` (through others too, `own` those of this module) that `keeps`, each with the
        subclass's name: its own module's calls and the other modules'."""
        found = []
        for view, summary, name in self.project.subclasses(self, class_name, keeps, own):
            callee = f"{summary.module}.{name}"
            found.extend((name, made, summary) for made in summary.uses("constructions") if made.callee == callee)
            found.extend((name, made, made_in) for made, made_in in self.project.constructions(view, name))
        return found

    def built_per_call(self, construction: Construction, summary: ModuleSummary,
                       keeps: Callable[[ClassInfo], bool]) -> tuple[str, ModuleSummary, int] | None:
        """Where another module's construction (of `summary`'s module) makes its object anew per call of a
        function and passes it on (the call as written, its module and line): its own function does, or it is
        a builder (see Construction.builder) that a call in a module importing it makes per call. An object
        given to a construction of a class that only keeps what it is given (`keeps`) goes where that one
        goes (Construction.kept_by). None when nothing says it is made per call."""
        per_call, builder = construction.per_call, construction.builder
        if construction.kept_by:
            definition = self.definition(construction.kept_by)
            keeper = self.foreign_class(definition) if definition is not None else None
            if keeper is not None and keeps(keeper):
                per_call, builder = construction.kept_per_call, construction.kept_builder
        if per_call:
            return per_call, summary, construction.line
        return self.project.built_through(builder, summary, construction.line) if builder else None

    def imported_elsewhere(self, name: str) -> bool:
        """Whether another module of the project imports this module's name `name`."""
        return self.project.imported_elsewhere(self, name)

    def subclasses_elsewhere(self, class_name: str) -> list[ClassInfo]:
        """The classes other project modules derive from a class of this module, directly or through one
        another derives from it (in its own module or yet another, at any depth), read from there."""
        return [cls for cls, _definition in self.subclass_definitions_elsewhere(class_name)]

    def subclass_definitions_elsewhere(self, class_name: str) -> list[tuple[ClassInfo, Definition]]:
        """subclasses_elsewhere's classes, each with its definition (its module's summary and name). Each class
        is met once: the work is bounded by the project's classes."""
        found: list[tuple[ClassInfo, Definition]] = []
        pending: deque[tuple[ModuleView, str, ModuleSummary | None]] = deque([(self, class_name, None)])
        seen = {(self.file, class_name)}
        while pending:
            view, name, summary = pending.popleft()
            derived = self.project.subclasses_elsewhere(view, name)
            if summary is not None:  # a class of another module: its own module's classes deriving from it
                derived.extend(Definition(summary, other) for other, facts in summary.classes.items()
                               if f"{summary.module}.{name}" in facts.bases)
            for definition in derived:
                file = Path(definition.summary.path)
                cls = self.project.foreign_class(definition)
                if cls is None or (file, definition.name) in seen or file == self.file:
                    continue
                seen.add((file, definition.name))
                found.append((cls, definition))
                pending.append((self.project.view_of(definition.summary), definition.name, definition.summary))
        return found

    def transformed_elsewhere(self, class_name: str) -> list[ModuleSummary]:
        """The other project modules where this module's class `class_name` reaches a transformation."""
        return self.project.transformed_elsewhere(self, class_name)

    def may_register(self, class_name: str) -> bool:
        """Whether another module's text may register this module's class `class_name` (Project.may_register)."""
        return self.project.may_register(self, class_name)

    def heirs_registered_by_methods(self, class_name: str) -> Iterator[tuple[ClassInfo, Mechanism]]:
        """The classes other modules derive from this module's class `class_name` (see
        subclass_definitions_elsewhere) that are registered by their methods (knowledge.jax.BY_METHODS), each
        with its registering function: by its own module (a decorator, or the call after the class), else by
        a third module's call."""
        for cls, definition in self.subclass_definitions_elsewhere(class_name):
            facts = definition.cls
            own = facts.registered_by_methods if facts is not None else None
            names = [own] if own is not None else [
                fact.mechanism for fact, _ in self.project.view_of(definition.summary).registrations_elsewhere(
                    definition.name)]
            mechanism = next((BY_METHODS_NAMES[name] for name in names if name in BY_METHODS_NAMES), None)
            if mechanism is not None:
                yield cls, mechanism

    def registrations_elsewhere(self, class_name: str) -> list[tuple[RegisteredElsewhere, ModuleSummary]]:
        """The registering calls other project modules make of this module's class `class_name` (only the
        modules whose text may register it are summarised: Project.may_register)."""
        if not self.may_register(class_name):
            return []
        return self.project.registrations_elsewhere(self, class_name)

    def arrays_passed(self, function: str) -> list[tuple[ArrayPassed, ModuleSummary]]:
        """The calls other project modules make of this module's function passing array-annotated parameters."""
        return self.project.arrays_passed(self, function)

    def hashed_elsewhere(self, class_name: str) -> list[tuple[HashedObject, ModuleSummary]]:
        """The objects of this module's class `class_name` other project modules pass as static arguments."""
        return self.project.hashed_elsewhere(self, class_name)

    def changes_elsewhere(self, class_name: str, holders: tuple[tuple[str, str], ...] = ()
                          ) -> list[tuple[AttributeChange, ModuleSummary]]:
        """The in-place changes other project modules make to this module's class `class_name`'s attributes
        (`holders`: this module's classes' attributes declared as collections of it)."""
        return self.project.changes_elsewhere(self, class_name, holders)


def _selected(reference: str) -> tuple[str, int | str | None]:
    """A reference to an element of what another stands for (`pkg.m.f()[0]`, `pkg.m.f()['mask']`): that
    one and the element's key (keys are positions and identifier-like strings: no `[` in them); any other:
    itself and None."""
    if not reference.endswith("]"):
        return reference, None
    whole, _, key = reference[:-1].rpartition("[")
    return whole, int(key) if key.isdigit() else key.strip("'")


def _first_of_each_kind(found: list[tuple[Value, ModuleSummary]]) -> tuple[tuple[Value, ModuleSummary], ...]:
    """The values joined: the first of each kind (and leaf) is enough to judge and to name the origin, for
    the value and for each element of it."""
    kept: dict[tuple[str, str | None, tuple[int | str, ...]], tuple[Value, ModuleSummary]] = {}
    for value, summary in found:
        kept.setdefault((value.kind, value.leaf, value.elements), (value, summary))
    return tuple(kept.values())


def project_view(path: str) -> ModuleView | None:
    """The project as the file at `path` sees it (None when the path names no file's place)."""
    project = Project.for_file(path)
    if project is None:
        return None
    try:
        return project.view(path)
    except (OSError, RuntimeError, ValueError):
        return None
