"""Claude Code's hook payloads, and the settings entries that register jitctx's hooks (its dialect, what
jitctx reads of those payloads, is `dialect`).

Hook input (code.claude.com/docs/en/hooks), as JSON on stdin; every event carries `session_id`,
`transcript_path`, `cwd` and `hook_event_name`, and `agent_id` when it fired inside a sub-agent:

    SessionStart        source: startup | resume | clear | compact | fork
    UserPromptSubmit    prompt
    PreToolUse          tool_name, tool_input, tool_use_id (before the call runs)
    PostToolUse         tool_name, tool_input, tool_response, tool_use_id
    PostToolBatch       tool_calls: [{tool_name, tool_input, tool_use_id, tool_response?}]
    SubagentStart       agent_id, agent_type
    InstructionsLoaded  file_path, memory_type, load_reason, globs, trigger_file_path, parent_file_path

The answer is `{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`, or `{}`;
to PreToolUse, `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
"permissionDecisionReason": TEXT}}` holds a write back (the model reads TEXT as the call's result).
PostToolBatch fires once after every call of a batch of parallel tool calls resolved, so jitctx answers a
batch once (PostToolUse stays understood, for settings written before). SubagentStart's additionalContext
goes into the sub-agent's own context.
Hooks are registered in settings.json (`.claude/settings.json` for a project, `.claude/settings.local.json`
for a project but not committed, `~/.claude/settings.json` for a user) as
`hooks: {EVENT: [{matcher, hooks: [{type: "command", command, timeout}]}]}`; `timeout` is in seconds.
"""

from __future__ import annotations

from pathlib import Path

from jitctx.clients.claude_code import tools
from jitctx.clients.kit.mcp_transport import MCP_EVENTS
from jitctx.clients.kit.settings_file import HookEntry
from jitctx.touched.tools import held_tools

AGENT = "claude-code"

# The Claude Code tools whose paths jitctx follows: its tool table's names.
TOOLS = tuple(tools.TOOLS)
TIMEOUT_S = 10

# The calls that may write a file: its write tools and its shell (held back when their rules are not in
# context yet, DESIGN §2.11).
WRITE_MATCHER = "|".join(held_tools(tools.TOOLS, tools.WRITES))

ENTRIES: tuple[HookEntry, ...] = (
    HookEntry("SessionStart", "startup|resume|clear|compact|fork", TIMEOUT_S),
    HookEntry("PreToolUse", WRITE_MATCHER, TIMEOUT_S),
    HookEntry("UserPromptSubmit", None, TIMEOUT_S),
    HookEntry("PostToolBatch", None, TIMEOUT_S),
    HookEntry("SubagentStart", None, TIMEOUT_S),
    HookEntry("InstructionsLoaded", None, TIMEOUT_S),
)
# `install claude-code --transport mcp`: the events an mcp_tool hook can answer go to the running
# `jitctx mcp` server (its `hook_event` tool); SessionStart and InstructionsLoaded stay commands.
MCP_ENTRIES: tuple[HookEntry, ...] = tuple(entry._replace(mcp=entry.event in MCP_EVENTS) for entry in ENTRIES)

SCOPES = ("project", "local", "user")


def settings_path(scope: str, root: str, home: str) -> Path:
    """The settings file of a scope: the project's, the project's uncommitted one, or the user's."""
    if scope == "user":
        return Path(home) / ".claude" / "settings.json"
    name = "settings.local.json" if scope == "local" else "settings.json"
    return Path(root) / ".claude" / name
