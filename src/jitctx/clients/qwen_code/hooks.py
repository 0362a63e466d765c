"""Qwen Code's hook payloads, and where jitctx's hooks are registered (its dialect is `dialect`).

Hook input, as JSON on stdin (Claude Code's field names): every event carries `session_id`,
`transcript_path`, `cwd`, `hook_event_name`, `timestamp` and `permission_mode`, and `agent_id` when it
fired inside a sub-agent:

    SessionStart        source: startup | resume | clear | compact; model
    UserPromptSubmit    prompt (also, empty, before each further model turn of a headless run)
    PreToolUse          tool_name, tool_input, tool_use_id, tool_call_id (before the call runs)
    PostToolUse         tool_name, tool_input, tool_response {llmContent, returnDisplay}, tool_use_id,
                        tool_call_id (the model's call id)
    InstructionsLoaded  file_path, memory_type (project | local | user | extension), load_reason

The answer is `{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`: a PostToolUse
context is appended to the tool's result, a SessionStart one to the system prompt (in a
`<qwen:session-start-context>` frame), a UserPromptSubmit one to the user's turn. To PreToolUse,
`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
"permissionDecisionReason": TEXT}}` holds a write back: 0.24.4 gives the model TEXT, verbatim, as the
call's result, and runs no PostToolUse for it.
Hooks are registered in `.qwen/settings.json` of the folder Qwen Code starts in (project) or in the user
settings (`~/.qwen/settings.json`, `$QWEN_HOME/settings.json`) as
`hooks: {EVENT: [{matcher, hooks: [{type: "command", command, timeout}]}]}`; `timeout` is in seconds
(a value of 1000 or more is still read as milliseconds), and a PostToolUse `matcher` of names joined by
`|` is a list of exact tool names (anything else, a regular expression).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from jitctx.clients.kit.settings_file import HookEntry
from jitctx.clients.qwen_code import tools
from jitctx.clients.qwen_code.settings import user_dir
from jitctx.touched.tools import held_tools

AGENT = "qwen-code"
TIMEOUT_S = 10
# The tools whose touched paths jitctx follows, in the PostToolUse matcher: its tool table's names.
TOOLS = tuple(tools.TOOLS)
# The calls that may write a file: its write tools and its shell (held back when their rules are not in
# context yet, DESIGN §2.11), in the tool table's order.
WRITE_MATCHER = "|".join(held_tools(tools.TOOLS, tools.WRITES))

ENTRIES: tuple[HookEntry, ...] = (
    HookEntry("SessionStart", None, TIMEOUT_S),
    HookEntry("UserPromptSubmit", None, TIMEOUT_S),
    HookEntry("PreToolUse", WRITE_MATCHER, TIMEOUT_S),
    HookEntry("PostToolUse", "|".join(TOOLS), TIMEOUT_S),
    HookEntry("InstructionsLoaded", None, TIMEOUT_S),
)

SCOPES = ("project", "user")


def settings_path(scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
    if scope == "user":
        return Path(user_dir(home, environ)) / "settings.json"
    return Path(root) / ".qwen" / "settings.json"
