"""Gemini CLI's hook dialect and where its hooks are registered.

Hook input, as JSON on stdin (Claude Code's field names): every event carries `session_id`,
`transcript_path`, `cwd`, `hook_event_name` and `timestamp`:

    SessionStart   source: startup | resume | clear
    BeforeAgent    prompt (before the model sees the user's turn)
    AfterTool      tool_name, tool_input, tool_response

The answer is `{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`; an AfterTool
context is appended to the tool's result, a SessionStart or BeforeAgent one to the turn.
Hooks are registered in `.gemini/settings.json` (project) or `~/.gemini/settings.json` (user) as
`hooks: {EVENT: [{matcher, hooks: [{type: "command", command, timeout}]}]}`; `timeout` is in
milliseconds, and an AfterTool `matcher` is a regular expression on the tool name.
"""

from __future__ import annotations

from pathlib import Path

from jitctx.clients.settings_file import HookEntry

AGENT = "gemini-cli"
TIMEOUT_MS = 10_000
# The tools whose touched paths jitctx follows (each has a declaration in jitctx.touched.tools).
TOOLS = (
    "read_file",
    "read_many_files",
    "write_file",
    "replace",
    "list_directory",
    "glob",
    "grep_search",
    "search_file_content",
    "run_shell_command",
)

ENTRIES: tuple[HookEntry, ...] = (
    HookEntry("SessionStart", None, TIMEOUT_MS),
    HookEntry("BeforeAgent", None, TIMEOUT_MS),
    HookEntry("AfterTool", "|".join(TOOLS), TIMEOUT_MS),
)

SCOPES = ("project", "user")


def settings_path(scope: str, root: str, home: str) -> Path:
    if scope == "user":
        return Path(home) / ".gemini" / "settings.json"
    return Path(root) / ".gemini" / "settings.json"
