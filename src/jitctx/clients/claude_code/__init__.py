"""Claude Code (npm `@anthropic-ai/claude-code`): hooks in `.claude/settings*.json` and
`~/.claude/settings.json`; loads nested CLAUDE.md files and `.claude/rules` by itself after the calls its
release follows (`release`), reports its own loads through InstructionsLoaded, forks sessions.

This module is the client as its hook events see it; the other modules of this folder: `profile` (what
it reads), `tools`, `release` and `transcript` (what the release in use follows, read from the
transcript), `evidence`, `drift`, `skill_use` (Skill tool telemetry); and for install and doctor only,
`setup` (its `Setup`), `hooks` (install entries, settings places), `doctor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.claude_code.process_release import release_of_process
from jitctx.clients.claude_code.release import shell_read_by_client, tool_loads_nested
from jitctx.clients.claude_code.transcript import forked_from as transcript_forked_from
from jitctx.clients.claude_code.transcript import release_of
from jitctx.clients.kit.mcp_transport import hook_payload

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from jitctx.clients.claude_code.transcript import Release
    from jitctx.clients.kit.transcript_drift import SessionDrift
    from jitctx.profiles import Profile


WRITING_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})


class ClaudeFollower(Follower):
    """What the release that sent the event loads by itself: nested files after Read always; after
    Write, Edit, `@path` and one-file shell reads in newer releases. The release is read lazily, once:
    from the transcript, else from the client process above the hook (the transcript may not exist yet
    at the first tool call); unknown, the oldest behaviour is assumed, so that uncertainty costs a
    possible duplicate, never a lost rule."""

    def __init__(self, transcript: object, origin_pid: int | None = None) -> None:
        self.transcript = transcript
        self.origin_pid = origin_pid
        self._release: Any = ()  # () is "not read yet"

    @property
    def release(self) -> Release | None:
        if self._release == ():
            self._release = release_of(self.transcript)
            if self._release is None and self.origin_pid is not None:
                self._release = release_of_process(self.origin_pid)
        release: Release | None = self._release
        return release

    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        if tool_name == "Read":
            return True
        return tool_loads_nested(tool_name, self.release)

    def shell_read(self, tool_name: str, tool_input: Mapping[str, Any], cwd: str) -> str | None:
        if tool_name != "Bash":
            return None
        return shell_read_by_client(tool_input.get("command"), cwd, self.release)

    def leaves_written(self, tool_name: str) -> bool:
        # Seen with 2.1.332: a CLAUDE.md the model wrote or edited is "current in your context" for the
        # client, which never loads it as memory, then or after later reads there.
        return tool_name in WRITING_TOOLS

    def follows_mentions(self) -> bool:
        # Both releases attach a file named by `@path` and load its nested files (seen against the real
        # 2.1.197 and 2.1.332: the prompt's nested CLAUDE.md arrives as the client's own system message).
        return True


class ClaudeCode(Client):
    name = "claude-code"
    title = "Claude Code"
    program = "claude"
    package = "@anthropic-ai/claude-code"
    events = frozenset(
        {
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PostToolBatch",
            "SubagentStart",
            "InstructionsLoaded",
        }
    )
    profile_module = "jitctx.clients.claude_code.profile"
    tools_module = "jitctx.clients.claude_code.tools"
    fast_lane = True
    recorded_tools = frozenset({"Skill"})
    preload = (
        "jitctx.clients.claude_code.release",
        "jitctx.clients.claude_code.skill_use",
        "jitctx.clients.claude_code.transcript",
    )

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # A nested CLAUDE.md loads whatever its `paths:` say, or jitctx would skip it where Claude Code
        # loads it, and send it again later. Globs need nothing here: each rules folder's are matched
        # as its format's agent matches them (`.claude/rules` as Claude Code does), whoever receives it.
        from dataclasses import replace

        from jitctx.clients.claude_code.profile import OWN_FILES

        return replace(every_format, unscoped_files=OWN_FILES)

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        from jitctx.clients.claude_code.agents_md import mode_in_force, profile_for

        release = follower.release if isinstance(follower, ClaudeFollower) else None
        return profile_for(mode_in_force(home, release=release), self.profile())

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return ClaudeFollower(transcript, origin_pid)

    def forked_from(self, transcript: object, session_id: str) -> str | None:
        return transcript_forked_from(transcript, session_id)

    def delivered(self, transcript: object) -> Any:
        from jitctx.clients.claude_code.evidence import delivered

        return delivered(transcript)

    def drift(
        self,
        session_id: str,
        root: str,
        host_loaded: Sequence[str],
        home: str | None,
        environ: Mapping[str, str],
    ) -> SessionDrift | None:
        from jitctx.clients.claude_code.drift import session_drift

        return session_drift(session_id, root, host_loaded, home, environ)

    def transcript_names(self, transcript: object) -> frozenset[str] | None:
        from jitctx.clients.claude_code.evidence import names_shown

        return names_shown(transcript)

    def after_tool_calls(self, context: Any, calls: Sequence[Mapping[str, Any]]) -> None:
        from jitctx.clients.claude_code.skill_use import record_skill_uses

        record_skill_uses(context, calls)

    def mcp_payload(self, fields: dict[str, Any]) -> dict[str, Any]:
        return hook_payload(fields)


CLIENT = ClaudeCode()
