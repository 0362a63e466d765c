"""Codex's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its payloads
are Claude-shaped (`hooks` describes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent

# Codex's event names for each kind (`event.parse_claude_shaped`).
KINDS = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "SubagentStart": "subagent",
}


class CodexDialect(HookDialect):
    name = "codex"
    events = frozenset(KINDS)
    tools_module = "jitctx.clients.codex.tools"

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, payload, KINDS)


DIALECT = CodexDialect()
