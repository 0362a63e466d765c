"""Which directories a session channel has fully scanned, each with the watch list taken when it was.

A long session scans thousands of directories, but one touch asks about the few on its chain. So a
session kept in the store does not load every mark: each directory's mark is a small file of its own
(`<session>.marks/<channel id>/<digest>.json`, holding `[directory, watch]`), read when a touch first asks
for it, and a call writes back only the marks it changed. What a hook call reads and writes therefore
depends on the depth of the touched path, not on how many touches came before.

A mark is only ever a shortcut: a missing, unreadable or foreign mark file means "not scanned", and the
directory is simply looked at again (its files are deduplicated by what the session holds). The marks
of a channel live in a folder named by a random id kept in the session state, so a session that starts
afresh (or a new channel) never trusts marks of an earlier one.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.short_digest import short_digest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    # [path, mtime_ns, size] entries of a scanned directory's watch list (see `quick.watch_list`).
    Watch = list[list[Any]]

MARKS_SUFFIX = ".marks"
# A mark holds a directory and a handful of [path, mtime, size] entries: a few hundred bytes.
MAX_MARK_BYTES = 64 * 1024


def new_marks_id() -> str:
    return os.urandom(8).hex()


def mark_file_name(directory: str) -> str:
    """The file of one directory's mark. Two directories that shared a name would overwrite each other's
    mark, and each would only be scanned again: a mark names its directory and counts for it alone."""
    return short_digest(directory.encode("utf-8", "surrogateescape")) + ".json"


def parse_mark(raw: object, directory: str) -> Watch | None:
    """The watch list of a decoded mark file when it is the mark of `directory`: its first entry is the
    directory itself (an empty list would hold nothing to compare, so the directory would never be
    looked at again); None otherwise."""
    if not (isinstance(raw, list) and len(raw) == 2 and raw[0] == directory and isinstance(raw[1], list)):
        return None
    watch: Watch = raw[1]
    first = watch[0] if watch else None
    return watch if isinstance(first, list) and first and first[0] == directory else None


class ScannedMarks:
    """The scanned directories of one channel: directory -> watch list.

    In memory for a session that lives in one process. A stored session gives it `read`, which fetches
    one directory's mark from disk on first use; `changed` names the directories set or removed since,
    which is all the store writes back."""

    def __init__(
        self,
        marks: dict[str, Watch] | None = None,
        *,
        marks_id: str | None = None,
        read: Callable[[str], Watch | None] | None = None,
    ) -> None:
        self.marks_id = marks_id or new_marks_id()
        self._known: dict[str, Watch | None] = dict(marks or {})
        self._read = read
        self.changed: set[str] = set()

    def attach(self, read: Callable[[str], Watch | None]) -> None:
        """Read marks not known in memory through `read` (a directory -> its stored watch, or None)."""
        self._read = read

    def get(self, directory: str) -> Watch | None:
        if directory not in self._known:
            self._known[directory] = self._read(directory) if self._read is not None else None
        return self._known[directory]

    def __contains__(self, directory: object) -> bool:
        return isinstance(directory, str) and self.get(directory) is not None

    def __setitem__(self, directory: str, watch: Watch) -> None:
        self._known[directory] = watch
        self.changed.add(directory)

    def pop(self, directory: str, default: Watch | None = None) -> Watch | None:
        watch = self.get(directory)
        if watch is None:
            return default
        self._known[directory] = None
        self.changed.add(directory)
        return watch

    def __delitem__(self, directory: str) -> None:
        if self.pop(directory) is None:
            raise KeyError(directory)

    def loaded(self) -> dict[str, Watch]:
        """The marks held in memory (all of them, for a session that was never stored)."""
        return {directory: watch for directory, watch in self._known.items() if watch is not None}

    def changes(self) -> Iterator[tuple[str, Watch | None]]:
        """(directory, watch) for each mark set since, (directory, None) for each one removed."""
        for directory in sorted(self.changed):
            yield directory, self._known.get(directory)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScannedMarks):
            return self.loaded() == other.loaded()
        return isinstance(other, dict) and self.loaded() == other

    __hash__ = None  # type: ignore[assignment]  # mutable, like a dict

    def __repr__(self) -> str:
        return f"ScannedMarks({self.loaded()!r}, marks_id={self.marks_id!r})"
