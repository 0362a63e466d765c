"""The mutable state of one session channel, and its plain-JSON form for the session store."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jitctx.discovery.marks import ScannedMarks
from jitctx.model import InstructionFile, Load, LoadReason, Skip, Tier

if TYPE_CHECKING:
    from jitctx.discovery.marks import Watch

# 3: the scanned directories' marks live in files of their own (`marks`), not in the state.
STATE_VERSION = 3
# Version 2 kept the marks inline; such a state is taken back and its marks moved out on the next save.
READABLE_VERSIONS = (2, 3)


@dataclass
class LoadedEntry:
    """What the session remembers of a loaded file, enough to notice it changed or vanished."""

    display: str
    mtime_ns: int
    size: int
    reason: str
    tier: str
    directory: str | None  # the chain directory it was found on; None for rules-folder and user files
    body_bytes: int = -1  # what its text weighs in the context (without frontmatter); -1: not known

    @property
    def carried(self) -> int:
        """Bytes this file adds to the context: its body, or its size on disk when that is not known."""
        return self.body_bytes if self.body_bytes >= 0 else self.size


@dataclass
class ChannelState:
    """Dedup state of one channel (main, or a sub-agent): loaded files and fully scanned directories."""

    loaded: dict[str, LoadedEntry] = field(default_factory=dict)  # path -> entry, in load order
    # Real directories whose candidates are all resolved -> their watch list when they were: a file
    # created there later changes a version in it, and the next touch looks again.
    scanned: ScannedMarks = field(default_factory=ScannedMarks)
    identities: set[tuple[int, int]] = field(default_factory=set)  # (device, inode) of loaded files
    by_directory: dict[str, list[str]] = field(default_factory=dict)  # chain directory -> loaded paths
    started: bool = False
    # The text the agent holds for each loaded file; rebuilt from disk when a session is resumed.
    blocks: dict[str, InstructionFile] = field(default_factory=dict)
    # Files a hook left to the client after a call it follows, not confirmed yet: path -> (mtime_ns, size)
    # of the version left, and the ids of the tool calls after which the client should have loaded it
    # (checked against its transcript).
    expected: dict[str, tuple[int, int, tuple[str, ...]]] = field(default_factory=dict)
    # Real paths of writes the hook held back once (before the write, DESIGN §2.11): the same write is
    # never held twice, whatever the rules say by then.
    held_writes: set[str] = field(default_factory=set)
    # Files whose text went out in the reason of a held write that the model has not seen yet (it sees
    # it with the results of the batch the held call was in): another write of that batch which they
    # govern is held too, though they count as loaded.
    unseen_holds: set[str] = field(default_factory=set)
    # Files that arrived since the user's latest prompt (or the start answer the prompt carries), for a
    # client whose compaction keeps that turn whole (`OwnLoading.compaction_keeps_turn`): not sent again.
    turn: set[str] = field(default_factory=set)
    turn_from_start: bool = False  # `turn` holds a start answer that the next prompt carries
    # Bumped by every add and drop (after construction, `loaded` changes through them only), so that a
    # count over `loaded` is kept until it changes (`held_among`).
    revision: int = field(default=0, init=False, compare=False)
    _held: tuple[frozenset[str], int, int] | None = field(default=None, init=False, compare=False, repr=False)

    def held_among(self, paths: frozenset[str]) -> int:
        """How many of `paths` are loaded; counted again only after a load or a drop (a warm touch of a
        long session would otherwise pay a lookup per held file)."""
        held = self._held
        if held is not None and held[0] is paths and held[1] == self.revision:
            return held[2]
        count = len(paths.intersection(self.loaded))
        self._held = (paths, self.revision, count)
        return count

    def add(self, path: str, entry: LoadedEntry, identity: tuple[int, int], file: InstructionFile) -> None:
        self.revision += 1
        self.loaded[path] = entry
        self.identities.add(identity)
        self.blocks[path] = file
        if entry.directory is not None:
            self.by_directory.setdefault(entry.directory, []).append(path)

    def forget(self, path: str) -> None:
        """Drop a loaded file, and the scanned mark of the directory it was found on, so that the next
        touch there finds it again (Session.startup's `left_to_host`, a fork's pruning)."""
        if path not in self.loaded:
            return
        entry = self.drop(path)
        identity = _identity(path)
        if identity is not None:
            self.identities.discard(identity)
        if entry.directory is not None:
            self.scanned.pop(entry.directory, None)

    def new_identity(self, path: str) -> tuple[int, int] | None:
        """The (device, inode) of `path` unless this channel holds that file already, under this name or
        another (case-insensitive disks, hard links); None for both that and a file that vanished."""
        identity = _identity(path)
        if identity is None or identity not in self.identities:
            return identity
        # Held under another name, unless no loaded file has it any more: a dropped file's inode, which
        # the file system reuses (a rename, or a new file after a deletion).
        if any(held != path and _identity(held) == identity for held in self.loaded):
            return None
        return identity

    def drop(self, path: str) -> LoadedEntry:
        self.revision += 1
        entry = self.loaded.pop(path)
        self.blocks.pop(path, None)
        self.expected.pop(path, None)
        if entry.directory is not None and path in self.by_directory.get(entry.directory, []):
            self.by_directory[entry.directory].remove(path)
        return entry


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino)


@dataclass
class Pass:
    """Collects the outcome of one startup or discovery pass."""

    loads: list[Load] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    scope_skipped: int = 0
    dropped: list[str] = field(default_factory=list)
    against: str = "the touched path"  # what scopes were matched against, for skip messages

    def final_skips(self) -> tuple[Skip, ...]:
        """One skip per file (the last reason), leaving out files that loaded after all."""
        loaded = {load.file.display for load in self.loads}
        latest = {skip.path: skip for skip in self.skips if skip.path not in loaded}
        return tuple(latest.values())


def channels_to_json(channels: dict[str, ChannelState]) -> dict[str, Any]:
    return {
        name: {
            "started": state.started,
            "marks": state.scanned.marks_id,  # the marks themselves: see jitctx.discovery.marks
            "identities": [list(identity) for identity in sorted(state.identities)],  # as JSON reads them
            "loaded": [
                [path, e.display, e.mtime_ns, e.size, e.reason, e.tier, e.directory, e.body_bytes]
                for path, e in state.loaded.items()
            ],
            **(
                {"expected": {path: [m, size, list(ids)] for path, (m, size, ids) in state.expected.items()}}
                if state.expected
                else {}
            ),
            **({"held_writes": sorted(state.held_writes)} if state.held_writes else {}),
            **({"unseen_holds": sorted(state.unseen_holds)} if state.unseen_holds else {}),
            **({"turn": sorted(state.turn)} if state.turn else {}),
            **({"turn_from_start": True} if state.turn_from_start else {}),
        }
        for name, state in channels.items()
    }


def channels_from_json(
    raw_channels: dict[str, Any],
    allowed: Callable[[str, str, str], bool] = lambda path, tier, reason: True,
) -> dict[str, ChannelState]:
    """Rebuild channel states (texts are read later, on first use).

    Raises KeyError, TypeError or ValueError on malformed data (the caller starts a new session).
    """
    restored: dict[str, ChannelState] = {}
    for name, raw in raw_channels.items():
        state = ChannelState(
            started=bool(raw["started"]),
            scanned=_marks_from_json(raw),
            identities={(int(dev), int(ino)) for dev, ino in raw["identities"]},
        )
        for path, display, mtime_ns, size, reason, tier, directory, *rest in raw["loaded"]:
            if not allowed(str(path), str(tier), str(reason)):
                continue
            body = rest[0] if rest else -1  # states written before body sizes were kept have none
            # A body re-encoded as UTF-8 can outgrow the file (one byte of cp1252 is up to three).
            if type(body) is not int or not -1 <= body <= 4 * int(size) + 64:
                raise TypeError("body_bytes is not a size this file could have")
            entry = LoadedEntry(
                str(display),
                int(mtime_ns),
                int(size),
                _known(reason, _REASONS),
                _known(tier, _TIERS),
                directory,
                body,
            )
            state.loaded[str(path)] = entry
            if directory is not None:
                state.by_directory.setdefault(str(directory), []).append(str(path))
        expected = raw.get("expected", {})  # states written before it have none
        state.expected = {
            str(path): (int(mtime_ns), int(size), tuple(str(ident) for ident in idents))
            for path, (mtime_ns, size, idents) in expected.items()
            if str(path) in state.loaded
        }
        state.held_writes = _paths(raw, "held_writes")  # states written before holding have none
        state.unseen_holds = _paths(raw, "unseen_holds")
        state.turn = _paths(raw, "turn")
        state.turn_from_start = raw.get("turn_from_start") is True
        restored[str(name)] = state
    return restored


def _paths(raw: dict[str, Any], key: str) -> set[str]:
    """A channel's list of paths under `key` (none when absent); TypeError when it is not one."""
    paths = raw.get(key, [])
    if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
        raise TypeError(f"{key} is not a list of paths")
    return set(paths)


# Checked against the values, not through the enums: an enum lookup per field and file costs a call of
# a long session more than all the rest of reading the file back.
_REASONS = frozenset(reason.value for reason in LoadReason)
_TIERS = frozenset(tier.value for tier in Tier)


def _known(value: object, values: frozenset[str]) -> str:
    if value not in values:
        raise ValueError(f"{value!r} is not one of {sorted(values)}")
    return str(value)


def _marks_from_json(raw: dict[str, Any]) -> ScannedMarks:
    """The channel's marks: their folder's id, or (a version 2 state) the marks themselves, kept as
    changed so that the next save moves them into files of their own."""
    if "marks" in raw:
        marks_id = raw["marks"]
        if not (isinstance(marks_id, str) and len(marks_id) == 16 and set(marks_id) <= _HEX):
            raise TypeError("marks is not the id of a marks folder")
        return ScannedMarks(marks_id=marks_id)
    marks = ScannedMarks()
    for directory, watch in _scanned_from_json(raw["scanned"]).items():
        marks[directory] = watch
    return marks


_HEX = frozenset("0123456789abcdef")


def _scanned_from_json(raw: Any) -> dict[str, Watch]:
    if isinstance(raw, list):  # written before watch lists were kept: each directory is looked at again
        return {str(directory): [[str(directory), -1, -1]] for directory in raw}
    if not isinstance(raw, dict):
        raise TypeError("scanned is neither a list nor an object")
    scanned: dict[str, Watch] = {}
    for directory, watch in raw.items():
        entries = []
        for path, mtime, size in watch:
            if not (isinstance(path, str) and type(mtime) is int and type(size) is int):
                raise TypeError("a watch entry is not [path, mtime_ns, size]")
            entries.append([path, mtime, size])
        scanned[str(directory)] = entries
    return scanned
