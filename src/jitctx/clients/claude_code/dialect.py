"""Claude Code's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its
payloads are the Claude-shaped ones `jitctx.hook.event` reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.clients.kit.mcp_transport import hook_payload

if TYPE_CHECKING:
    from typing import Any


class ClaudeCodeDialect(HookDialect):
    name = "claude-code"
    events = frozenset(
        {
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PostToolBatch",
            "SubagentStart",
            "InstructionsLoaded",
        }
    )
    tools_module = "jitctx.clients.claude_code.tools"
    fast_lane = True
    recorded_tools = frozenset({"Skill"})

    def mcp_payload(self, fields: dict[str, Any]) -> dict[str, Any]:
        return hook_payload(fields)


DIALECT = ClaudeCodeDialect()
