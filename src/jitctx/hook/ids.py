"""The ids a hook event carries of the prompt and the tool calls it belongs to, kept on its records so
that exported telemetry joins the client's own (`prompt.id`, `gen_ai.tool.call.id`).

Imports nothing: the hook's fast lane uses it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def hook_ids(payload: Mapping[str, Any]) -> dict[str, Any]:
    """`prompt_id` (Claude Code sends it from UserPromptSubmit on), and the call's `tool_use_id`; a batch
    of several calls gives `tool_use_ids`, in call order."""
    ids: dict[str, Any] = {}
    prompt = payload.get("prompt_id")
    if isinstance(prompt, str) and prompt:
        ids["prompt_id"] = prompt
    batch = payload.get("tool_calls")
    calls = batch if isinstance(batch, list) else [payload]
    tool_ids = [
        call["tool_use_id"]
        for call in calls
        if isinstance(call, dict) and isinstance(call.get("tool_use_id"), str) and call["tool_use_id"]
    ]
    if len(tool_ids) == 1:
        ids["tool_use_id"] = tool_ids[0]
    elif tool_ids:
        ids["tool_use_ids"] = tool_ids
    return ids
