"""A stdlib-only answer to "would touching this path load anything?" for a warm, persisted session.

A hook is a new process on every tool call. Most calls touch a place whose directory chain was scanned
before, where nothing new can load; proving that needs only stats and a few regex matches, not the engine
(and its dataclasses, YAML and glob libraries). The session store writes a *quick index* beside each
session state; `quiet()` reads it and answers either "nothing loads" (with the scope-skip count the engine
would report) or None, meaning "ask the engine". Whenever anything differs from what the index recorded
(a file edited or deleted, a new rule file, a file added to a scanned directory, a config change, a
directory not scanned yet, a rule whose scope may match), it answers None, so the engine stays the only
one that decides what loads.

Imports: os, stat, time and re only (json is the caller's), so that the hook can start fast.
"""

from __future__ import annotations

import os
import stat
import time

QUICK_VERSION = 2
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs every hook call milliseconds
if TYPE_CHECKING:
    from typing import Any


def state_file_name(session_id: str) -> str:
    """A file name for any session id; hostile ids (`../x`, NUL, 10 KB) become a hash."""
    if 0 < len(session_id) <= 100 and set(session_id) <= _SAFE and session_id not in (".", ".."):
        return f"{session_id}.json"
    import hashlib

    return "id-" + hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".json"


def quick_file_name(session_id: str) -> str:
    return state_file_name(session_id)[: -len(".json")] + ".quick.json"


def file_version(path: str) -> list[int] | None:
    """[mtime_ns, size] of a file, None when it cannot be stat'ed: what the index records and compares."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL in a path from a tampered file
        return None
    return [info.st_mtime_ns, info.st_size]


# File times come from a coarse clock (a few milliseconds; a second or two on some file systems), so a
# file created in the same tick as a scan leaves its directory's mtime as the scan saw it. As git does with
# racily clean entries, a listing that recent is not trusted: the next touch looks again. (A time further in
# the future, from clock skew or an unpacked archive, is trusted: a creation would set it to now.)
RACY_NS = 2_000_000_000


def watch_list(paths: list[str]) -> list[list[Any]]:
    """[path, mtime_ns, size] of each of `paths` that exists, to notice a file created in one of them.

    `paths` are a scanned directory and the subfolders its candidates live in (`Project.listing_paths`).
    A missing subfolder needs no entry: creating it changes its parent's mtime. While one of them changed
    only just now, the list holds an entry that never matches, so the next touch looks again.
    """
    watch = []
    now = time.time_ns()
    for path in paths:
        version = file_version(path)
        if version is None:
            continue
        if abs(now - version[0]) < RACY_NS:
            return [[path, -1, -1]]
        watch.append([path, *version])
    return watch


def unchanged(entries: list[list[Any]]) -> bool:
    """Whether every [path, mtime_ns, size] entry still has that version (False for one that is gone)."""
    for path, mtime, size in entries:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return False
        if info.st_mtime_ns != mtime or info.st_size != size:
            return False
    return True


def _same_versions(recorded: dict[str, Any]) -> bool:
    return all(file_version(path) == version for path, version in recorded.items())


def quiet(index: dict[str, Any], cwd: str, path: str) -> int | None:
    """The scope-skip count when touching `path` certainly loads nothing; None when the engine must look."""
    try:
        return _quiet(index, cwd, path)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # an index of another shape: the engine decides


def _quiet(index: dict[str, Any], cwd: str, path: str) -> int | None:
    if index.get("v") != QUICK_VERSION or index["cwd"] != cwd or not index["jit"]:
        return None
    root: str = index["root"]
    if not (_same_versions(index["config"]) and _same_versions(index["rule_dirs"])):
        return None
    absolute = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
    try:
        info = os.lstat(absolute)
    except OSError:
        return None  # not there yet: the engine walks from the nearest existing directory
    if stat.S_ISLNK(info.st_mode):
        return None
    is_dir = stat.S_ISDIR(info.st_mode)
    parent = os.path.realpath(absolute if is_dir else os.path.dirname(absolute))
    prefix = root if root.endswith(os.sep) else root + os.sep
    if parent != root and not parent.startswith(prefix):
        return None  # outside: the engine says so in its record
    rel = "" if parent == root else parent[len(prefix) :]
    if not is_dir:
        rel = f"{rel}/{os.path.basename(absolute)}" if rel else os.path.basename(absolute)
    elif rel:
        rel += "/"
    scanned: dict[str, list[Any]] = index["scanned"]
    directory = parent
    while True:
        entries = scanned.get(directory)
        if entries is None:
            return None  # a directory never scanned: candidates to resolve
        if not unchanged(entries):
            # A loaded file edited or deleted (the engine re-reads or drops it), or a file added to the
            # directory, perhaps a new CLAUDE.md (the engine looks).
            return None
        if directory == root:
            break
        directory = os.path.dirname(directory)
    return _rules_quiet(index["rules"], rel, absolute, cwd)


def _rules_quiet(rules: list[list[Any]], rel: str, absolute: str, cwd: str) -> int | None:
    import re  # already imported by json, which every caller has loaded

    skipped = 0
    for file, base, prefixes, regex, loaded, mtime, size in rules:
        if file_version(file) != [mtime, size]:
            return None  # edited since its scope was read (or since it was sent): the engine re-reads it
        if base == "root":
            target = rel
            if not target.startswith(tuple(prefixes)):
                skipped += 0 if loaded else 1
                continue
        else:
            target = os.path.relpath(absolute, cwd) + ("/" if rel.endswith("/") else "")
        if re.match(regex, target, re.DOTALL) is None:
            skipped += 0 if loaded else 1
        elif not loaded:
            return None  # it loads now
    return skipped
