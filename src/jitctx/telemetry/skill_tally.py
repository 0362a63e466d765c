"""Uses of Agent Skills in the event log (`skill` records), per project root and skill name: counted,
merged across the parts of a log read in parallel, and turned into rows (see `stats`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jitctx.telemetry.results import SkillRow


class SkillTally:
    def __init__(self) -> None:
        # (root, skill name) -> [uses, sessions, path of its SKILL.md (None: not found)]
        self.skills: dict[tuple[str, str], list[Any]] = {}

    def add(self, record: Mapping[str, Any], session_id: str) -> None:
        """Count one record; TypeError when it names no skill (the record is then invalid, whole)."""
        name = record.get("skill")
        path = record.get("path")
        if name.__class__ is not str or not name or not (path is None or path.__class__ is str):
            raise TypeError("a skill record names no skill")
        root = record.get("root")
        root = root if root.__class__ is str else ""
        entry = self.skills.get((root, name))
        if entry is None:
            entry = self.skills[root, name] = [0, set(), None]
        entry[0] += 1
        entry[1].add(session_id)
        if path is not None:
            entry[2] = path

    def merge(self, later: SkillTally) -> None:
        for named, theirs in later.skills.items():
            skill = self.skills.setdefault(named, [0, set(), None])
            skill[0] += theirs[0]
            skill[1] |= theirs[1]
            if theirs[2] is not None:
                skill[2] = theirs[2]

    def rows(self) -> tuple[SkillRow, ...]:
        """Most used first."""
        return tuple(
            sorted(
                (
                    SkillRow(name, entry[0], len(entry[1]), root or None, entry[2])
                    for (root, name), entry in self.skills.items()
                ),
                key=lambda r: (-r.uses, r.skill, r.project or ""),
            )
        )
