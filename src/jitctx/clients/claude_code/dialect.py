"""Claude Code's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its
payloads are the Claude-shaped ones `jitctx.hook.event` reads."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.clients.kit.mcp_transport import hook_payload
from jitctx.hook.event import BEFORE_TOOL, HOST_LOAD, PROMPT, START, SUBAGENT, TOOLS

if TYPE_CHECKING:
    from typing import Any


# Its event names for each kind.
KINDS = MappingProxyType(
    {
        "PostToolUse": TOOLS,
        "PostToolBatch": TOOLS,  # the calls of one turn, as a `tool_calls` list
        "PreToolUse": BEFORE_TOOL,
        "UserPromptSubmit": PROMPT,
        "SessionStart": START,
        "SubagentStart": SUBAGENT,
        "InstructionsLoaded": HOST_LOAD,
    }
)


class ClaudeCodeDialect(HookDialect):
    name = "claude-code"
    events = frozenset(KINDS)
    kinds = KINDS
    batch_events = frozenset({"PostToolBatch"})
    tools_module = "jitctx.clients.claude_code.tools"
    fast_lane = True
    recorded_tools = frozenset({"Skill"})
    transports = ("command", "mcp")

    def mcp_payload(self, fields: dict[str, Any]) -> dict[str, Any]:
        return hook_payload(fields)


DIALECT = ClaudeCodeDialect()
