"""Gemini CLI's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`), and from
its chat record whether a PreCompress really compacted (`compaction`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.clients.gemini_cli.compaction import compressed_since
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent

KINDS = {
    "AfterTool": "tools",
    "BeforeTool": "before_tool",
    "BeforeAgent": "prompt",
    "SessionStart": "start",
    # Fires before every model turn, compressing or not: the chat record tells (`compacted`).
    "PreCompress": "compact",
}


class GeminiCliDialect(HookDialect):
    name = "gemini-cli"
    aliases = ("gemini",)
    events = frozenset(KINDS)
    kinds = KINDS
    tools_module = "jitctx.clients.gemini_cli.tools"
    fast_lane = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        event = parse_claude_shaped(self, payload, self.kinds)
        if event.prompt and "<hook_context>" in event.prompt:
            # Headless, the SessionStart answer is prepended to the prompt: its `@imports` are not the
            # user's mentions.
            event.prompt = re.sub(r"<hook_context>.*?</hook_context>", "", event.prompt, flags=re.DOTALL)
        return event

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        return {"decision": "deny", "reason": reason}

    def compacted(self, transcript: object, since: int) -> bool | None:
        return compressed_since(transcript, since)


DIALECT = GeminiCliDialect()
