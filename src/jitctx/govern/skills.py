"""Agent Skills: `SKILL.md` folders under `.claude/skills`, `.agents/skills` and `.gemini/skills`.

A skill is a folder whose `SKILL.md` starts with frontmatter naming it (`name`) and saying when to use it
(`description`). Agents list every skill's name and description at session start and read the body only
when the skill is used, so the listing is what costs context on every turn: Claude Code shows at most
1,536 characters of it per skill and cuts the rest, which can cut exactly the words that say when to
use the skill. The spec's limits (agentskills.io): `name` 1-64 characters of lowercase letters, digits
and single hyphens, equal to the folder name; `description` 1-1,024 characters.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jitctx.frontmatter import split_frontmatter
from jitctx.govern.findings import Finding, finding

if TYPE_CHECKING:
    from jitctx.telemetry.results import Stats

SKILL_FILE = "SKILL.md"
SKILL_FOLDERS = (".claude/skills", ".agents/skills", ".gemini/skills")
NAME_MAX = 64
DESCRIPTION_MAX = 1024
LISTING_MAX = 1536  # characters of name and description Claude Code lists per skill
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SPEC_FIELDS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
# Claude Code's own additions to the spec, documented for its skills; not "unknown".
CLAUDE_FIELDS = frozenset(
    {
        "argument-hint",
        "when_to_use",
        "disable-model-invocation",
        "user-invocable",
        "model",
        "effort",
        "context",
        "agent",
        "hooks",
        "paths",
        "shell",
    }
)


@dataclass(frozen=True)
class Skill:
    path: str  # the SKILL.md, POSIX relative to the root
    folder: str  # the skill's folder name, which `name` must equal
    name: str | None
    description: str | None
    when_to_use: str | None
    fields: tuple[str, ...]  # top-level frontmatter keys, in order
    error: str | None  # why the frontmatter could not be read
    listed: bool  # shown to the model (not `disable-model-invocation: true`)
    body_bytes: int
    field_lines: tuple[tuple[str, int], ...] = ()  # key -> 1-based line in SKILL.md

    @property
    def listing(self) -> str:
        """What Claude Code lists for the skill: its name, description and when-to-use text."""
        text = " - ".join(part for part in (self.description, self.when_to_use) if part)
        return f"{self.name or self.folder}: {text}"

    @property
    def listing_chars(self) -> int:
        return len(self.listing)

    @property
    def listing_cut(self) -> int:
        """Characters of the listing Claude Code does not show (0 when it fits)."""
        return max(0, self.listing_chars - LISTING_MAX)

    def line_of(self, key: str) -> int:
        return dict(self.field_lines).get(key, 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "description_chars": len(self.description or ""),
            "listed": self.listed,
            "listing_chars": self.listing_chars,
            "listing_max": LISTING_MAX,
            "listing_cut": self.listing_cut,
            "body_bytes": self.body_bytes,
            "error": self.error,
        }


@dataclass(frozen=True)
class SkillListing:
    skills: tuple[Skill, ...]

    @property
    def listed(self) -> tuple[Skill, ...]:
        return tuple(s for s in self.skills if s.listed)

    @property
    def total_chars(self) -> int:
        """Characters of the listing the model gets at every session start, cuts applied."""
        return sum(min(s.listing_chars, LISTING_MAX) for s in self.listed)

    @property
    def cut(self) -> tuple[Skill, ...]:
        return tuple(s for s in self.listed if s.listing_cut)


def skill_folder(path: str, folders: Iterable[str] = SKILL_FOLDERS) -> str | None:
    """The skills folder a root-relative SKILL.md lives in (`pkg/.claude/skills`), or None if it is no
    skill: `SKILL.md` in a folder of its own somewhere under a skills folder, at any depth of the tree."""
    parts = path.split("/")
    if parts[-1] != SKILL_FILE or len(parts) < 4:
        return None
    for folder in folders:
        top, sub = folder.split("/")
        for index in range(len(parts) - 3):
            if parts[index] == top and parts[index + 1] == sub:
                return "/".join(parts[: index + 2])
    return None


def folders_for(agent: str) -> tuple[str, ...]:
    """The skills folders an agent's profile reads (every folder for an unknown name)."""
    from jitctx.profiles import PROFILES

    return PROFILES[agent].skill_dirs if agent in PROFILES else SKILL_FOLDERS


def find_skills(root: str, paths: Iterable[str], agent: str = "jitctx") -> tuple[Skill, ...]:
    """Every skill among `paths` (root-relative, e.g. a repository listing) that `agent` reads, and those
    behind a linked folder among them (`.claude/skills -> ../.shared/skills`)."""
    folders = folders_for(agent)
    listed = list(paths)
    named = {p for p in listed if skill_folder(p, folders) is not None}
    named.update(p for p in linked_skill_paths(root, listed, folders) if skill_folder(p, folders))
    found = [read_skill(root, p) for p in sorted(named)]
    return tuple(s for s in found if s is not None)


def linked_skill_paths(root: str, paths: Iterable[str], folders: Iterable[str]) -> list[str]:
    """SKILL.md files reached through a symbolic link to a folder inside the project: a linked `.claude`,
    skills folder or skill folder. A repository listing names such a link as one entry (git stores the
    link, not what it points to), so the files behind it are listed here, under the link's own path, as
    the agent reads them. Links that lead outside the project are not followed."""
    from jitctx.paths import is_inside
    from jitctx.walk import walk_tree

    real_root = os.path.realpath(root)
    found: list[str] = []
    for path in paths:
        if not _may_hold_skills(path, folders):
            continue
        named = os.path.join(root, *path.split("/"))
        if not os.path.islink(named) or not os.path.isdir(named):
            continue
        if not is_inside(os.path.realpath(named), real_root):
            continue
        for current, _, filenames in walk_tree(named):
            if SKILL_FILE in filenames:
                rel = os.path.relpath(os.path.join(current, SKILL_FILE), root)
                found.append(rel.replace(os.sep, "/"))
    return found


def _may_hold_skills(path: str, folders: Iterable[str]) -> bool:
    """Could a folder at `path` hold skills: is it a skills folder's first part (`.claude`), the skills
    folder itself, or inside one?"""
    parts = path.split("/")
    for folder in folders:
        top, sub = folder.split("/")
        if parts[-1] == top:
            return True
        if any(parts[i] == top and parts[i + 1] == sub for i in range(len(parts) - 1)):
            return True
    return False


def root_skills(root: str, agent: str = "jitctx") -> tuple[Skill, ...]:
    """The skills in the skills folders at the root itself, not those of nested packages: one directory
    listing per folder, no walk of the tree (cheap enough for `stats`, which may name many projects)."""
    paths: list[str] = []
    for folder in folders_for(agent):
        try:
            entries = list(os.scandir(os.path.join(root, *folder.split("/"))))
        except OSError:
            continue
        paths.extend(f"{folder}/{entry.name}/{SKILL_FILE}" for entry in entries if entry.is_dir())
    found = [read_skill(root, path) for path in sorted(paths)]
    return tuple(skill for skill in found if skill is not None)


SKILL_MAX_BYTES = 4 * 1024 * 1024


def _read_inside(root: str, path: str) -> bytes | None:
    """The bytes of a regular file inside `root` (after every link), at most SKILL_MAX_BYTES; None for a
    file outside the project, a FIFO or a device (never waited on: a hook reads skills), or an error."""
    from jitctx.paths import is_inside
    from jitctx.safe_open import open_regular

    real = os.path.realpath(os.path.join(root, *path.split("/")))
    if not is_inside(real, os.path.realpath(root)):
        return None
    try:
        with os.fdopen(open_regular(real), "rb") as handle:
            return handle.read(SKILL_MAX_BYTES)
    except (OSError, ValueError):
        return None


def read_skill(root: str, path: str) -> Skill | None:
    """Parse one SKILL.md with the project's frontmatter reader; None when it cannot be read (outside the
    project after its links, not a regular file, unreadable)."""
    raw = _read_inside(root, path)
    if raw is None:
        return None
    text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front = split_frontmatter(text)
    folder = path.split("/")[-2]
    data: dict[str, Any] = front.data or {}
    error = front.error
    if not front.present:
        error = "no frontmatter: a skill starts with '---', name: and description:, then '---'"
    lines = text.split("\n")
    field_lines = tuple(
        (key, index + 1)
        for index in range(1, max(1, front.body_line - 2))
        for key in [_key(lines[index])]
        if key
    )
    return Skill(
        path=path,
        folder=folder,
        name=_text(data.get("name")),
        description=_text(data.get("description")),
        when_to_use=_text(data.get("when_to_use")),
        fields=tuple(str(k) for k in data),
        error=error,
        listed=data.get("disable-model-invocation") is not True,
        body_bytes=len(front.body.encode("utf-8")),
        field_lines=field_lines,
    )


def _key(line: str) -> str | None:
    match = re.match(r"([A-Za-z_][\w-]*)[ \t]*:", line)
    return match.group(1) if match else None


def _text(value: object) -> str | None:
    if value is None:
        return None
    return str(value).strip()


def skill_findings(skills: Iterable[Skill]) -> list[Finding]:
    found: list[Finding] = []
    for skill in skills:
        found.extend(_one(skill))
    return found


def _one(skill: Skill) -> list[Finding]:
    if skill.error is not None:
        return [
            finding(
                "skill-frontmatter",
                skill.path,
                1,
                f"skill '{skill.folder}': {skill.error}; agents cannot list it",
                f"start the file with ---, name: {skill.folder}, description: <when to use it>, ---",
            )
        ]
    found: list[Finding] = []
    name, line = skill.name, skill.line_of("name")
    name_fix = f"name: {skill.folder} (the folder name)"
    if not name:
        message = "'name' is missing: Claude Code takes the folder name, but the spec requires it"
        found.append(finding("skill-name-missing", skill.path, 1, message, name_fix))
    elif len(name) > NAME_MAX:
        message = f"'name' is {len(name)} characters; the spec allows at most {NAME_MAX}"
        found.append(finding("skill-name", skill.path, line, message, "shorten it, and rename the folder"))
    elif not _NAME.fullmatch(name):
        message = f"'name' {name!r} must be lowercase letters, digits and single hyphens"
        found.append(finding("skill-name", skill.path, line, message, name_fix))
    elif name != skill.folder:
        message = f"'name' {name!r} differs from its folder '{skill.folder}'; the spec requires them equal"
        found.append(finding("skill-name", skill.path, line, message, f"rename one: name: {skill.folder}"))
    description, line = skill.description, skill.line_of("description")
    if not description:
        message = "'description' is missing or empty; agents choose skills by it"
        fix = "add description: what the skill does and when to use it"
        found.append(finding("skill-description", skill.path, 1, message, fix))
    elif len(description) > DESCRIPTION_MAX:
        message = (
            f"'description' is {len(description):,} characters; the spec allows at most {DESCRIPTION_MAX:,}"
        )
        found.append(
            finding("skill-description", skill.path, line, message, "shorten it; move detail to the body")
        )
    for key in skill.fields:
        if key not in SPEC_FIELDS and key not in CLAUDE_FIELDS:
            message = f"'{key}' is not a field of the Agent Skills spec (nor one of Claude Code's)"
            fix = "fix its spelling, or move it under metadata:"
            found.append(finding("skill-unknown-field", skill.path, skill.line_of(key), message, fix))
    if skill.listed and skill.listing_cut:
        message = (
            f"the listing (name and description) is {skill.listing_chars:,} characters; Claude Code shows "
            f"{LISTING_MAX:,} and cuts {skill.listing_cut:,}, which may be the words that say when to use it"
        )
        fix = "put when to use it first and shorten the description"
        found.append(finding("skill-listing-cut", skill.path, line, message, fix))
    return found


def explain_skill(skill: Skill) -> list[str]:
    """What `explain` says about a SKILL.md, for people."""
    name = skill.name or skill.folder
    lines = [f"{skill.path} is an Agent Skill ('{name}'); its body loads only when the skill is used"]
    if skill.error is not None:
        lines.append(f"  its frontmatter cannot be read ({skill.error}): agents do not list it")
        return lines
    if not skill.listed:
        lines.append("  disable-model-invocation: true - not listed to the model; only /name runs it")
        return lines
    verdict = (
        f"cut: {skill.listing_cut:,} characters are not shown"
        if skill.listing_cut
        else f"fits ({LISTING_MAX - skill.listing_chars:,} to spare)"
    )
    lines.append(
        f"  listed at every session start with {skill.listing_chars:,} characters of name and description; "
        f"Claude Code shows {LISTING_MAX:,} per skill - {verdict}"
    )
    return lines


def skill_at(root: str, rel: str | None) -> Skill | None:
    """The skill whose SKILL.md is at root-relative `rel` (any agent's skills folder), else None."""
    if rel is None or skill_folder(rel) is None:
        return None
    return read_skill(root, rel)


def unused_skills(stats: Stats) -> list[dict[str, str]]:
    """The skills at the root of each project in the window (`.claude/skills`, as they are on disk now)
    that the model could call but never did in the window. Only when the window holds a skill use at
    all: a log written before jitctx recorded skills would call every skill unused."""
    if not stats.by_skill:
        return []
    used: dict[str, set[str]] = {}
    for row in stats.by_skill:
        used.setdefault(row.project or "", set()).add(row.skill)
    roots = {row.project for row in stats.by_skill} | {s.project for s in stats.series}
    roots |= {row.project for row in stats.by_file}
    unused = []
    for root in sorted(r for r in roots if r and os.path.isabs(r)):
        names = used.get(root, set())
        for skill in _skills_of_reporting_agents(root):
            if skill.listed and skill.error is None and not {skill.folder, skill.name} & names:
                unused.append({"project": root, "skill": skill.name or skill.folder, "path": skill.path})
    return unused


def _skills_of_reporting_agents(root: str) -> list[Skill]:
    """The root's skills in the folders of every agent whose hook events show its skill uses: only
    those can be told unused."""
    from jitctx.profiles import PROFILES

    seen: dict[str, Skill] = {}
    for profile in PROFILES.values():
        if profile.skill_tool:
            for skill in root_skills(root, profile.name):
                seen.setdefault(skill.path, skill)
    return list(seen.values())
