"""GitHub Copilot CLI's hook dialect: its events, tools and answers (`jitctx.clients.base.HookDialect`);
its payloads are read as Claude-shaped ones (`events`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect
from jitctx.clients.copilot_cli.events import KINDS, claude_shaped
from jitctx.hook.event import parse_claude_shaped

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from jitctx.hook.event import HookEvent


class CopilotCliDialect(HookDialect):
    name = "copilot-cli"
    events = frozenset(KINDS)
    kinds = KINDS
    tools_module = "jitctx.clients.copilot_cli.tools"
    fast_lane = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        return parse_claude_shaped(self, claude_shaped(payload), self.kinds)

    def render(self, event_name: str, text: str) -> dict[str, Any]:
        return {"additionalContext": text} if text else {}

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        return {"permissionDecision": "deny", "permissionDecisionReason": reason}


DIALECT = CopilotCliDialect()
