"""GitHub Copilot CLI's hook dialect and where its hooks are registered.

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
goes out with the next tool call's answer (`event.COMPACT`). A preToolUse answer `{"permissionDecision":
"deny", "permissionDecisionReason": R}` stops the call: the model reads `Denied by preToolUse hook: R` as
its result, and postToolUse does not fire. A preToolUse hook that fails (exits non-zero, 127 for a
missing program too) denies the call as well (1.0.57: "preToolUse hook errors now deny the tool call"),
so every entry's command is written in the form that always exits 0 (`hook_command.fail_safe`).
Registered under the PascalCase names instead
(`PostToolUse`), the same hooks get Claude Code's payload with Claude Code's tool names (`Read` for a
view); jitctx registers the camelCase ones, whose tool names are the model's.

Hooks are registered under `hooks` in a settings file, keyed by event, in the same groups as Claude
Code's (`{hooks: [{type: "command", command, timeout}]}`, `timeout` in seconds): the repository's
`.github/copilot/settings.json` (project) or `~/.copilot/settings.json` (user, `$COPILOT_HOME` moves it).
Copilot CLI also reads `.github/hooks/*.json` (`{"version": 1, "hooks": ...}`); the settings files take
the same `hooks` without a version, so jitctx's entries sit beside the user's other settings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from jitctx.clients.copilot_cli import tools
from jitctx.clients.event import HookError
from jitctx.clients.kit.settings_file import HookEntry
from jitctx.touched.tools import held_tools

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
TIMEOUT_S = 30
# The calls that may write, before they run: the file tools that write and the shell. Copilot CLI runs a
# preToolUse hook with a matcher only for the tool names that match all of it (1.0.36).
HOLD_TOOLS = held_tools(tools.TOOLS, tools.WRITES)
HOLD_MATCHER = f"^({'|'.join(HOLD_TOOLS)})$"
# No matcher after the call: the postToolUse payload names the tool by its own name, and jitctx's fast
# lane answers a call that touches nothing at once.
ENTRIES: tuple[HookEntry, ...] = tuple(
    HookEntry(event, HOLD_MATCHER if event == "preToolUse" else None, TIMEOUT_S, fails_closed=True)
    for event in KINDS
)
# Copilot CLI calls a fresh session's start "new"; the engine's word for it is "startup".
SOURCES = {"new": "startup"}


def settings_path(scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
    if scope == "user":
        return config_home(home, environ) / "settings.json"
    return Path(root) / ".github" / "copilot" / "settings.json"


def config_home(home: str, environ: Mapping[str, str]) -> Path:
    """Where Copilot CLI keeps its user configuration: $COPILOT_HOME, else ~/.copilot."""
    explicit = environ.get("COPILOT_HOME")
    return Path(explicit) if explicit else Path(home) / ".copilot"


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
    """The payload under the field names `event.parse_claude_shaped` reads, which checks them. A
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
