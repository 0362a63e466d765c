"""Claude Code as the engine and the views see it: its hook dialect, what it loads by itself (per release,
read from its transcript or its process) and what its records show (`jitctx.clients.base.Client`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.claude_code.agents_md import mode_in_force, profile_for
from jitctx.clients.claude_code.dialect import ClaudeCodeDialect
from jitctx.clients.claude_code.evidence import delivered, names_shown
from jitctx.clients.claude_code.process_release import release_of_process
from jitctx.clients.claude_code.profile import OWN_FILES
from jitctx.clients.claude_code.release import shell_read_by_client, tool_loads_nested
from jitctx.clients.claude_code.skill_use import record_skill_uses
from jitctx.clients.claude_code.transcript import forked_from as transcript_forked_from
from jitctx.clients.claude_code.transcript import release_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from jitctx.clients.claude_code.transcript import Release
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


class ClaudeCode(ClaudeCodeDialect, Client):
    title = "Claude Code"
    program = "claude"
    package = "@anthropic-ai/claude-code"
    profile_module = "jitctx.clients.claude_code.profile"

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # A nested CLAUDE.md loads whatever its `paths:` say, or jitctx would skip it where Claude Code
        # loads it, and send it again later. Globs need nothing here: each rules folder's are matched
        # as its format's agent matches them (`.claude/rules` as Claude Code does), whoever receives it.
        return replace(every_format, unscoped_files=OWN_FILES)

    def host_profile(
        self, root: str, environ: Mapping[str, str], home: str | None, follower: Follower | None = None
    ) -> Profile:
        release = follower.release if isinstance(follower, ClaudeFollower) else None
        return profile_for(mode_in_force(home, release=release), self.profile())

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return ClaudeFollower(transcript, origin_pid)

    def forked_from(self, transcript: object, session_id: str) -> str | None:
        return transcript_forked_from(transcript, session_id)

    def delivered(self, transcript: object) -> Any:
        return delivered(transcript)

    def transcript_names(self, transcript: object) -> frozenset[str] | None:
        return names_shown(transcript)

    def after_tool_calls(self, context: Any, calls: Sequence[Mapping[str, Any]]) -> None:
        record_skill_uses(context, calls)


CLIENT = ClaudeCode()
