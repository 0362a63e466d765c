"""GitHub Copilot CLI's hook dialect: its payloads read as the Claude-shaped ones jitctx parses.

Hook input, as camelCase JSON on stdin (1.0.102), without the event's name: every event carries
`sessionId`, `timestamp` (epoch milliseconds) and `cwd`:

    sessionStart          source ("new", "resume"), initialPrompt
    userPromptSubmitted   prompt
    preToolUse            toolName, toolArgs (before the call runs; no call id)
    postToolUse           toolName, toolArgs, toolResult {resultType, textResultForLlm}
    preCompact            trigger ("auto": the prompt neared its limit; "manual": `/compact`),
                          customInstructions (the `/compact` focus text), transcriptPath
    subagentStart         agentId (the sub-agent's own id), agentName and agentType (its type:
                          "general-purpose", "explore", "task", ... or a custom agent's name),
                          parentAgentId, transcriptPath; sessionId is the parent's

A sub-agent's own events (its prompt, its tool calls, its agentStop) carry `agentId`, `agentType` and
`parentAgentId`, and its own id as `sessionId`; the main agent's carry none of the three. So jitctx keeps
a sub-agent's events in its parent's session (`parentAgentId`), in a channel of its own (`agentId`).

`toolArgs` is an object for a function tool and the raw text for a freeform one (apply_patch's patch);
a JSON string, as earlier releases are described to send, is decoded too. The answer is a top-level
`{"additionalContext": TEXT}`: a sessionStart context becomes a user message of its own, a
userPromptSubmitted one a `<system_reminder>` in the prompt, a postToolUse one is appended to the tool's
result ("Additional guidance from postToolUse hooks:"), a subagentStart one is put before the sub-agent's
first prompt. A preCompact answer reaches no model: compaction drops every context the hooks gave and
the client's own loads after a `view` (the system prompt, with the start files, is built again), and
neither sessionStart nor userPromptSubmitted fires after it in the same run, so what the session held
goes out with the next tool call's answer (`hook.event.COMPACT`). A preToolUse answer `{"permissionDecision":
"deny", "permissionDecisionReason": R}` stops the call: the model reads `Denied by preToolUse hook: R` as
its result, and postToolUse does not fire. A preToolUse hook that fails (exits non-zero, 127 for a
missing program too) denies the call as well (1.0.57: "preToolUse hook errors now deny the tool call"),
so every entry's command is written in the form that always exits 0 (`hook_command.fail_safe`).
Registered under the PascalCase names instead
(`PostToolUse`), the same hooks get Claude Code's payload with Claude Code's tool names (`Read` for a
view); jitctx registers the camelCase ones, whose tool names are the model's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from jitctx.hook.event import HookError

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

KINDS = {
    "sessionStart": "start",
    "userPromptSubmitted": "prompt",
    "preToolUse": "before_tool",
    "postToolUse": "tools",
    "preCompact": "compact",
    "subagentStart": "subagent",
}
# Copilot CLI calls a fresh session's start "new"; the engine's word for it is "startup".
SOURCES = {"new": "startup"}


def event_name(payload: Mapping[str, Any]) -> str:
    """Which event a payload is: it does not say, so its fields tell (each event has one of its own)."""
    named = payload.get("hookEventName")
    if isinstance(named, str) and named in KINDS:
        return named
    if "toolName" in payload:  # the call before it runs has no result yet
        return "postToolUse" if "toolResult" in payload else "preToolUse"
    if "prompt" in payload:
        return "userPromptSubmitted"
    if "trigger" in payload or "customInstructions" in payload:
        return "preCompact"
    # The other events of a sub-agent's that carry its agentId (subagentStop, its agentStop) say how it
    # stopped.
    if "agentId" in payload and "stopReason" not in payload and "response" not in payload:
        return "subagentStart"
    if "source" in payload or "initialPrompt" in payload:
        return "sessionStart"
    raise HookError(
        f"not a Copilot CLI {', '.join(KINDS)} payload (fields: {', '.join(sorted(payload)) or 'none'})"
    )


def tool_input(args: object) -> dict[str, Any]:
    """`toolArgs` as an object: a JSON text is decoded, other text is a freeform tool's input."""
    if isinstance(args, dict):
        return args
    if args is None:
        return {}
    if isinstance(args, str):
        try:
            decoded = json.loads(args)
        except ValueError:
            return {"input": args}  # apply_patch: the patch text itself
        return decoded if isinstance(decoded, dict) else {"input": args}
    raise HookError(f"toolArgs is a {type(args).__name__}, not an object or a string")


def _text(payload: Mapping[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def claude_shaped(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload under the field names `hook.event.parse_claude_shaped` reads, which checks them. A
    sub-agent's event goes to its parent's session (`parentAgentId`; its own `sessionId` is its own id),
    in the sub-agent's channel (`agentId`)."""
    name = event_name(payload)
    shaped: dict[str, Any] = {
        "hook_event_name": name,
        "session_id": payload.get("sessionId"),
        "cwd": payload.get("cwd"),
    }
    agent = _text(payload, "agentId")
    if agent is not None:
        shaped["agent_id"] = agent
        shaped["session_id"] = _text(payload, "parentAgentId") or payload.get("sessionId")
    if name in ("preToolUse", "postToolUse"):
        shaped["tool_name"] = payload.get("toolName")
        shaped["tool_input"] = tool_input(payload.get("toolArgs"))
        if name == "postToolUse":
            shaped["tool_response"] = payload.get("toolResult")
    elif name == "userPromptSubmitted":
        shaped["prompt"] = payload.get("prompt")
    elif name == "subagentStart":
        # Its type decides what the client gives it by itself (`CopilotCli.at_subagent_start`). Its
        # `transcriptPath`, the session's events.jsonl, is no evidence for a hook: 1.0.102 writes that
        # file only when it exits.
        shaped["agent_type"] = _text(payload, "agentType") or _text(payload, "agentName") or ""
    elif name == "sessionStart":
        source = payload.get("source")
        shaped["source"] = SOURCES.get(source, source) if isinstance(source, str) else "startup"
    return shaped
