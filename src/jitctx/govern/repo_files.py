"""The files of a repository, listed once: `git ls-files` inside a work tree, a directory walk otherwise.

Git is asked first because it is fast on large trees and already knows what is ignored; a repository
without git (an unpacked tarball, a CI cache) still works through the walk. Either way vendored and tool
folders (`.git`, `node_modules`, virtualenvs, caches) are left out, so counts and scope checks describe the
project's own files.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import cached_property

from jitctx.discovery.signals import find_git_top
from jitctx.walk import walk_tree

GIT_TIMEOUT_S = 30.0
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".tox",
        ".nox",
        "site-packages",
    }
)


@dataclass(frozen=True)
class RepoFiles:
    """POSIX paths relative to the root, sorted, and how they were listed (`git` or `walk`)."""

    paths: tuple[str, ...]
    method: str
    note: str | None = None  # why git was not used, when it was expected

    @cached_property
    def directories(self) -> tuple[str, ...]:
        """Every directory holding a listed file, as a directory marker (`src/ui/`), sorted."""
        found: set[str] = set()
        for path in self.paths:
            folder = path.rpartition("/")[0]
            while folder and folder not in found:  # stop at the first folder already seen
                found.add(folder)
                folder = folder.rpartition("/")[0]
        return tuple(sorted(folder + "/" for folder in found))


def list_repo_files(root: str, *, use_git: bool = True) -> RepoFiles:
    note: str | None = None
    if use_git and find_git_top(root) is not None:
        listed, note = _git_files(root)
        if listed is not None:
            return RepoFiles(tuple(sorted(p for p in listed if not _skipped(p))), "git")
    return RepoFiles(tuple(sorted(_walk_files(root))), "walk", note)


def _skipped(path: str) -> bool:
    return any(part in SKIP_DIRS for part in path.split("/")[:-1])


def _run_git(root: str, *args: str) -> bytes | None:
    try:
        proc = subprocess.run(
            ["git", "-c", "core.quotePath=off", "ls-files", "-z", *args],
            cwd=root,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _git_files(root: str) -> tuple[set[str] | None, str | None]:
    """Tracked and untracked-but-not-ignored files under `root`, minus tracked files deleted from disk."""
    present = _run_git(root, "--cached", "--others", "--exclude-standard")
    if present is None:
        return None, "git ls-files failed; listed the files by walking the tree"
    deleted = _run_git(root, "--deleted") or b""
    gone = {os.fsdecode(p) for p in deleted.split(b"\0") if p}
    files = {os.fsdecode(p) for p in present.split(b"\0") if p}
    return files - gone, None


def _walk_files(root: str) -> list[str]:
    found: list[str] = []
    # Iterative and depth-capped: os.walk recurses once per level, and a 2,000-deep tree overflows it.
    for current, dirnames, filenames in walk_tree(root, skip=SKIP_DIRS):
        rel = os.path.relpath(current, root)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        found.extend(prefix + name for name in filenames)
        # A linked folder is listed as one entry, never entered, as git lists it.
        found.extend(prefix + name for name in dirnames if os.path.islink(os.path.join(current, name)))
    return found
