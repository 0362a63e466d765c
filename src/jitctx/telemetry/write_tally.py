"""Writes and their rules in the event log (DESIGN §2.11): the `writes` a discovery record lists (each
file the event's calls wrote, `rules_before`, and the `late` instruction files that reached the model only
after it) and the records of writes held back (`held`), counted, merged across the parts of a log read
in parallel, and turned into `Writes` (see `stats`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jitctx.telemetry.results import EarlyWriteRow, Writes

# One recorded write, checked: (path, rules before it, the displays of the files that came late).
Write = tuple[str, bool, tuple[str, ...]]


def read_writes(record: Mapping[str, Any]) -> tuple[list[Write], bool]:
    """The writes a record lists and whether it is a hold, checked; TypeError when a field has the wrong
    type (the record is then invalid, whole)."""
    held = record.get("held")
    if not (held is None or held.__class__ is bool):
        raise TypeError("held is not a boolean")
    listed = record.get("writes")
    if listed is None:
        return [], held is True
    if listed.__class__ is not list:
        raise TypeError("writes is not a list")
    writes: list[Write] = []
    for entry in listed:
        path, before, late = entry["path"], entry["rules_before"], entry.get("late", [])
        if path.__class__ is not str or before.__class__ is not bool or late.__class__ is not list:
            raise TypeError("a write is not {path, rules_before, late}")
        if any(name.__class__ is not str for name in late):
            raise TypeError("late names a file that is no string")
        writes.append((path, before, tuple(late)))
    return writes, held is True


class WriteTally:
    def __init__(self) -> None:
        self.total = 0
        self.before_rules = 0
        self.held = 0
        self.sessions: set[str] = set()  # sessions with a write before its rules
        # (root, path) -> [writes before their rules, sessions, late files (a dict, for their order)]
        self.files: dict[tuple[str, str], list[Any]] = {}

    def add(self, writes: list[Write], held: bool, session_id: str, root: str) -> None:
        """Count the checked writes of one record (`read_writes`) of `session_id` in the project `root`."""
        self.total += len(writes)
        self.held += held
        for path, before, late in writes:
            if before:
                continue
            self.before_rules += 1
            self.sessions.add(session_id)
            entry = self.files.get((root, path))
            if entry is None:
                entry = self.files[root, path] = [0, set(), {}]
            entry[0] += 1
            entry[1].add(session_id)
            entry[2].update(dict.fromkeys(late))

    def merge(self, later: WriteTally) -> None:
        """Fold in the tally of the records that come *after* this one's."""
        self.total += later.total
        self.before_rules += later.before_rules
        self.held += later.held
        self.sessions |= later.sessions
        for key, theirs in later.files.items():
            entry = self.files.setdefault(key, [0, set(), {}])
            entry[0] += theirs[0]
            entry[1] |= theirs[1]
            entry[2].update(theirs[2])

    def result(self) -> Writes:
        """The figures; files most often written before their rules first."""
        rows = sorted(
            (
                EarlyWriteRow(path, entry[0], len(entry[1]), tuple(entry[2]), root or None)
                for (root, path), entry in self.files.items()
            ),
            key=lambda r: (-r.writes, r.path, r.project or ""),
        )
        return Writes(self.total, self.before_rules, len(self.sessions), self.held, tuple(rows))
