"""One hook event in jitctx's own terms, whichever client sent it.

A client's `parse` turns its payload into a `HookEvent`; the fast lane and the engine read only that, so
a payload is parsed once per event and both answer the same question. `parse_claude_shaped` reads the
dialect most clients share (Claude Code's field names: `hook_event_name`, `session_id`, `cwd`,
`tool_name`, `tool_input`, `agent_id`), given which of the client's event names mean what.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


class Dialect(Protocol):
    """What parsing asks of a client's hook dialect (`jitctx.clients.base.HookDialect`): this module
    imports no client, since every client imports it."""

    name: str
    events: frozenset[str]

    def parse(self, payload: Mapping[str, Any]) -> HookEvent: ...


# What an event asks of jitctx.
TOOLS = "tools"  # tool calls ran: discover for the paths they touched
BEFORE_TOOL = "before_tool"  # a tool call is about to run: hold back a write whose rules are not in context
PROMPT = "prompt"  # the user sent a prompt: its `@path`s are touches
START = "start"  # a session (re)started: startup loading
SUBAGENT = "subagent"  # a sub-agent started with a fresh context: its own startup loading
# The client is compacting its context, and its answer to this event reaches no model: what the channel
# held goes again with the next event whose answer does (a tool result, a prompt).
COMPACT = "compact"
HOST_LOAD = "host_load"  # the client reports a file it loaded itself: recorded, never answered


class HookError(Exception):
    """The event cannot be answered (malformed payload, unknown event); logged, answered with `{}`."""


class HookEvent:
    """One event: `name` is the client's own event name (the answer names it), `kind` what it asks."""

    __slots__ = (
        "agent_type",
        "calls",
        "channel",
        "cwd",
        "kind",
        "name",
        "payload",
        "prompt",
        "session_id",
        "source",
    )

    def __init__(
        self,
        name: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        session_id: str = "",
        cwd: str = "",
        channel: str = "main",
        calls: list[Mapping[str, Any]] | None = None,
        prompt: str = "",
        source: str = "startup",
        agent_type: str = "",
    ) -> None:
        self.name = name
        self.kind = kind
        self.payload = payload
        self.session_id = session_id
        self.cwd = cwd
        self.channel = channel
        # Each call in the Claude shape: {"tool_name": str, "tool_input": object, "tool_use_id"?: str}.
        self.calls = calls if calls is not None else []
        self.prompt = prompt
        self.source = source
        # A SUBAGENT event's sub-agent type, as the client names it ("" when it does not say): what the
        # client gives the sub-agent by itself may depend on it (`OwnLoading.at_subagent_start`).
        self.agent_type = agent_type

    @property
    def transcript(self) -> object:
        return self.payload.get("transcript_path")

    def __repr__(self) -> str:
        return (
            f"HookEvent({self.name!r}, {self.kind!r}, session={self.session_id!r}, calls={len(self.calls)})"
        )


def text_field(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise HookError(f"hook event has no {key!r} string (got {type(value).__name__})")
    return value


def parse_claude_shaped(
    client: Dialect,
    payload: Mapping[str, Any],
    kinds: Mapping[str, str],
    batches: frozenset[str] = frozenset(),
) -> HookEvent:
    """A payload with Claude Code's field names; `kinds` maps the client's event names to kinds, and
    `batches` names the tool events that carry their calls as a `tool_calls` list."""
    name = text_field(payload, "hook_event_name")
    kind = kinds.get(name)
    if kind is None or name not in client.events:
        raise HookError(f"unknown hook event {name!r} for {client.name}")
    if kind == HOST_LOAD:
        return HookEvent(name, kind, payload)
    session_id = text_field(payload, "session_id")
    # The shell's current directory when the event fired: after a `cd`, or a Codex exec's `workdir`, it is
    # not where the session started. It only places this call's relative paths.
    cwd = text_field(payload, "cwd")

    if not os.path.isabs(cwd) or not os.path.isdir(cwd):
        raise HookError(f"hook event cwd {cwd!r} is not an existing absolute directory")
    agent_id = payload.get("agent_id")
    channel = agent_id if isinstance(agent_id, str) and agent_id else "main"
    event = HookEvent(name, kind, payload, session_id=session_id, cwd=cwd, channel=channel)
    if kind in (TOOLS, BEFORE_TOOL):
        batch = payload.get("tool_calls")
        if name in batches:
            if not isinstance(batch, list) or not all(isinstance(call, dict) for call in batch):
                raise HookError(f"{name} event has no 'tool_calls' list of objects")
            event.calls = batch
        else:
            event.calls = [payload]
        for call in event.calls:
            tool_name = text_field(call, "tool_name")
            if not isinstance(call.get("tool_input"), dict):
                kind_of = type(call.get("tool_input")).__name__
                raise HookError(f"{tool_name} tool_input is a {kind_of}, not an object")
    elif kind == PROMPT:
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookError(f"{name} event has no 'prompt' string")
        event.prompt = prompt
    elif kind == START:
        source = payload.get("source")
        event.source = source if isinstance(source, str) else "startup"
    elif kind == SUBAGENT:
        if channel == "main":
            raise HookError(f"{name} event has no 'agent_id' string")
        agent_type = payload.get("agent_type")
        event.agent_type = agent_type if isinstance(agent_type, str) else ""
    return event


def parse_raw(client: Dialect, raw: bytes | str | None) -> HookEvent:
    """The client's canonical event for one raw payload (JSON bytes or text); HookError when it is none."""

    payload = json.loads(raw) if raw and raw.strip() else None
    if not isinstance(payload, dict):
        what = "empty input" if payload is None else f"a JSON {type(payload).__name__}"
        raise HookError(f"expected one hook event as a JSON object on stdin, got {what}")
    return client.parse(payload)
