"""Gemini CLI's hook payloads, and where jitctx's hooks are registered (its dialect is `dialect`).

Hook input, as JSON on stdin (Claude Code's field names): every event carries `session_id`,
`transcript_path`, `cwd`, `hook_event_name` and `timestamp`:

    SessionStart   source: startup | resume | clear
    BeforeAgent    prompt (before the model sees the user's turn)
    BeforeTool     tool_name, tool_input (before the call runs; no call id)
    AfterTool      tool_name, tool_input, tool_response
    PreCompress    trigger: auto | manual (before every model turn, whether it then compresses or not;
                   its answer reaches no model)

The answer is `{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`; an AfterTool
context is appended to the tool's result, a SessionStart or BeforeAgent one to the turn. A BeforeTool
answer `{"decision": "deny", "reason": R}` stops the call: the model gets `{"error": "Tool execution
blocked: R"}` as its result, and AfterTool does not fire (0.61.0; Claude Code's `permissionDecision` is
ignored there).

Hooks are registered in `.gemini/settings.json` (project) or `~/.gemini/settings.json` (user) as
`hooks: {EVENT: [{matcher, hooks: [{type: "command", command, timeout}]}]}`; `timeout` is in
milliseconds, and a tool event's `matcher` is a regular expression tested against the tool name
anywhere in it (unanchored). Gemini CLI takes a hook that exits with a code other than 0 or 1 for a deny
(of the prompt, of the call) with its stderr as the reason: every entry's command is written in the form
that always exits 0 (`hook_command.fail_safe`).
"""

from __future__ import annotations

from pathlib import Path

from jitctx.clients.gemini_cli import tools
from jitctx.clients.kit.settings_file import HookEntry
from jitctx.touched.tools import held_tools

AGENT = "gemini-cli"
TIMEOUT_MS = 10_000
# The tools whose touched paths jitctx follows, in the AfterTool matcher: its tool table's names.
TOOLS = tuple(tools.TOOLS)

# The calls that may write, before they run: the file tools that write and the shell. Anchored, since
# Gemini CLI's matcher is found anywhere in a name (an MCP tool `mcp_x_write_file` is not ours to hold).
HOLD_TOOLS = held_tools(tools.TOOLS, tools.WRITES)
HOLD_MATCHER = f"^({'|'.join(HOLD_TOOLS)})$"

ENTRIES: tuple[HookEntry, ...] = (
    HookEntry("SessionStart", None, TIMEOUT_MS, fails_closed=True),
    HookEntry("BeforeAgent", None, TIMEOUT_MS, fails_closed=True),
    HookEntry("BeforeTool", HOLD_MATCHER, TIMEOUT_MS, fails_closed=True),
    HookEntry("AfterTool", "|".join(TOOLS), TIMEOUT_MS, fails_closed=True),
    # Before every model turn; jitctx marks the session, and the next AfterTool or BeforeAgent carries
    # what a compression dropped, once the chat record shows one (`compaction`).
    HookEntry("PreCompress", None, TIMEOUT_MS, fails_closed=True),
)

SCOPES = ("project", "user")


def settings_path(scope: str, root: str, home: str) -> Path:
    if scope == "user":
        return Path(home) / ".gemini" / "settings.json"
    return Path(root) / ".gemini" / "settings.json"
