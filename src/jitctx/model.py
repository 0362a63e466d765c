"""Frozen records shared by every part of jitctx."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Tier(StrEnum):
    """Where an instruction file comes from, lowest priority first."""

    MANAGED = "managed"
    USER = "user"
    PROJECT = "project"
    LOCAL = "local"

    @property
    def memory_type(self) -> str:
        """The name Claude Code's InstructionsLoaded event uses for this tier."""
        return self.value.capitalize()


class LoadReason(StrEnum):
    SESSION_START = "session_start"
    NESTED_TRAVERSAL = "nested_traversal"
    PATH_GLOB_MATCH = "path_glob_match"
    INCLUDE = "include"
    COMPACT = "compact"


@dataclass(frozen=True)
class Scope:
    """A compiled `paths:` scope. `regex` is the whole scope as one pattern source."""

    patterns: tuple[str, ...]
    key: str
    dialect: str
    regex: str
    recovered: bool = False  # read by the line-based fallback (unquoted glob)


@dataclass(frozen=True)
class InstructionFile:
    """One instruction file as read from disk, with its frontmatter taken apart."""

    path: str  # absolute, real path
    display: str  # POSIX path relative to the project root, or absolute outside it
    tier: Tier
    text: str  # body without frontmatter
    size: int  # bytes on disk
    mtime_ns: int
    scope: Scope | None = None
    # Set when frontmatter exists but cannot be read: the file is then conditional on nothing.
    scope_error: str | None = None
    # Cursor rules without globs and without alwaysApply are only pulled in on request.
    manual: bool = False
    from_rules_dir: bool = False
    warnings: tuple[str, ...] = ()
    body_line: int = 1  # line of the file where `text` starts (after frontmatter)

    @property
    def conditional(self) -> bool:
        return self.scope is not None or self.scope_error is not None or self.manual

    @property
    def body_bytes(self) -> int:
        return len(self.text.encode("utf-8"))


@dataclass(frozen=True)
class Load:
    """One instruction file that reached the agent, and why."""

    file: InstructionFile
    reason: LoadReason
    trigger: str | None = None  # the signal or touched path that caused it
    globs: tuple[str, ...] = ()
    parent: str | None = None  # for `include`: the importing file's display path
    updated: bool = False  # a new version of a file sent before: its text replaces the earlier one
    pinned: bool = False  # named by `[pin] paths`: in context at every start, after compaction, in sub-agents


@dataclass(frozen=True)
class Skip:
    """A rule that did not load, and the reason in words a person can act on."""

    path: str
    why: str


@dataclass(frozen=True)
class Startup:
    """What the session-start load produced."""

    root: str
    cwd: str
    agent: str
    signals: tuple[str, ...]
    loaded: tuple[Load, ...]
    skipped: tuple[Skip, ...]
    warnings: tuple[str, ...]
    elapsed_ms: float = 0.0


@dataclass(frozen=True)
class Discovery:
    """The outcome of one JIT discovery for one touched path."""

    trigger: str
    hit: bool
    loaded: tuple[Load, ...]
    scope_skipped: int
    elapsed_ms: float
    channel: str = "main"
    note: str | None = None  # e.g. "outside the project"
    dropped: tuple[str, ...] = ()  # blocks removed because their file was deleted
    skipped: tuple[Skip, ...] = field(default=())
    warnings: tuple[str, ...] = ()  # e.g. imports that could not be followed
