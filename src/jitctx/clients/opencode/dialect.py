"""OpenCode's hook dialect: the events jitctx's plugin hands over, its tools and the answers the plugin
reads (`jitctx.clients.base.HookDialect`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import HookDialect

if TYPE_CHECKING:
    from typing import Any


KINDS = {
    "tool.execute.before": "before_tool",
    "tool.execute.after": "tools",
    "session.start": "start",
    "subagent.start": "subagent",
}


class OpenCodeDialect(HookDialect):
    name = "opencode"
    events = frozenset(KINDS)
    kinds = KINDS
    tools_module = "jitctx.clients.opencode.tools"
    fast_lane = True

    def render_hold(self, event_name: str, reason: str) -> dict[str, Any]:
        return {"decision": "deny", "reason": reason}  # the plugin throws Error(reason)


DIALECT = OpenCodeDialect()
