"""Qwen Code's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its
payloads are Claude-shaped (`hooks` describes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent

KINDS = {
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "UserPromptSubmit": "prompt",
    "SessionStart": "start",
    "InstructionsLoaded": "host_load",
}


class QwenCodeDialect(HookDialect):
    name = "qwen-code"
    events = frozenset(KINDS)
    tools_module = "jitctx.clients.qwen_code.tools"
    fast_lane = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, payload, KINDS)


DIALECT = QwenCodeDialect()
