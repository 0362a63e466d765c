"""Agent Skills: `SKILL.md` folders under the skills folders each client declares (`Profile.skill_dirs`).

A skill is a folder whose `SKILL.md` starts with frontmatter naming it (`name`) and saying when to use it
(`description`). Agents list every skill's name and description at session start and read the body only
when the skill is used, so the listing is what costs context on every turn: Claude Code shows at most
1,536 characters of it per skill and cuts the rest, which can cut exactly the words that say when to
use the skill. The spec's limits (agentskills.io): `name` 1-64 characters of lowercase letters, digits
and single hyphens, equal to the folder name; `description` 1-1,024 characters.

Whether an agent lists a skill is answered once, by `lists`, and `lint`, `explain` and `budget` all read
that answer (`Skill.listed`, `Skill.listed_by`). Clients differ on a frontmatter that is not valid YAML
(`description: Use this when: the user asks`): Claude Code, Gemini CLI, OpenCode and Qwen Code read its
lines by a recovery of their own and list the skill; Codex and Copilot CLI parse YAML strictly and skip
it (each profile says which, `Profile.skill_frontmatter`; jitctx's own profile reads it as the spec does).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from jitctx.frontmatter import split_frontmatter
from jitctx.govern.findings import Finding, finding
from jitctx.paths import is_inside
from jitctx.profiles import DEFAULT_PROFILE, FORMAT_PROFILES, PROFILES, SKILL_DIRS, Profile
from jitctx.safe_open import open_regular
from jitctx.skill_paths import skill_place
from jitctx.walk import walk_tree

if TYPE_CHECKING:
    from jitctx.telemetry.results import Stats

SKILL_FILE = "SKILL.md"
SKILL_FOLDERS = SKILL_DIRS  # every client's skills folders
RECOVERS = "recover"  # `Profile.skill_frontmatter` of an agent that reads a frontmatter that is not YAML
NOT_YAML = "frontmatter is not valid YAML"  # how `frontmatter` begins the message of such an error
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
    error: str | None  # why no agent can read the frontmatter (none, not closed, not YAML even recovered)
    listed: bool  # listed to the model by `agent` (`lists`)
    body_bytes: int
    field_lines: tuple[tuple[str, int], ...] = ()  # key -> 1-based line in SKILL.md
    # Not valid YAML, yet read by the recovery some agents apply (`recover_frontmatter`): the YAML error.
    yaml_error: str | None = None
    quoted: tuple[str, ...] = ()  # the keys whose values that recovery had to quote
    invocable: bool = True  # not `disable-model-invocation: true`
    agent: str = DEFAULT_PROFILE  # the profile `listed` answers for
    listed_by: tuple[tuple[str, bool], ...] = ()  # (live client, lists it) for each that reads its folder

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
            "yaml_error": self.yaml_error,
            "listed_by": dict(self.listed_by),
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
    return PROFILES[agent].skill_dirs if agent in PROFILES else SKILL_FOLDERS


def lists(profile: Profile, skill: Skill) -> bool:
    """Does the agent of `profile` list `skill` to its model at session start? The one answer: `lint`,
    `explain` and `budget` read it from `Skill.listed` and `Skill.listed_by`, which come from here."""
    if skill.error is not None or not skill.invocable:
        return False
    return skill.yaml_error is None or profile.skill_frontmatter == RECOVERS


def _profile(agent: str) -> Profile:
    return PROFILES[agent] if agent in PROFILES else FORMAT_PROFILES[DEFAULT_PROFILE]


def _live_readers(path: str) -> list[Profile]:
    """The live clients' profiles (not the formats') whose skills folders hold the SKILL.md at `path`."""
    return [
        PROFILES[name]
        for name in PROFILES
        if name not in FORMAT_PROFILES and skill_folder(path, PROFILES[name].skill_dirs) is not None
    ]


def _answered(skill: Skill, agent: str) -> Skill:
    """`skill` with `lists`' answer for `agent`, and for every live client that reads its folder."""
    listed_by = tuple((profile.name, lists(profile, skill)) for profile in _live_readers(skill.path))
    return replace(skill, agent=agent, listed=lists(_profile(agent), skill), listed_by=listed_by)


def find_skills(root: str, paths: Iterable[str], agent: str = "jitctx") -> tuple[Skill, ...]:
    """Every skill among `paths` (root-relative, e.g. a repository listing) that `agent` reads, and those
    behind a linked folder among them (`.claude/skills -> ../.shared/skills`)."""
    folders = folders_for(agent)
    listed = list(paths)
    named = {p for p in listed if skill_folder(p, folders) is not None}
    named.update(p for p in linked_skill_paths(root, listed, folders) if skill_folder(p, folders))
    found = [read_skill(root, p, agent) for p in sorted(named)]
    return tuple(s for s in found if s is not None)


def linked_skill_paths(root: str, paths: Iterable[str], folders: Iterable[str]) -> list[str]:
    """SKILL.md files reached through a symbolic link to a folder inside the project: a linked `.claude`,
    skills folder or skill folder. A repository listing names such a link as one entry (git stores the
    link, not what it points to), so the files behind it are listed here, under the link's own path, as
    the agent reads them. Links that lead outside the project are not followed."""
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
    found = [read_skill(root, path, agent) for path in sorted(paths)]
    return tuple(skill for skill in found if skill is not None)


SKILL_MAX_BYTES = 4 * 1024 * 1024


def _read_inside(root: str, path: str) -> bytes | None:
    """The bytes of a regular file inside `root` (after every link), at most SKILL_MAX_BYTES; None for a
    file outside the project, a FIFO or a device (never waited on: a hook reads skills), or an error."""
    real = os.path.realpath(os.path.join(root, *path.split("/")))
    if not is_inside(real, os.path.realpath(root)):
        return None
    try:
        with os.fdopen(open_regular(real), "rb") as handle:
            return handle.read(SKILL_MAX_BYTES)
    except (OSError, ValueError):
        return None


def read_skill(root: str, path: str, agent: str = DEFAULT_PROFILE) -> Skill | None:
    """Parse one SKILL.md with the project's frontmatter reader, and say whether `agent` lists it (and
    each live client reading its folder); None when it cannot be read (outside the project after its
    links, not a regular file, unreadable)."""
    raw = _read_inside(root, path)
    if raw is None:
        return None
    text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front = split_frontmatter(text)
    folder = path.split("/")[-2]
    data: dict[str, Any] = front.data or {}
    error = front.error
    yaml_error: str | None = None
    quoted: tuple[str, ...] = ()
    lines = text.split("\n")
    if not front.present:
        error = "no frontmatter: a skill starts with '---', name: and description:, then '---'"
    elif front.recovered or (error is not None and error.startswith(NOT_YAML)):
        recovered, quoted = recover_frontmatter("\n".join(lines[1 : front.body_line - 2]))
        if recovered is not None or front.data is not None:
            yaml_error = error or f"{NOT_YAML}: an unquoted value starts with '*' (a YAML alias)"
            data = recovered if recovered is not None else data
            error = None
    field_lines = tuple(
        (key, index + 1)
        for index in range(1, max(1, front.body_line - 2))
        for key in [_key(lines[index])]
        if key
    )
    skill = Skill(
        path=path,
        folder=folder,
        name=_text(data.get("name")),
        description=_text(data.get("description")),
        when_to_use=_text(data.get("when_to_use")),
        fields=tuple(str(k) for k in data),
        error=error,
        listed=False,
        body_bytes=len(front.body.encode("utf-8")),
        field_lines=field_lines,
        yaml_error=yaml_error,
        quoted=quoted,
        invocable=data.get("disable-model-invocation") is not True,
    )
    return _answered(skill, agent)


# Claude Code 2.1.332's retry when a frontmatter is not YAML: each `key: value` line whose plain value
# holds a character YAML reads as syntax (`: `, `#`, `*`, `[`, `|`...) is quoted, and the frontmatter is
# parsed again. The other clients that recover read at least that much: Gemini CLI 0.61.0 the `name:`
# and `description:` lines as text, OpenCode 1.18.33 a value holding `:` as a block scalar, Qwen Code
# 0.24.4 every `key: value` line as text.
_PLAIN_LINE = re.compile(r"([a-zA-Z_-]+):\s+(\S.*)")
_SYNTAX = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


def recover_frontmatter(block: str) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """The frontmatter `block` (between the `---` lines) as a recovering client reads it, and the keys
    whose values it had to quote; (None, ()) when even that does not read it."""
    out: list[str] = []
    quoted: list[str] = []
    for line in block.split("\n"):
        match = _PLAIN_LINE.fullmatch(line)
        if match is not None:
            key, value = match.groups()
            if not _is_quoted(value) and not _is_flow_list(value) and _SYNTAX.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
                quoted.append(key)
        out.append(line)
    text = re.sub(r"^\t+", lambda tabs: "  " * len(tabs.group(0)), "\n".join(out), flags=re.MULTILINE)
    front = split_frontmatter(f"---\n{text}\n---\n")
    if front.data is None or front.error is not None or front.recovered:
        return None, ()
    return front.data, tuple(quoted)


def _is_quoted(value: str) -> bool:
    return value[:1] in ("'", '"') and value[-1:] == value[:1]


def _is_flow_list(value: str) -> bool:
    if not (value.startswith("[") and value.endswith("]")):
        return False
    front = split_frontmatter(f"---\nv: {value}\n---\n")
    return front.data is not None and not front.recovered and isinstance(front.data.get("v"), list)


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
    if skill.yaml_error is not None:
        found.append(_yaml_finding(skill))
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


def _yaml_finding(skill: Skill) -> Finding:
    """A frontmatter that is not YAML: an error where `skill.agent` does not list the skill, a warning
    where it lists it by a recovery of its own (other agents may still skip it)."""
    message = f"skill '{skill.folder}': {skill.yaml_error}; {_verdict(skill)}"
    key = skill.quoted[0] if skill.quoted else None
    line = skill.line_of(key) if key else 1
    fix = f'quote the value: {key}: "..."' if key else "make the frontmatter valid YAML (quote the values)"
    return finding("skill-yaml" if skill.listed else "skill-frontmatter", skill.path, line, message, fix)


def _verdict(skill: Skill) -> str:
    """Who lists a skill whose frontmatter is not YAML: the agent asked about first, then the others."""
    own = _profile(skill.agent)
    if own.name == DEFAULT_PROFILE:
        said = "jitctx reads it as the Agent Skills spec does (YAML) and does not count it as listed"
    elif skill.listed:
        said = f"{_label(own)} lists it by a recovery of its own"
    else:
        said = f"{_label(own)} reads it as YAML and skips it"
    others = [(PROFILES[name], listed) for name, listed in skill.listed_by if name != own.name]
    skip = sorted(_label(profile) for profile, listed in others if not listed)
    read = sorted(_label(profile) for profile, listed in others if listed)
    if skip:
        said += f"; {_names(skip)} {_verb(skip, 'skips it', 'skip it')}"
    if read:
        verb = _verb(read, "lists it by a recovery of its own", "list it by a recovery of their own")
        said += f"; {_names(read)} {verb}"
    return said


def _label(profile: Profile) -> str:
    """How people call the agent of `profile` (`Claude Code`), from its summary."""
    return profile.summary.split(":", 1)[0]


def _verb(labels: list[str], one: str, more: str) -> str:
    return one if len(labels) == 1 else more


def _names(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def explain_skill(skill: Skill) -> list[str]:
    """What `explain` says about a SKILL.md, for people."""
    name = skill.name or skill.folder
    lines = [f"{skill.path} is an Agent Skill ('{name}'); its body loads only when the skill is used"]
    if skill.error is not None:
        lines.append(f"  its frontmatter cannot be read ({skill.error}): agents do not list it")
        return lines
    if skill.yaml_error is not None:
        lines.append(f"  {skill.yaml_error}: {_verdict(skill)}")
    if not skill.invocable:
        lines.append("  disable-model-invocation: true - not listed to the model; only /name runs it")
        return lines
    if not skill.listed:
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


@dataclass(frozen=True)
class SkillDocument:
    """An instruction-named file in a skill's folder (`web/.agents/skills/x/AGENTS.md`): a document of
    the skill, read with it, not an instruction file of the project (jitctx.skill_paths)."""

    path: str  # POSIX, relative to the root
    skill: str  # the skill's folder name
    skills_folder: str  # root-relative, `web/.agents/skills`
    loaded_by: tuple[str, ...]  # clients that load it by themselves when a file of its folder is read


def skill_documents(paths: Iterable[str], profile: Profile) -> list[SkillDocument]:
    """The files among root-relative `paths` (a repository listing) that `profile` would read as
    instruction files, were they not in a skill's folder; with the live clients that load each by
    themselves after a read in that folder (those that discover files while they work, by their own
    per-directory names: Claude Code's AGENTS.md stands in for a missing CLAUDE.md at start only)."""
    names = (*profile.dir_files, *profile.local_files, *(name for name, _ in profile.fallback_files))
    listed = set(paths)
    live = [PROFILES[name] for name in PROFILES if name not in FORMAT_PROFILES]
    found: list[SkillDocument] = []
    for path in sorted(listed):
        name = next((n for n in names if path.endswith("/" + n)), None)
        if name is None:
            continue
        directory = path[: -len(name) - 1]
        place = skill_place(directory)
        if place is None:
            continue
        loaded_by = tuple(
            _label(client)
            for client in live
            if client.native_jit
            and name in client.dir_files
            and _first_there(client, name, directory, listed)
        )
        found.append(SkillDocument(path, place.skill, place.skills_folder, loaded_by))
    return found


def _first_there(profile: Profile, name: str, directory: str, paths: set[str]) -> bool:
    """Is `name` the file `profile` takes in `directory`? (OpenCode takes the first of its names.)"""
    if not profile.first_match_per_dir:
        return True
    earlier = profile.dir_files[: profile.dir_files.index(name)]
    return not any(f"{directory}/{other}" in paths for other in earlier)


def skill_document_findings(documents: Iterable[SkillDocument]) -> list[Finding]:
    found: list[Finding] = []
    for document in documents:
        message = (
            f"a document of the skill '{document.skill}' ({document.skills_folder}), not an instruction "
            "file of the project: it is read with the skill, so jitctx does not send it and applies no "
            "instruction-file limit to it; "
        )
        clients = list(document.loaded_by)
        if clients:
            verb = _verb(clients, "loads it by itself", "load it by themselves")
            message += f"{_names(clients)} {verb} when a file of its folder is read"
            fix = "nothing to fix; rename it (REFERENCE.md) to keep clients from loading it on a read there"
        else:
            message += "no client loads it by itself"
            fix = "nothing to fix"
        found.append(finding("skill-document", document.path, 1, message, fix))
    return found


def skill_at(root: str, rel: str | None, agent: str = DEFAULT_PROFILE) -> Skill | None:
    """The skill whose SKILL.md is at root-relative `rel` (any agent's skills folder), as `agent` lists it,
    else None."""
    if rel is None or skill_folder(rel) is None:
        return None
    return read_skill(root, rel, agent)


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
    seen: dict[str, Skill] = {}
    for profile in PROFILES.values():
        if profile.skill_tool:
            for skill in root_skills(root, profile.name):
                seen.setdefault(skill.path, skill)
    return list(seen.values())
