"""What a live client's tool call touches, by the client's own tool names (the public `affected_paths`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jitctx.clients.all_clients import choices, get
from jitctx.errors import UsageError
from jitctx.touched.calls import affected_paths as touched


def affected_paths(
    tool_name: str, tool_input: Mapping[str, Any], client: str | None = None
) -> tuple[str, ...]:
    """The paths a tool call touches (`jitctx.affected_paths`): `client` names a live client (or an alias),
    whose own tool names and fields are read (`affected_paths("view", {"path": p}, client="copilot-cli")`);
    without one, any name jitctx knows: the generic ones, then each live client's. Unknown tools touch
    nothing; an unknown client is a UsageError."""

    if client is None:
        return touched(tool_name, tool_input)
    try:
        tools = get(client).tools()
    except KeyError:
        raise UsageError(f"unknown client {client!r}; choose one of: {', '.join(choices())}") from None
    return touched(tool_name, tool_input, tools)
