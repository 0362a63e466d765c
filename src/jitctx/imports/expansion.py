"""Following `@imports` from one instruction file, through a resolver, with every stop reported.

The importing file's text is never changed: an import that cannot be followed stays in it as written, and
each followed import yields the target's text as a separate block whose parent is the importing file
(load reason `include`). Targets resolve relative to the importing file; `~/` against the given home.
Each target is read at most once per expansion; cycles, depth and the project boundary stop the walk.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from jitctx.imports.extraction import Import, extract, looks_like_path
from jitctx.imports.resolver import FileResolver, ImportStatus, ReadResult, Resolver
from jitctx.paths import is_inside, relative_posix
from jitctx.reading import MAX_FILE_BYTES

DEFAULT_MAX_DEPTH = 5
# What `allow_outside` may read outside the project: instruction text, nothing else.
OUTSIDE_SUFFIXES = (".md", ".mdc", ".markdown")
# A file with thousands of `@` tokens is prose about something else; follow the first ones only.
MAX_IMPORTS_PER_FILE = 1000
# Each target is at most 4 MiB; this bounds what a chain of large targets can pile up.
MAX_EXPANDED_BYTES = 4 * MAX_FILE_BYTES

_SEPARATOR = "\n\n"
# Longer names cannot exist (Linux PATH_MAX); realpath would otherwise walk every segment of a 1 MB token.
_PATH_MAX = 4096


@dataclass(frozen=True)
class ImportResult:
    """One `@import` and what became of it. `line`/`column` are in the importing file as on disk."""

    line: int
    column: int | None
    token: str  # as written after `@`
    path: str | None  # real absolute path of the target; None when the token names no file
    display: str | None  # `path` relative to the root (POSIX), or absolute outside it
    status: ImportStatus
    parent: str  # display path of the importing file
    parent_path: str  # its real absolute path
    depth: int  # 1 for imports of the file being expanded, 2 for theirs, ...
    text: str | None = None  # the target's body (frontmatter removed), for status `ok` only
    message: str = ""  # why, for every status but `ok`
    size: int | None = None  # bytes on disk, for `ok`
    mtime_ns: int | None = None

    @property
    def where(self) -> str:
        return f"{self.parent}:{self.line}"


@dataclass(frozen=True)
class Expansion:
    """Every import reachable from one file, depth first in document order (a target follows its importer)."""

    source: str  # real path of the expanded file
    display: str
    text: str  # its text, as given
    imports: tuple[ImportResult, ...]
    expanded_bytes: int  # UTF-8 bytes of `expanded_text()`
    warnings: tuple[str, ...] = field(default=())  # "file:line: ..." for each problem, plus content warnings

    @property
    def included(self) -> tuple[ImportResult, ...]:
        """The targets that were read, in the order their text follows the importing file's."""
        return tuple(r for r in self.imports if r.status is ImportStatus.OK)

    @property
    def problems(self) -> tuple[ImportResult, ...]:
        return tuple(r for r in self.imports if r.status.problem)

    def expanded_text(self) -> str:
        """The file's text followed by every included text, separated by blank lines."""
        return _SEPARATOR.join([self.text, *(r.text or "" for r in self.included)])


def expand(
    text: str,
    source_path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str],
    resolver: Resolver | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    allow_outside: bool = False,
    home: str | os.PathLike[str] | None = None,
    first_line: int = 1,
    display: Callable[[str], str] | None = None,
) -> Expansion:
    """Follow the imports of `text`, the body of the file at `source_path`.

    `first_line` is the line of `source_path` where `text` starts (the frontmatter's `body_line`), so
    warnings name the right line. `home` resolves `@~/...`; without it such imports are `missing`.
    `display` turns a real path into the name shown (default: relative to `root`, absolute outside).
    Never raises for bad targets: each gets a status, a message and a warning.
    """
    real_root = os.path.realpath(root)
    named = os.path.abspath(source_path)
    real = os.path.realpath(named)
    walk = _Walk(
        root=real_root,
        resolver=resolver if resolver is not None else DEFAULT_RESOLVER,
        max_depth=max_depth,
        allow_outside=allow_outside,
        home=os.fspath(home) if home is not None else None,
        display=display or (lambda path: _default_display(path, real_root)),
    )
    shown = walk.display(real)
    walk.size = len(text.encode("utf-8", errors="replace"))
    walk.visit(text, named, real, shown, first_line, 0, (real,))
    return Expansion(real, shown, text, tuple(walk.results), walk.size, tuple(walk.warnings))


DEFAULT_RESOLVER = FileResolver()


def _default_display(real: str, root: str) -> str:
    return (relative_posix(real, root) or ".") if is_inside(real, root) else real


@dataclass
class _Walk:
    root: str
    resolver: Resolver
    max_depth: int
    allow_outside: bool
    home: str | None
    display: Callable[[str], str]
    size: int = 0
    results: list[ImportResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reads: dict[str, ReadResult] = field(default_factory=dict)
    included: set[str] = field(default_factory=set)
    directories: dict[str, str] = field(default_factory=dict)  # named directory -> real path

    def visit(
        self,
        text: str,
        named: str,  # the path the file was reached by; relative imports resolve against its directory
        real: str,
        shown: str,
        first_line: int,
        depth: int,
        chain: tuple[str, ...],
    ) -> None:
        imports = extract(text, first_line=first_line)
        for index, found in enumerate(imports):
            if index == MAX_IMPORTS_PER_FILE:
                self._too_many(imports[index:], real, shown, depth + 1)
                return
            result, target, read = self._resolve(found, named, real, shown, depth + 1, chain)
            self.results.append(result)
            if result.status.problem:
                self.warnings.append(f"{result.where}: @{found.path or found.token}: {result.message}")
            if result.status is ImportStatus.OK:
                assert result.path is not None and result.display is not None and result.text is not None
                self.warnings.extend(f"{result.display}: {w}" for w in read.warnings)
                self.visit(
                    result.text,
                    target,
                    result.path,
                    result.display,
                    read.body_line,
                    depth + 1,
                    (*chain, result.path),
                )

    def _resolve(
        self, found: Import, named_parent: str, parent: str, shown: str, depth: int, chain: tuple[str, ...]
    ) -> tuple[ImportResult, str, ReadResult]:
        """What one import resolves to, and the name the target was reached by (for its own imports)."""

        def outcome(
            status: ImportStatus, message: str, real: str | None = None, read: ReadResult | None = None
        ) -> tuple[ImportResult, str, ReadResult]:
            read = read or ReadResult(status, message=message)
            ok = status is ImportStatus.OK
            result = ImportResult(
                found.line, found.column, found.token, real, self.display(real) if real else None, status,
                shown, parent, depth, read.text if ok else None, message,
                read.size if ok else None, read.mtime_ns if ok else None,
            )  # fmt: skip
            return result, named, read

        named = ""
        path = found.path
        if not path or "://" in path:
            return outcome(ImportStatus.NOT_A_PATH, "not a file path; the text stays as written")
        located = self._locate(path, named_parent)
        if isinstance(located, str):
            return outcome(*_no_file(path, located))
        named, real = located
        if real in chain:
            trail = " -> ".join(self.display(p) for p in (*chain[chain.index(real) :], real))
            return outcome(ImportStatus.CYCLE, f"import cycle {trail}; not followed", real)
        if real in self.included:
            return outcome(ImportStatus.DUPLICATE, "already included earlier in this expansion", real)
        if depth > self.max_depth:
            message = (
                f"more than {self.max_depth} levels of imports; not followed (config: [imports] max_depth)"
            )
            return outcome(ImportStatus.TOO_DEEP, message, real)
        if not is_inside(real, self.root):
            if not self.allow_outside:
                message = (
                    f"outside the project root {self.root}; not read (only your user config may allow it: "
                    "[imports] allow_outside = true)"
                )
                return outcome(ImportStatus.OUTSIDE, message, real)
            if not real.lower().endswith(OUTSIDE_SUFFIXES):
                # The setting lives in the repository, so a hostile clone could set it: even then only
                # Markdown outside the project is read, never `@~/.aws/credentials` and the like.
                message = f"outside the project and not Markdown ({', '.join(OUTSIDE_SUFFIXES)}); not read"
                return outcome(ImportStatus.OUTSIDE, message, real)
        read = self.reads.get(real)
        if read is None:
            read = self.reads[real] = self._read(real)
        if read.status is ImportStatus.MISSING:
            status, message = _no_file(path, read.message or "no such file")
            return outcome(status, message, real if status is ImportStatus.MISSING else None)
        if read.status is not ImportStatus.OK or read.text is None:
            return outcome(read.status, read.message or read.status.value, real)
        added = len(_SEPARATOR) + read.byte_length()
        if self.size + added > MAX_EXPANDED_BYTES:
            message = f"the expansion would pass {MAX_EXPANDED_BYTES:,} bytes; not included"
            return outcome(ImportStatus.TOO_LARGE, message, real)
        self.size += added
        self.included.add(real)
        return outcome(ImportStatus.OK, "", real, read)

    def _locate(self, path: str, named_parent: str) -> tuple[str, str] | str:
        """(the name a target is reached by, its real path), or why it cannot name a file."""
        if path == "~" or path.startswith("~/"):
            if self.home is None:
                return "'~/' imports need a home directory and none was given"
            named = os.path.join(self.home, path[2:])
        else:
            named = os.path.join(os.path.dirname(named_parent), path)
        if len(named) > _PATH_MAX:
            return "file name too long"
        try:
            return named, self._realpath(named)
        except (OSError, ValueError, UnicodeError):
            return "not a valid file name"

    def _realpath(self, named: str) -> str:
        """`os.path.realpath`, resolving each directory once per expansion (20 imports from `docs/` cost one
        walk of `docs/`, then one lstat each). Nothing is kept across expansions: links may change."""
        directory, base = os.path.split(named)
        if base in ("", ".", ".."):
            return os.path.realpath(named)
        real_directory = self.directories.get(directory)
        if real_directory is None:
            real_directory = self.directories[directory] = os.path.realpath(directory)
        candidate = os.path.join(real_directory, base)
        try:
            is_link = stat.S_ISLNK(os.lstat(candidate).st_mode)
        except OSError:
            return candidate  # does not exist (or cannot be seen): realpath would leave it as it is
        return os.path.realpath(candidate) if is_link else candidate

    def _read(self, real: str) -> ReadResult:
        try:
            return self.resolver.read(real)
        except OSError as exc:  # a custom resolver may let one through; it is still not our crash
            return ReadResult(ImportStatus.UNREADABLE, message=f"cannot be read ({exc}); not read")

    def _too_many(self, rest: tuple[Import, ...], parent: str, shown: str, depth: int) -> None:
        """One result stands for all imports past the limit, so a wall of `@` costs one line of output."""
        first = rest[0]
        message = (
            f"more than {MAX_IMPORTS_PER_FILE} imports in one file; this one and the {len(rest) - 1} "
            "after it are not followed and stay as text"
        )
        self.results.append(
            ImportResult(first.line, first.column, first.token, None, None, ImportStatus.TOO_MANY, shown,
                         parent, depth, message=message)
        )  # fmt: skip
        self.warnings.append(f"{shown}:{first.line}: {message}")


def _no_file(path: str, why: str) -> tuple[ImportStatus, str]:
    """A token naming no file: `not_a_path` when it does not look like one (`@media`), else `missing`."""
    if not looks_like_path(path):
        return ImportStatus.NOT_A_PATH, (
            "not a path and no such file; the text stays as written "
            "(wrap it in backticks if it is not meant as an import)"
        )
    return ImportStatus.MISSING, f"{why}; the text stays as written"
