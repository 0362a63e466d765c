"""The real paths of the paths a client's evidence names, resolved within a bound.

Evidence is read on every tool call, and much of it is written by the model (a Read's `file_path`) or
shaped by the files it touches (a chain of symlinks): `os.path.realpath` costs a system call per part of
a path and follows every link anew, so a 100,000-part path, or megabytes of records through symlink
hops, would cost seconds per call. One `PathResolver` serves one reading: it refuses a path longer than
PATH_MAX (the OS refuses to open one), remembers every prefix it resolved (a link is followed once per
reading), and stops after MAX_LOOKUPS system calls or MAX_PARTS parts walked. A path it does not resolve
is None: no evidence, so whatever it would have shown is sent (a possible duplicate, never a lost rule).
"""

from __future__ import annotations

import os
import stat

PATH_MAX = 4096  # bytes, Linux's: no longer path names a file the client could have opened
MAX_LOOKUPS = 8192  # lstat and readlink calls per reading
MAX_PARTS = 131072  # path parts walked per reading, links' targets included
MAX_HOPS = 40  # links within links, as deep as the kernel follows them (ELOOP)


class _Unresolved(Exception):
    """The path is not resolved within the bounds: a loop, too many hops, or the budget spent."""


class PathResolver:
    """`os.path.realpath` for absolute paths, bounded per reading (see the module); one per reading, as
    it takes the file system to stay as it is meanwhile."""

    def __init__(self, lookups: int = MAX_LOOKUPS, parts: int = MAX_PARTS) -> None:
        self._left = lookups
        self._parts = parts
        self._done: dict[str, str | None] = {}
        self._plain: set[str] = set()  # resolved prefixes that are no link (or do not exist)
        self._links: dict[str, str | None] = {}  # link -> its real path (None while it is followed)

    def real(self, path: object) -> str | None:
        """The real path of an absolute path; None for anything else, or one past the bounds."""
        if not isinstance(path, str) or not path.startswith("/"):
            return None
        if path in self._done:
            return self._done[path]
        result: str | None = None
        if _fits(path):
            try:
                result = self._join("/", path, 0)
            except _Unresolved:
                result = None
        self._done[path] = result
        return result

    def is_canonical_dir(self, path: str) -> bool:
        """Is `path` spelled as the client spells a real directory: normalized, and its own real path?"""
        return os.path.normpath(path) == path and not path.startswith("//") and self.real(path) == path

    def _join(self, base: str, rest: str, hops: int) -> str:
        """`rest` resolved against `base` (a real directory), as posixpath's realpath does."""
        path = "/" if rest.startswith("/") else base
        names = rest.split("/")
        self._parts -= len(names)
        if self._parts < 0:
            raise _Unresolved
        for name in names:
            if not name or name == ".":
                continue
            if name == "..":
                path = path.rpartition("/")[0] or "/"
                continue
            candidate = path.rstrip("/") + "/" + name
            if candidate in self._plain:
                path = candidate
                continue
            if candidate in self._links:
                known = self._links[candidate]
                if known is None:
                    raise _Unresolved  # a loop
                path = known
                continue
            target = self._link_target(candidate)
            if target is None:
                self._plain.add(candidate)
                path = candidate
                continue
            if hops >= MAX_HOPS:
                raise _Unresolved
            self._links[candidate] = None
            path = self._join(path, target, hops + 1)
            self._links[candidate] = path
        return path

    def _link_target(self, candidate: str) -> str | None:
        """What the link `candidate` points to; None when it is no link or does not exist."""
        self._spend()
        try:
            if not stat.S_ISLNK(os.lstat(candidate).st_mode):
                return None
        except OSError:
            return None
        except ValueError:  # a name the OS refuses
            raise _Unresolved from None
        self._spend()
        try:
            return os.readlink(candidate)
        except (OSError, ValueError):
            raise _Unresolved from None

    def _spend(self) -> None:
        if self._left <= 0:
            raise _Unresolved
        self._left -= 1


def _fits(path: str) -> bool:
    """A path the OS could open: no NUL, encodable, shorter than PATH_MAX."""
    if "\0" in path:
        return False
    try:
        return len(os.fsencode(path)) < PATH_MAX
    except UnicodeError:
        return False
