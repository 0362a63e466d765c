"""Qwen Code's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its
payloads are Claude-shaped (`hooks` describes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect

if TYPE_CHECKING:
    pass

KINDS = {
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "UserPromptSubmit": "prompt",
    "SessionStart": "start",
    "InstructionsLoaded": "host_load",
}


class QwenCodeDialect(HookDialect):
    name = "qwen-code"
    aliases = ("qwen",)
    events = frozenset(KINDS)
    kinds = KINDS
    tools_module = "jitctx.clients.qwen_code.tools"
    fast_lane = True


DIALECT = QwenCodeDialect()
