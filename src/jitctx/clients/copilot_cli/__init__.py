"""GitHub Copilot CLI (npm `@github/copilot`): hooks under `hooks` in `.github/copilot/settings.json` and
`~/.copilot/settings.json`; the repository's run only in a folder the user trusts. It loads its
instruction files at start and, after its own `view` of a file, those above that file and the scoped
rules that match it.

Seen in 1.0.102, against a scripted model (Chat Completions): at start the system prompt holds
`~/.copilot/copilot-instructions.md`, `.github/copilot-instructions.md`, then AGENTS.md, CLAUDE.md and
GEMINI.md of each directory from the git root to the cwd, then the unscoped rules of
`~/.copilot/instructions/`, `.github/instructions/` and the root's `.claude/rules/` (subfolders too),
each with the files its `@path`s import; a scoped rule (`applyTo:`, or `paths:` in `.claude/rules`) is
only listed in a table of patterns. After a `view` of a file, a user message follows the tool result
with `Custom instructions from PATH` for each AGENTS.md, CLAUDE.md, GEMINI.md above the file and each
scoped rule matching it that the session has not had yet. A `view` of a directory, bash, rg/grep, glob,
create, edit and apply_patch load nothing. Not read at all: CLAUDE.local.md, `.claude/CLAUDE.md`,
`pkg/.claude/rules/`, `~/.claude/`, `~/.codex/`, `~/.gemini/`. A hook's `additionalContext` reaches the
model, and a preToolUse deny stops a call with its reason as the call's result (`hooks`): so jitctx holds
back a write whose rules are not in context (DESIGN §2.11). In `-p` mode the repository's hooks load only
when the folder is trusted (`trustedFolders` in `~/.copilot/config.json`, `--trust-folder`,
`COPILOT_ALLOW_ALL=true`) or with `GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true`; the repository's settings
are found from a subfolder too, and user hooks need no trust.

Compaction (1.0.102): `preCompact` fires before it, and its answer reaches no model; the compacted
conversation keeps the system prompt (rebuilt, with the start files) and the calls made since, and drops
every hook's context and the client's loads after a view. So jitctx notes the compaction and the next
tool call's answer carries what the session held (`event.COMPACT`). Sub-agents (its `task` tool):
`subagentStart`'s answer is put before the sub-agent's first prompt; a general-purpose sub-agent gets the
start files in its system prompt as the main agent does, one of another type gets none; every type loads
the files above a file after its own view. A sub-agent's events carry its own id, and jitctx keeps them
in a channel of their own in the parent's session (`hooks.claude_shaped`). What the client loaded is
written to `~/.copilot/session-state/ID/events.jsonl` only when it exits: no hook can read it as evidence.

This module is the client as its hook events see it; the other modules of this folder: `profile`,
`tools`, `events` (its payloads); and for install and doctor only, `setup` (its `Setup`), `hooks`
(install entries, settings places), `settings` (trust and the switch that turns hooks off), `doctor`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from jitctx.clients.base import Client, Follower
from jitctx.clients.copilot_cli.events import KINDS, claude_shaped
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent
    from jitctx.profiles import Profile

VIEW_TOOL = "view"  # the one tool after which Copilot CLI loads the instruction files above a file


class CopilotFollower(Follower):
    def follows(self, tool_name: str, tool_input: Mapping[str, Any]) -> bool:
        """Its `view` of a file loads the files above it; a `view` of a directory (a listing) does not."""
        if tool_name != VIEW_TOOL:
            return False
        path = tool_input.get("path")
        return isinstance(path, str) and bool(path) and not os.path.isdir(path)


class CopilotCli(Client):
    name = "copilot-cli"
    title = "GitHub Copilot CLI"
    program = "copilot"
    package = "@github/copilot"
    events = frozenset(
        {"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "preCompact", "subagentStart"}
    )
    profile_module = "jitctx.clients.copilot_cli.profile"
    tools_module = "jitctx.clients.copilot_cli.tools"
    fast_lane = True
    # Seen with 1.0.102: `--resume` rebuilds the conversation without the first sessionStart's context
    # (the resumed start's own answer takes its place), and without the client's own loads after a
    # view, which it makes again on the next view; the hooks' later contexts survive.
    resume_drops_start = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, claude_shaped(payload), KINDS)

    def discovery_profile(
        self, every_format: Profile, root: str, environ: Mapping[str, str], home: str | None
    ) -> Profile:
        # An `.instructions.md` without `applyTo`, or with one for every file (`**`), it pastes whole
        # into the first request: found so, the hook leaves it to the client instead of skipping it as
        # a rule for on request, or sending it on a touch.
        from dataclasses import replace

        from jitctx.clients.copilot_cli.profile import PROFILE

        return replace(
            every_format,
            unscoped_rules_load=PROFILE.unscoped_rules_load,
            whole_scopes=PROFILE.whole_scopes,
        )

    def at_subagent_start(self, agent_type: str, own: Profile) -> Profile:
        """A general-purpose sub-agent gets the start files as the main agent does; one of another type,
        or of no type given, none (a possible duplicate beats a lost rule)."""
        from jitctx.clients.copilot_cli.profile import AGENTS_WITH_START_FILES, BARE_START

        return own if agent_type in AGENTS_WITH_START_FILES else BARE_START

    def render(self, event_name: str, text: str) -> dict[str, Any]:
        return {"additionalContext": text} if text else {}

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        return {"permissionDecision": "deny", "permissionDecisionReason": reason}

    def follower(self, transcript: object, cwd: str, origin_pid: int | None = None) -> Follower:
        return CopilotFollower()


CLIENT = CopilotCli()
