"""OpenCode's hook payloads, as the plugin jitctx installs (`jitctx_plugin.js`) hands them over, and
where that plugin goes (its dialect is `dialect`).

OpenCode runs no hook commands; it loads plugins from `plugins/*.{js,ts}` (and `plugin/`) of each of its
config folders: `.opencode/` of the directories from the cwd up to the worktree, and
`~/.config/opencode/` (`$XDG_CONFIG_HOME/opencode/`). jitctx's plugin turns three of its hooks into
Claude-shaped payloads for `jitctx hook opencode` (JSON on stdin, fields `session_id`, `cwd`,
`hook_event_name`):

    session.start        source: startup | resume | compact   (from experimental.chat.system.transform,
                         on the session's first model request in this process, and after a compaction)
    subagent.start       agent_id (the child session's id): a sub-agent's first model request, in a
                         child session this process created (`task`); session_id is the parent's. After
                         the child's compaction, again with `agent_id` CHILD#N (a fresh channel)
    tool.execute.before  tool_name, tool_input (the call's args), tool_use_id; asked only for the tools
                         that may write (`HOLD_TOOLS`)
    tool.execute.after   tool_name, tool_input (the call's args), tool_use_id, tool_response:
                         {loaded: [...]} (the instruction files OpenCode's read tool attached itself)

A tool call of a sub-agent carries `agent_id` as its start did, and the parent's `session_id`.

The answer is `{"hookSpecificOutput": {"additionalContext": TEXT}}`; the plugin appends TEXT to the
tool's output, or keeps the start answer in the session's system prompt. Before a call, the answer
`{"decision": "deny", "reason": R}` makes the plugin throw `Error(R)`: the call does not run, the model
reads R as its result, and tool.execute.after is not called (1.18.33). Any other answer, a failure or a
timeout of the hook lets the call run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from jitctx.clients.kit.settings_file import HookEntry
from jitctx.clients.opencode import tools
from jitctx.clients.opencode.loading import config_home
from jitctx.touched.tools import held_tools

START = "session.start"
SUBAGENT_START = "subagent.start"
TOOL_BEFORE = "tool.execute.before"
TOOL_AFTER = "tool.execute.after"
TIMEOUT_MS = 10_000  # the plugin's own limit on one `jitctx hook` (it then leaves the output alone)
PLUGIN_NAME = "jitctx.js"
# The calls that may write, which the plugin asks about before they run: the file tools that write and
# the shell (the plugin's own matcher, written into it by `plugin.render`).
HOLD_TOOLS = held_tools(tools.TOOLS, tools.WRITES)

# What the plugin hands over, as entries (the install table and doctor list them like hooks).
ENTRIES: tuple[HookEntry, ...] = (
    HookEntry(START, None, TIMEOUT_MS),
    HookEntry(SUBAGENT_START, None, TIMEOUT_MS),
    HookEntry(TOOL_BEFORE, "|".join(HOLD_TOOLS), TIMEOUT_MS),
    HookEntry(TOOL_AFTER, None, TIMEOUT_MS),
)

SCOPES = ("project", "user")


def plugin_path(scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
    if scope == "user":
        return config_home(home, environ) / "plugins" / PLUGIN_NAME
    return Path(root) / ".opencode" / "plugins" / PLUGIN_NAME
