"""Where Agent Skills live in a tree: `<dir>/<skills folder>/<skill>/...`, for every skills folder a client
declares (`Profile.skill_dirs`; their union is `profiles.SKILL_DIRS`).

A file in a skill's folder belongs to the skill. An AGENTS.md or CLAUDE.md beside a SKILL.md is a document
the skill refers to, read as part of the skill when it is used, not a standing instruction of the project:
jitctx's discovery does not send it and lint applies no instruction-file limit to it. (Some clients load
an instruction-named file there by themselves when a file of that folder is read, as they would anywhere:
Claude Code 2.1.332 a CLAUDE.md, OpenCode 1.18.33 the first of AGENTS.md, CLAUDE.md, CONTEXT.md, Copilot
CLI 1.0.102 AGENTS.md and CLAUDE.md, Gemini CLI 0.61.0 GEMINI.md; Codex 0.171.0 and Qwen Code 0.24.4 load
nothing there. That is theirs to do, seen with the real clients.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from jitctx.profiles import SKILL_DIRS


class SkillPlace(NamedTuple):
    """Where a path inside a skill's folder is: the skills folder (root-relative) and the skill's name."""

    skills_folder: str  # `web/.agents/skills`
    skill: str  # the first folder below it, `x` for `web/.agents/skills/x/AGENTS.md`


def _pairs(folders: Iterable[str]) -> frozenset[tuple[str, str]]:
    return frozenset((top, sub) for top, sub in (folder.split("/", 1) for folder in folders))


_ALL = _pairs(SKILL_DIRS)


def skill_place(rel: str, folders: Iterable[str] | None = None) -> SkillPlace | None:
    """The skill whose folder is, or holds, the root-relative POSIX directory `rel` (`web/.agents/skills/x`
    or below it), at any depth of the tree; None when `rel` is in no skill's folder. The skills folder
    itself (`.claude/skills`) is no skill's folder. A file is asked about by its directory."""
    pairs = _ALL if folders is None else _pairs(folders)
    parts = [part for part in rel.split("/") if part]
    for index in range(len(parts) - 2):
        if (parts[index], parts[index + 1]) in pairs:
            return SkillPlace("/".join(parts[: index + 2]), parts[index + 2])
    return None


def in_skill(rel: str) -> bool:
    """Is the root-relative directory `rel` a skill's folder or below one, for any client's skills
    folders?"""
    return skill_place(rel) is not None
