"""GitHub Copilot CLI as the engine and the views see it: its hook dialect, and what it loads by itself
(its instruction files at start, those above a file after its `view`; a sub-agent's by its type)
(`jitctx.clients.base.Client`)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.copilot_cli.dialect import CopilotCliDialect
from jitctx.clients.copilot_cli.profile import AGENTS_WITH_START_FILES, BARE_START, PROFILE

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.profiles import Profile

VIEW_TOOL = "view"  # the one tool after which Copilot CLI loads the instruction files above a file


class CopilotFollower(Follower):
    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        """Its `view` of a file loads the files above it; a `view` of a directory (a listing) does not."""
        if tool_name != VIEW_TOOL:
            return False
        path = tool_input.get("path")
        return isinstance(path, str) and bool(path) and not os.path.isdir(path)


class CopilotCli(CopilotCliDialect, Client):
    title = "GitHub Copilot CLI"
    program = "copilot"
    package = "@github/copilot"
    profile_module = "jitctx.clients.copilot_cli.profile"
    # Seen with 1.0.102: `--resume` rebuilds the conversation without the first sessionStart's context
    # (the resumed start's own answer takes its place), and without the client's own loads after a
    # view, which it makes again on the next view; the hooks' later contexts survive.
    resume_drops_start = True

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # An `.instructions.md` without `applyTo`, or with one for every file (`**`), it pastes whole
        # into the first request: found so, the hook leaves it to the client instead of skipping it as
        # a rule for on request, or sending it on a touch.
        return replace(
            every_format,
            unscoped_rules_load=PROFILE.unscoped_rules_load,
            whole_scopes=PROFILE.whole_scopes,
        )

    def at_subagent_start(self, agent_type: str, own: Profile) -> Profile:
        """A general-purpose sub-agent gets the start files as the main agent does; one of another type,
        or of no type given, none (a possible duplicate beats a lost rule)."""
        return own if agent_type in AGENTS_WITH_START_FILES else BARE_START

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return CopilotFollower()


CLIENT = CopilotCli()
