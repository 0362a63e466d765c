"""Where a touched path sits in a project: where it really is (`locate`), its chain of directories up to
the root, and the path each kind of scope is matched against.

A chain holds real directories only and stops at the project boundary, so nothing outside can enter
through it; it is resolved once per directory and cached for the life of the session object. Chains are
capped at MAX_DEPTH levels below the root: a 2,000-deep tree must not cost seconds per call.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import NamedTuple

from jitctx.paths import is_inside, nearest_existing, relative_posix
from jitctx.project import Candidate
from jitctx.walk import MAX_DEPTH, TOO_DEEP


class Chains:
    """The directory chains of one project root, cached by the directory asked for."""

    def __init__(self, root: str) -> None:
        self.root = root
        # Directory -> its chain of real directories, root first. A cached chain only ever holds
        # directories that were inside the project when resolved, so nothing outside can enter through it.
        self._cache: dict[str, tuple[str, ...]] = {}

    def chain(self, start_dir: str) -> tuple[str, ...]:
        """Real directories from the root down to `start_dir`, stopping at the project boundary.

        Walking up a *resolved* path visits only real directories (each ancestor of a canonical path is
        canonical), so resolving once is realpath at every step; walking up the unresolved path instead
        would let `proj/link -> /elsewhere` pull in /elsewhere's ancestors.
        """
        cached = self._cache.get(start_dir)
        if cached is not None:
            return cached
        chain: list[str] = []
        current = os.path.realpath(start_dir)
        while is_inside(current, self.root):
            chain.append(current)
            if current == self.root:
                break
            current = os.path.dirname(current)
        result = tuple(reversed(chain))
        self._cache[start_dir] = result
        if result:
            self._cache[result[-1]] = result  # the same chain, asked for by its real name
        return result

    def real_dir(self, directory: str) -> str:
        """The real path of `directory`; resolved once, for this and for the walk that follows."""
        chain = self.chain(directory)
        return chain[-1] if chain else os.path.realpath(directory)

    def capped(self, chain: Sequence[str], warnings: list[str]) -> Sequence[str]:
        """At most MAX_DEPTH levels below the root; a warning says where the rest was left out."""
        if len(chain) <= MAX_DEPTH + 1:
            return chain
        deepest = relative_posix(chain[MAX_DEPTH], self.root)
        warnings.append(f"{deepest}/: {TOO_DEEP}")
        return chain[: MAX_DEPTH + 1]


def chain_down(root: str, cwd: str) -> list[str]:
    """Directories from the root down to the cwd, root first."""
    chain = [cwd]
    current = cwd
    while current != root:
        current = os.path.dirname(current)
        chain.append(current)
        if os.path.dirname(current) == current:
            break
    return list(reversed(chain))


def scope_path(rel: str, candidate: Candidate, root: str, cwd: str) -> str | None:
    """What a candidate's scope is matched against, for root-relative `rel`: project scopes match paths
    relative to the root; user and managed rules, relative to the cwd; a nested rule, relative to its
    directory (None: the path is not under that directory)."""
    if candidate.base == "root":
        return rel
    if candidate.base == "dir" and candidate.directory is not None:
        return under(rel, relative_posix(candidate.directory, root))
    trailing = "/" if rel.endswith("/") else ""
    absolute = os.path.join(root, *rel.rstrip("/").split("/"))
    return os.path.relpath(absolute, cwd).replace(os.sep, "/") + trailing


def under(rel: str, directory: str) -> str | None:
    """Root-relative `rel` relative to root-relative `directory`, None when it is not below it."""
    if not directory:
        return rel
    return (
        rel[len(directory) + 1 :]
        if rel.startswith(directory + "/") and len(rel) > len(directory) + 1
        else None
    )


class Located(NamedTuple):
    """A touched path inside the project."""

    rel: str  # POSIX, relative to the root; a directory's ends in `/`
    start_dir: str  # the real directory its walk starts from
    missing: str  # the part of it that does not exist yet ("" when all of it does)


def locate(path: str, cwd: str, chains: Chains) -> Located | None:
    """`path` (absolute, or relative to `cwd`) in the project of `chains`; None when it is outside.
    Raises OSError or ValueError for a path the OS refuses (see `why_unusable`)."""
    root = chains.root
    absolute = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
    missing = ""
    try:
        info = os.lstat(absolute)
    except OSError:
        info = None
    if info is not None and not stat.S_ISLNK(info.st_mode):
        is_dir = stat.S_ISDIR(info.st_mode)
        parent = absolute if is_dir else os.path.dirname(absolute)
        real_parent = chains.real_dir(parent)
        real = real_parent if is_dir else os.path.join(real_parent, os.path.basename(absolute))
        start_dir = real_parent
    else:  # a link, or a path that does not exist yet: the slow, careful way
        existing, missing = nearest_existing(absolute)
        real_existing = os.path.realpath(existing)
        is_dir = os.path.isdir(real_existing) if not missing else path.endswith(("/", os.sep))
        real = os.path.join(real_existing, *missing.split("/")) if missing else real_existing
        start_dir = real_existing if (is_dir or missing) else os.path.dirname(real_existing)
    if not is_inside(real, root) or not is_inside(start_dir, root):
        return None
    rel = relative_posix(real, root)
    if is_dir and rel:
        rel += "/"
    return Located(rel, start_dir, missing)


def why_unusable(error: Exception) -> str:
    """A short, printable reason why the OS refused a path (an OS or encoding error)."""
    if isinstance(error, UnicodeError):
        return "it holds characters that are not valid in a file name"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return type(error).__name__
