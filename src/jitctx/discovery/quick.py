"""A stdlib-only answer to "would touching this path load anything?" for a warm, persisted session.

A hook is a new process on every tool call. Most calls touch a place whose directory chain was scanned
before, where nothing new can load; proving that needs only stats and a few regex matches, not the engine
(and its dataclasses, YAML and glob libraries). The session store writes a *quick index* beside each
session state; `quiet()` reads it and answers either "nothing loads" (with the scope-skip count the engine
would report) or None, meaning "ask the engine". Whenever anything differs from what the index recorded
(a file edited or deleted, a new rule file, a file added to a scanned directory, a config change, a
directory not scanned yet, a rule whose scope may match), it answers None, so the engine stays the only
one that decides what loads.

The state dir is input like any other: its files are opened as regular files of this user only, without
following a link or waiting on a FIFO, and read up to a cap (`jitctx.safe_open`); a regex from an index
is matched only when it keeps to the constructs our glob compilers emit (`quick_regex.safe_regex`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from typing import TYPE_CHECKING

from jitctx.discovery.glob_keys import keyed_candidates
from jitctx.discovery.marks import MAX_MARK_BYTES, mark_file_name, parse_mark
from jitctx.discovery.quick_regex import safe_regex
from jitctx.safe_open import read_state_file
from jitctx.short_digest import short_digest

# 3: marks of their own; 4: the rules index's lookups; 5: parsed and held versions; 6: name keys of two
# segments in a row (an older reader would not look them up, and take a touch for quiet)
QUICK_VERSION = 6
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def state_file_name(session_id: str) -> str:
    """A file name for any session id; hostile ids (`../x`, NUL, 10 KB) become a hash.

    Kept as is only when the name can be no other file of the store: not hidden (`.`, `..`, the `.tmp-`
    files of a write), not a hash name (`id-…`), and not ending in `.quick` (`x.quick.json` is the quick
    index of session `x`).

    The hash is the state dir's one digest for names (jitctx.short_digest): session ids come from the
    client, not from a repository, so no one picks two that share a name.
    """
    if (
        0 < len(session_id) <= 100
        and set(session_id) <= _SAFE
        and not session_id.startswith((".", "id-"))
        and not session_id.endswith(".quick")
    ):
        return f"{session_id}.json"

    return "id-" + short_digest(session_id.encode("utf-8", "surrogatepass")) + ".json"


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


def unchanged(entries: Iterable[list[Any]]) -> bool:
    """Whether every [path, mtime_ns, size] entry still has that version (False for one that is gone)."""
    for path, mtime, size in entries:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return False
        if info.st_mtime_ns != mtime or info.st_size != size:
            return False
    return True


def stored_mark(folder: str, directory: str) -> list[list[Any]] | None:
    """The watch list of `directory`'s mark in a marks folder (see `jitctx.discovery.marks`); None when
    there is none, or it cannot be read, or it is not that directory's."""

    try:
        raw = read_state_file(os.path.join(folder, mark_file_name(directory)), MAX_MARK_BYTES)
        return parse_mark(json.loads(raw), directory)
    except (OSError, ValueError, RecursionError):
        return None


def _same_versions(recorded: dict[str, Any]) -> bool:
    return all(file_version(path) == version for path, version in recorded.items())


def quiet(index: dict[str, Any], cwd: str, path: str, planned: bool = False) -> int | None:
    """The scope-skip count when touching `path` certainly loads nothing; None when the engine must look.
    `planned`: a file about to be written, which may not exist yet (then its folder must)."""
    try:
        return _quiet(index, cwd, path, planned)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # an index of another shape: the engine decides


def _quiet(index: dict[str, Any], cwd: str, path: str, planned: bool) -> int | None:
    if index.get("v") != QUICK_VERSION or index["cwd"] != cwd or not index["jit"] or index.get("owed"):
        return None
    root: str = index["root"]
    if not (_same_versions(index["config"]) and _same_versions(index["rule_dirs"])):
        return None
    absolute = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
    try:
        info = os.lstat(absolute)
    except OSError:
        if not planned:
            return None  # not there yet: the engine walks from the nearest existing directory
        try:  # a file about to be written: its folder is what a touch of it walks
            folder = os.lstat(os.path.dirname(absolute))
        except OSError:
            return None
        if not stat.S_ISDIR(folder.st_mode):
            return None
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        return None
    is_dir = info is not None and stat.S_ISDIR(info.st_mode)
    parent = os.path.realpath(absolute if is_dir else os.path.dirname(absolute))
    prefix = root if root.endswith(os.sep) else root + os.sep
    if parent != root and not parent.startswith(prefix):
        return None  # outside: the engine says so in its record
    rel = "" if parent == root else parent[len(prefix) :]
    if not is_dir:
        rel = f"{rel}/{os.path.basename(absolute)}" if rel else os.path.basename(absolute)
    elif rel:
        rel += "/"
    marks, held = index["marks"], index["held"]
    directory = parent
    while True:
        watch = stored_mark(marks, directory) if isinstance(marks, str) else None
        if watch is None:
            return None  # a directory never scanned: candidates to resolve
        if not (unchanged(held.get(directory, ())) and unchanged(watch)):
            # A loaded file edited or deleted (the engine re-reads or drops it), or a file added to the
            # directory, perhaps a new CLAUDE.md (the engine looks).
            return None
        if directory == root:
            break
        directory = os.path.dirname(directory)
    if not all(os.path.lexists(path) for path in index["unfiled"]):
        return None  # a held user file or rule is gone: the engine drops it and says so
    return _rules_quiet(index, rel)


def _rules_quiet(index: dict[str, Any], rel: str) -> int | None:

    root: str = index["root"]
    cwd: str = index["cwd"]
    if not all(file_version(path) == [mtime, size] for path, mtime, size in index["unscoped"]):
        return None  # a rule with no scope edited: it may have one now
    # The rules that may match, looked up as the engine's index does; of the others only the version is
    # compared (one stat each), so a thousand rules cost a thousand stats, not a thousand regexes.
    lookups = index["lookups"]
    maybe = keyed_candidates(rel, lookups["prefix"], lookups["name"], lookups["ext"])
    maybe.update(lookups["always"])
    skipped = 0
    for position, (file, base, regex, held, mtime, size) in enumerate(index["rules"]):
        try:
            info = os.stat(file)
        except (OSError, ValueError):
            return None  # gone (or a NUL in a tampered index): the engine drops it
        if info.st_mtime_ns != mtime or info.st_size != size:
            return None  # edited since its scope was read: the engine reads it again
        if position not in maybe:
            skipped += 0 if held else 1  # its regex cannot match: not even looked at
            continue
        if base == "root":
            target = rel
        else:  # relative to the cwd, from the real path, as `chains.scope_path` has it
            trailing = "/" if rel.endswith("/") else ""
            target = os.path.relpath(os.path.join(root, rel.rstrip("/")), cwd) + trailing
        # Checked only for the few regexes that are run: checking a thousand rules' every call would cost
        # the fast lane tens of milliseconds.
        if not safe_regex(regex):
            return None  # not a scope our compilers wrote: the engine compiles the rule's own scope
        if re.match(regex, target, re.DOTALL) is None:
            skipped += 0 if held else 1
        elif not held or [info.st_mtime_ns, info.st_size] != held:
            return None  # it loads now, or its edited text goes out again
    return skipped
