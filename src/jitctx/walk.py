"""Walking a directory tree without recursion, to a bounded depth.

`os.walk` recurses once per level in Python 3.11: a tree 2,000 directories deep (easy to create, hard to
notice) raises RecursionError. Instruction files that deep are not worth seconds per call either, so every
walk and every directory chain stops `MAX_DEPTH` levels below where it started, and says so.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator

# How many directory levels below the project root (or a walk's top) jitctx looks at.
MAX_DEPTH = 256


# Why a directory's subdirectories were not looked at.
TOO_DEEP = f"directories more than {MAX_DEPTH} levels below the root are not searched for instruction files"


def walk_tree(
    top: str,
    *,
    skip: Collection[str] = (),
    too_deep: list[str] | None = None,
    file_links: set[str] | None = None,
) -> Iterator[tuple[str, list[str], list[str]]]:
    """Like `os.walk(top, followlinks=False)` with sorted names, but iterative and at most MAX_DEPTH
    levels below `top`. Directories named in `skip` are left out. A directory whose subdirectories were
    not entered for depth is appended to `too_deep`; the path of each listed file that is a symbolic link,
    to `file_links` (the listing knows it: no lstat per file). As with os.walk, the caller may prune the
    yielded list of directory names; unreadable directories are passed over."""
    stack: list[tuple[str, int]] = [(top, 0)]
    while stack:
        current, depth = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        links: set[str] = set()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                        if is_dir and entry.is_symlink():
                            links.add(entry.name)  # listed, never entered: no loops, nothing outside
                    except OSError:
                        is_dir = False
                    if is_dir:
                        dirs.append(entry.name)
                        continue
                    files.append(entry.name)
                    if file_links is not None and entry.is_symlink():
                        file_links.add(entry.path)
        except OSError:
            continue
        dirs = sorted(name for name in dirs if name not in skip)
        files.sort()
        yield current, dirs, files
        enter = [name for name in dirs if name not in links]
        if not enter:
            continue
        if depth >= MAX_DEPTH:
            if too_deep is not None:
                too_deep.append(current)
            continue
        stack.extend((os.path.join(current, name), depth + 1) for name in reversed(enter))
