"""Codex's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`); its payloads
are Claude-shaped (`hooks` describes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect

if TYPE_CHECKING:
    pass

# Codex's event names for each kind (`hook.event.parse_claude_shaped`).
KINDS = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "before_tool",
    "PostToolUse": "tools",
    "SubagentStart": "subagent",
}
# How long Codex lets one jitctx hook run (install writes it into each entry, `hooks`): a hook's output
# in the rollout was written within that long before its record (`evidence`).
TIMEOUT_S = 10


class CodexDialect(HookDialect):
    name = "codex"
    events = frozenset(KINDS)
    kinds = KINDS
    tools_module = "jitctx.clients.codex.tools"


DIALECT = CodexDialect()
