"""Scope keys an agent does not read: a rule scoped only by another tool's key loads everywhere.

Every format names its scope its own way (Claude Code `paths:`, Cursor `globs:`, Copilot `applyTo:`,
Kiro `fileMatchPattern:`), and an agent ignores the others' keys. A rule in `.claude/rules/` that says
only `globs:` (copied from Cursor) is unconditional for Claude Code: it loads at every session start,
whatever the globs say. Under `--agent X` only X is asked; under the default profile every agent that
reads the file is.
"""

from __future__ import annotations

from collections.abc import Iterable

from jitctx.frontmatter import scope_of, split_frontmatter
from jitctx.govern.findings import Finding, finding
from jitctx.govern.readers import profile_reads
from jitctx.govern.source import SourceLayout
from jitctx.model import InstructionFile
from jitctx.profiles import DEFAULT_PROFILE, PROFILES, SCOPE_KEYS, Profile
from jitctx.scope_fix import CURSOR, raw_globs, scope_line, style_for


def ignored_key_findings(
    file: InstructionFile, layout: SourceLayout, profile: Profile, root: str
) -> list[Finding]:
    """A finding when agents read this rule file but none of the scope keys it is written with."""
    if not file.from_rules_dir or layout.frontmatter_end == 0:
        return []
    data = split_frontmatter("\n".join(layout.lines)).data
    if not data:
        return []
    present = [key for key in SCOPE_KEYS if key in data]
    if not present:
        return []
    ignoring = [
        agent
        for agent in _readers(profile, file.display, root)
        if agent.scope_keys and not any(key in agent.scope_keys for key in present)
    ]
    if not ignoring:
        return []
    key = present[0]
    patterns = list(scope_of(data, (key,)).patterns) or raw_globs(layout.lines, layout.frontmatter_end, key)
    who = " or ".join(f"{a.name} (reads {', '.join(k + ':' for k in a.scope_keys)})" for a in ignoring)
    they = "it loads" if len(ignoring) == 1 else "they load"
    message = (
        f"'{key}:' is not a scope key for {who}, so {they} this rule at every session start "
        f"({file.body_bytes:,} bytes), not only for {_shown(patterns)}"
    )
    fixes: list[str] = []
    left = list(ignoring)
    while left:
        wanted = _most_read(left)
        served = [a for a in left if wanted in a.scope_keys]
        style = CURSOR if any(_reads_cursor(a) for a in served) else style_for(wanted)
        fixes.append(scope_line(wanted, patterns, style))
        left = [a for a in left if a not in served]
    if _others_read(key, ignoring, file.display, root):
        fix = f"add {' and '.join(fixes)}, and keep '{key}:' for the tools that read it"
    else:
        fix = f"write {' and '.join(fixes)} in place of '{key}:'"
    return [finding("scope-key-ignored", file.display, layout.key_line(key), message, fix)]


def _most_read(agents: list[Profile]) -> str:
    """The scope key most of `agents` read (ties: the first agent's order), so one line serves most."""
    keys = [k for a in agents for k in a.scope_keys]
    return max(dict.fromkeys(keys), key=keys.count)


def _readers(profile: Profile, display: str, root: str) -> Iterable[Profile]:
    if profile.name != DEFAULT_PROFILE:
        return [profile]
    return [p for p in PROFILES.values() if p.name != DEFAULT_PROFILE and profile_reads(p, display, root)]


def _reads_cursor(agent: Profile) -> bool:
    return any(folder.suffix == ".mdc" for folder in agent.rules_dirs)


def _others_read(key: str, ignoring: list[Profile], display: str, root: str) -> bool:
    """Does another agent read this same file by `key`? Then the key stays beside the new one."""
    names = {a.name for a in ignoring} | {DEFAULT_PROFILE}
    return any(
        key in other.scope_keys and profile_reads(other, display, root)
        for other in PROFILES.values()
        if other.name not in names
    )


def _shown(patterns: list[str]) -> str:
    if not patterns:
        return "the files it names"
    listed = ", ".join(patterns[:3])
    return listed + (f" and {len(patterns) - 3} more" if len(patterns) > 3 else "")
