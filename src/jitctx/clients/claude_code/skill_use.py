"""Which Agent Skills an agent used, from Claude Code's hook events, as telemetry records (`kind: "skill"`).

Claude Code runs a skill through its `Skill` tool, whose input names it: `{"skill": "<name>", "args": "..."}`
(the tool's input schema in Claude Code 2.1.332). The tool trims the name and strips a leading `/`; a
plugin's or an MCP server's skill is named `plugin:skill`. The hook sees the call in PostToolUse, or among
the `tool_calls` of a PostToolBatch. A skill the user runs by typing `/name` is no tool call and is not
seen here.

Recording is telemetry: it must never change the hook's answer, and costs nothing for other calls.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from jitctx.discovery.chains import chain_down
from jitctx.govern.skills import SKILL_FILE, folders_for, read_skill
from jitctx.paths import is_inside, relative_posix
from jitctx.telemetry.events import event_from_skill

AGENT = "claude-code"
SKILL_TOOL = "Skill"
NAME_MAX = 256  # longer is no skill name (the spec allows 64); kept short so a record stays small
SCAN_MAX = 200  # skill folders read, at most, to match a name against the `name:` of their frontmatter


def skills_used(calls: Iterable[Mapping[str, Any]]) -> list[tuple[str, str | None]]:
    """(skill name, tool_use_id) of every `Skill` call among `calls` (one PostToolUse payload, or the
    `tool_calls` of a PostToolBatch), in order; calls that name no skill are left out."""
    used: list[tuple[str, str | None]] = []
    for call in calls:
        if not isinstance(call, Mapping) or call.get("tool_name") != SKILL_TOOL:
            continue
        tool_input = call.get("tool_input")
        name = tool_input.get("skill") if isinstance(tool_input, Mapping) else None
        if not isinstance(name, str):
            continue
        name = name.strip()
        name = name[1:].strip() if name.startswith("/") else name
        if not name:
            continue
        tool_use_id = call.get("tool_use_id")
        used.append((name[:NAME_MAX], tool_use_id if isinstance(tool_use_id, str) and tool_use_id else None))
    return used


def skill_records(
    used: Iterable[tuple[str, str | None]],
    *,
    session_id: str,
    root: str,
    cwd: str,
    channel: str = "main",
    agent: str = AGENT,
) -> list[dict[str, Any]]:
    """One `skill` record per use, with the path of its SKILL.md when the project has it."""
    records = []
    found: dict[str, str | None] = {}
    for name, tool_use_id in used:
        if name not in found:
            found[name] = skill_path(root, cwd, name, agent)
        record = event_from_skill(name, session_id=session_id, root=root, channel=channel, path=found[name])
        record["agent"] = agent
        if tool_use_id is not None:
            record["tool_use_id"] = tool_use_id
        records.append(record)
    return records


def skill_path(root: str, cwd: str, name: str, agent: str = AGENT) -> str | None:
    """The SKILL.md of skill `name`, POSIX relative to `root`: in a skills folder of `cwd` or of a folder
    above it up to the root (a package's own skills in a monorepo, then the project's), first as the
    folder named like the skill, then by the `name:` of each skill's frontmatter. None for a skill the
    project does not hold (the user's own, a plugin's)."""
    if ":" in name or "/" in name or "\\" in name or name in (".", "..") or "\0" in name:
        return None  # a plugin's or MCP server's skill, or no folder name at all
    root = os.path.realpath(root)
    here = os.path.realpath(cwd)
    if not is_inside(here, root):
        here = root
    # The cwd's skills folders first, then each folder's above it up to the root's; one linked out of
    # the project is not looked in (read_skill refuses such files too).
    places = [
        place
        for directory in reversed(chain_down(root, here))
        for folder in folders_for(agent)
        if is_inside(os.path.realpath(place := os.path.join(directory, *folder.split("/"))), root)
    ]
    for place in places:
        candidate = os.path.join(place, name, SKILL_FILE)
        if os.path.isfile(candidate) and is_inside(os.path.realpath(candidate), root):
            return relative_posix(candidate, root)
    read = 0
    for place in places:
        try:
            folders = sorted(entry.name for entry in os.scandir(place) if entry.is_dir())
        except OSError:
            continue
        for folder in folders:
            if read >= SCAN_MAX:
                return None
            read += 1
            rel = relative_posix(os.path.join(place, folder, SKILL_FILE), root)
            skill = read_skill(root, rel)
            if skill is not None and skill.name == name:
                return rel
    return None


def record_skill_uses(seen: Any, calls: Iterable[Mapping[str, Any]]) -> None:
    """Append a `skill` record for every skill used among `calls` to the event log (`seen`: the
    engine's view of the event, `hook.engine._ToolCallsSeen`)."""
    used = skills_used(calls)
    if not used:
        return
    engine, event = seen.engine, seen.event
    root = seen.session_root()
    store = engine.event_store()
    for record in skill_records(
        used, session_id=event.session_id, root=root, cwd=event.cwd, channel=event.channel, agent=AGENT
    ):
        record.update({k: v for k, v in engine.ids.items() if k == "prompt_id"})
        store.append(record)
