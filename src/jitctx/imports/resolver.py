"""Reading import targets: the `Resolver` protocol and the default, careful file reader.

Expansion never opens files itself; it asks a resolver for the text of a real path. The default resolver
stats first and reads only regular files, so `/dev/zero`, a FIFO or a directory answer at once with a
status instead of hanging or raising. Reads are cached by (device, inode, mtime, size).
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from jitctx.frontmatter import split_frontmatter
from jitctx.reading import MAX_FILE_BYTES
from jitctx.safe_open import NotRegular, open_regular
from jitctx.text import decode_markdown

_BINARY_PROBE = 8192
_CACHE_BYTES = 32 * 1024 * 1024
_CACHE_ENTRIES = 1024


class ImportStatus(StrEnum):
    """What became of one `@import`. Only `ok` and `duplicate` are not problems."""

    OK = "ok"  # read and included
    DUPLICATE = "duplicate"  # included earlier in the same expansion; not read or included again
    MISSING = "missing"  # no such file; the `@token` stays as text
    NOT_A_PATH = "not_a_path"  # `@media`, `@Component`: no `/` or `.`, and no such file exists
    CYCLE = "cycle"  # the target is the importing file or one of its importers
    TOO_DEEP = "too_deep"  # found in a file already at the maximum depth; not followed
    OUTSIDE = "outside"  # the real path is outside the project root and outside imports are not allowed
    DIRECTORY = "directory"
    NOT_A_FILE = "not_a_file"  # FIFO, device, socket
    BINARY = "binary"  # NUL bytes in the first 8 KiB
    TOO_LARGE = "too_large"  # over 4 MiB, or the expansion as a whole would pass its limit
    SYMLINK_LOOP = "symlink_loop"
    UNREADABLE = "unreadable"  # permission denied or another OS error
    TOO_MANY = "too_many"  # past the limit of imports followed from one file

    @property
    def problem(self) -> bool:
        return self not in (ImportStatus.OK, ImportStatus.DUPLICATE)


@dataclass(frozen=True)
class ReadResult:
    """A target as a resolver saw it: its text (status `ok`) or why there is none."""

    status: ImportStatus
    text: str | None = None  # body without frontmatter, `\n` line ends, no BOM
    body_line: int = 1  # line of the file on disk where `text` starts
    size: int | None = None
    mtime_ns: int | None = None
    message: str = ""
    warnings: tuple[str, ...] = ()  # about the content (e.g. not UTF-8); the caller adds the file name
    text_bytes: int | None = None  # UTF-8 length of `text`, kept so cached reads do not re-encode

    def byte_length(self) -> int:
        if self.text_bytes is not None:
            return self.text_bytes
        return len(self.text.encode("utf-8", errors="replace")) if self.text is not None else 0


class Resolver(Protocol):
    """Reads one target by its real path; must not raise for bad targets, only return a status."""

    def read(self, real_path: str) -> ReadResult: ...


def decode_text(data: bytes) -> ReadResult:
    """Bytes of a file as a `ReadResult`: BOM dropped, `\n` line ends, frontmatter removed (imported text
    is content, never scope), invalid UTF-8 replaced and reported."""
    text, problem = decode_markdown(data)
    warnings = [problem] if problem else []
    front = split_frontmatter(text)
    size = len(front.body.encode("utf-8", errors="replace"))
    return ReadResult(ImportStatus.OK, front.body, front.body_line, warnings=tuple(warnings), text_bytes=size)


class FileResolver:
    """The default resolver: safe reads from the file system, cached while a file is unchanged."""

    def __init__(self, *, cache: bool = True) -> None:
        self._cache: OrderedDict[str, tuple[tuple[int, int, int, int], ReadResult]] | None = (
            OrderedDict() if cache else None
        )
        self._cached_bytes = 0
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            if self._cache is not None:
                self._cache.clear()
            self._cached_bytes = 0

    def read(self, real_path: str) -> ReadResult:
        try:
            info = os.stat(real_path)
        except OSError as exc:
            return _os_failure(exc)
        except (ValueError, UnicodeError):
            return ReadResult(ImportStatus.MISSING, message="not a valid file name")
        if stat.S_ISDIR(info.st_mode):
            return ReadResult(ImportStatus.DIRECTORY, message="is a directory; import a file inside it")
        if not stat.S_ISREG(info.st_mode):
            return ReadResult(
                ImportStatus.NOT_A_FILE, message="not a regular file (device, FIFO or socket); not read"
            )
        if info.st_size > MAX_FILE_BYTES:
            return _too_large(info.st_size)
        key = (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)
        if self._cache is not None:
            with self._lock:
                hit = self._cache.get(real_path)
                if hit is not None and hit[0] == key:
                    self._cache.move_to_end(real_path)
                    return hit[1]
        result = _read_regular(real_path, info)
        if self._cache is not None and result.status is ImportStatus.OK:
            self._remember(real_path, key, result)
        return result

    def _remember(self, path: str, key: tuple[int, int, int, int], result: ReadResult) -> None:
        with self._lock:
            self._store(path, key, result)

    def _store(self, path: str, key: tuple[int, int, int, int], result: ReadResult) -> None:
        assert self._cache is not None
        old = self._cache.pop(path, None)
        if old is not None:
            self._cached_bytes -= old[0][3]
        self._cache[path] = (key, result)
        self._cached_bytes += key[3]
        while self._cache and (self._cached_bytes > _CACHE_BYTES or len(self._cache) > _CACHE_ENTRIES):
            _, (dropped, _) = self._cache.popitem(last=False)
            self._cached_bytes -= dropped[3]


def _read_regular(path: str, info: os.stat_result) -> ReadResult:
    # Should the file be swapped for a FIFO after the stat, opening it must not wait for a writer.
    try:
        descriptor = open_regular(path)
    except NotRegular:
        return ReadResult(ImportStatus.NOT_A_FILE, message="not a regular file; not read")
    except OSError as exc:
        return _os_failure(exc)
    try:
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_FILE_BYTES:
            chunk = os.read(descriptor, MAX_FILE_BYTES + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        return _os_failure(exc)
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > MAX_FILE_BYTES:
        return _too_large(len(data))
    if b"\0" in data[:_BINARY_PROBE]:
        return ReadResult(ImportStatus.BINARY, message="binary file (contains NUL bytes); not read")
    decoded = decode_text(data)
    return ReadResult(
        ImportStatus.OK,
        decoded.text,
        decoded.body_line,
        size=info.st_size,
        mtime_ns=info.st_mtime_ns,
        warnings=decoded.warnings,
        text_bytes=decoded.text_bytes,
    )


def _too_large(size: int) -> ReadResult:
    message = f"{size:,} bytes is over the 4 MiB limit for instruction files; not read"
    return ReadResult(ImportStatus.TOO_LARGE, message=message)


def _os_failure(exc: OSError) -> ReadResult:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return ReadResult(ImportStatus.MISSING, message="no such file")
    if exc.errno == errno.ENAMETOOLONG:
        return ReadResult(ImportStatus.MISSING, message="file name too long")
    if exc.errno == errno.ELOOP:
        return ReadResult(ImportStatus.SYMLINK_LOOP, message="symlink loop; not read")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ReadResult(ImportStatus.UNREADABLE, message="permission denied; not read")
    return ReadResult(ImportStatus.UNREADABLE, message=f"cannot be read ({exc.strerror or exc}); not read")
