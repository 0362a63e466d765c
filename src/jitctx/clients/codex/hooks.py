"""Codex's hook payloads, and the entries that register jitctx's hooks (its dialect is `dialect`). Codex
finds AGENTS.md only from the root to the cwd, at start; this brings nested AGENTS.md files, the other
instruction formats and scoped rules on every edit and command.

Hook input (openai/codex, codex-rs/hooks/schema/generated/*.command.input.schema.json): every event carries
`session_id`, `transcript_path` (the thread's rollout, `rollout`), `cwd`, `hook_event_name`, `model`,
`permission_mode`:

    SessionStart      source: startup | resume | clear | compact (0.171.0: after every compaction)
    UserPromptSubmit  prompt, turn_id
    PreToolUse        tool_name, tool_input, tool_use_id, turn_id (before the call runs)
    PostToolUse       tool_name, tool_input, tool_response, tool_use_id, turn_id
    SubagentStart     agent_id (the sub-agent's thread id), agent_type, turn_id

Sub-agents (0.171.0, `[features] multi_agent_v2 = true`: the `collaboration` tools, `spawn_agent` among
them, which hooks see as `collaborationspawn_agent`): a sub-agent starts with SubagentStart, whose
context reaches the sub-agent alone, and fires no SessionStart or UserPromptSubmit of its own. Its tool
events carry `agent_id` and `agent_type` (the main thread's never do); `session_id` is the parent's in
all of them and `transcript_path` the sub-agent's own rollout. So jitctx keeps a sub-agent in its
parent's session, in a channel of its own (`agent_id`). Spawned with `fork_turns: "none"` the sub-agent
loads AGENTS.md itself, as a session's start does; with "all" (the default) it inherits the parent's
conversation instead, its AGENTS.md and hook contexts included.

Tool names in hook payloads are `Bash` (tool_input `{"command": "..."}`), `apply_patch` (tool_input
`{"command": PATCH}`) and `mcp__server__tool`. The answer has Claude Code's shape:
`{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`. To PreToolUse,
`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
"permissionDecisionReason": TEXT}}` holds a write back; 0.171.0 shows the model `Command blocked by
PreToolUse hook: TEXT. Command: COMMAND` as the call's output, and runs no PostToolUse for it. Its
answer schema allows no other field: a deny with one more top-level field is dropped, and the call runs.

Hooks are registered in `hooks.json` next to a config layer: `~/.codex/hooks.json` ($CODEX_HOME) for a
user, `<repo>/.codex/hooks.json` for a project, with the same `{hooks: {EVENT: [{matcher, hooks: [{type:
"command", command, timeout}]}]}}` shape (developers.openai.com/codex/hooks). Codex runs a new or changed
hook only after the user trusts it with `/hooks`.
"""

from __future__ import annotations

from pathlib import Path

from jitctx.clients.codex.dialect import TIMEOUT_S
from jitctx.clients.kit.settings_file import HookEntry

AGENT = "codex"
TOOL_MATCHER = "Bash|apply_patch"

ENTRIES: tuple[HookEntry, ...] = (
    HookEntry("SessionStart", "startup|resume|clear|compact", TIMEOUT_S),
    HookEntry("UserPromptSubmit", None, TIMEOUT_S),
    # Its shell and its patch tool, before the call (a write whose rules are not in context yet is held
    # back, DESIGN §2.11) and after it. 0.171.0 matches `exec_command` as `Bash`.
    HookEntry("PreToolUse", TOOL_MATCHER, TIMEOUT_S),
    HookEntry("PostToolUse", TOOL_MATCHER, TIMEOUT_S),
    # Every sub-agent, whatever its type: no matcher.
    HookEntry("SubagentStart", None, TIMEOUT_S),
)

SCOPES = ("project", "user")


def settings_path(scope: str, root: str, home: str, codex_home: str | None = None) -> Path:
    if scope == "user":
        return Path(codex_home) / "hooks.json" if codex_home else Path(home) / ".codex" / "hooks.json"
    return Path(root) / ".codex" / "hooks.json"
