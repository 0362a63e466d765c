"""An agent's own size limits applied to the files it loads: warnings it shows, and the hook's cap (pure).

The profile says which limits an agent has and whose they are (`Profile.size_limits`). A limit that only
makes the agent warn never cuts text: it is reported as a warning and never fails a budget. The hook's cap
applies to what jitctx sends, one answer at a time: a file whose text alone is over it is never sent whole,
only named, so the agent has to read it itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jitctx.model import InstructionFile
from jitctx.profiles import Profile, SizeLimit


@dataclass(frozen=True)
class SizeWarning:
    """One limit of an agent that a file (or all files loaded together) goes past."""

    limit: SizeLimit
    size: int  # in the limit's unit
    file: str | None = None  # display path; None for a limit on all files together

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "size": self.size, "limit": self.limit.to_dict()}

    def describe(self) -> str:
        unit = "characters" if self.limit.unit == "chars" else "bytes"
        what = self.file or "all files loaded at start"
        return (
            f"{what}: {self.size:,} {unit}, over {self.limit.owner}'s {self.limit.value:,} "
            f"({self.limit.name}): {self.limit.effect}"
        )


def measured(file: InstructionFile, limit: SizeLimit) -> int:
    """The file's size as the limit's owner counts it."""
    return len(file.text) if limit.unit == "chars" else file.body_bytes


def startup_warnings(files: Sequence[InstructionFile], profile: Profile) -> tuple[SizeWarning, ...]:
    """The warning limits (not cuts) that files loaded together at startup go past: each file's own,
    then the total over the files not already over their own (the way Claude Code adds them up)."""
    found: list[SizeWarning] = []
    alone: set[str] = set()
    for limit in profile.limits_for("file"):
        if limit.cuts:
            continue
        for file in files:
            size = measured(file, limit)
            if size > limit.value:
                alone.add(file.path)
                found.append(SizeWarning(limit, size, file.display))
    for limit in profile.limits_for("startup"):
        if limit.cuts:
            continue
        total = sum(measured(f, limit) for f in files if f.path not in alone)
        if total > limit.value:
            found.append(SizeWarning(limit, total))
    return tuple(found)


def file_warnings(file: InstructionFile, profile: Profile) -> tuple[SizeWarning, ...]:
    """The per-file warning limits one file goes past."""
    return tuple(
        SizeWarning(limit, measured(file, limit), file.display)
        for limit in profile.limits_for("file")
        if not limit.cuts and measured(file, limit) > limit.value
    )


@dataclass(frozen=True)
class HookUsage:
    """What the cap on one hook answer means for the files jitctx may send while the agent works."""

    limit: SizeLimit | None
    too_large: tuple[SizeWarning, ...] = ()  # files never sent whole, only named

    def to_dict(self) -> dict[str, Any]:
        return {
            "limit": self.limit.to_dict() if self.limit is not None else None,
            "too_large": [w.to_dict() for w in self.too_large],
        }


def hook_usage(files: Iterable[InstructionFile], profile: Profile, at_start: Iterable[str]) -> HookUsage:
    """Files that do not load at the root's startup (they reach the agent while it works) and whose
    text alone is over the hook's cap."""
    limits = profile.limits_for("hook")
    if not limits:
        return HookUsage(None)
    limit = limits[0]
    started = set(at_start)
    too_large = tuple(
        SizeWarning(limit, measured(f, limit), f.display)
        for f in files
        if f.display not in started and measured(f, limit) > limit.value
    )
    return HookUsage(limit, too_large)
