"""What reached the model, read from a recorded request body: which instruction text, by which route.

Every instruction file of the fixture carries one marker (`JX-UI-CLAUDE`); a request of a client holds the
whole conversation so far, so the last request of a thread shows everything that thread's model was
given. Each occurrence of a marker is classified by where it sits:

* `client`: the client loaded the file itself. Claude Code: its system prompt, its `claudeMd` reminder,
  or a `system` message (`Contents of /abs/path:`, its nested load). Codex: an `# AGENTS.md instructions
  for DIR` block (`<INSTRUCTIONS>`), or its `instructions` field.
* `hook`: a hook's additionalContext. Claude Code prefixes it with `EVENT[:TOOL] hook additional context:`
  (in a `<system-reminder>` after a tool result, in a `system` message at session start); Codex adds it
  as a developer message of its own.
* `tool-output`: the file's text came back as a tool's output (the model read the file itself).

The fixture's hooks are jitctx's only, so `hook` means jitctx sent it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

_HOOK_HEADER = re.compile(r"(\S+) hook additional context: ")
# Claude Code's own header names the file by its absolute path; jitctx's blocks name it relative to the root.
_CLIENT_HEADER = re.compile(r"Contents of (/\S+?)(?: \(|:)")


class Delivery(NamedTuple):
    route: str  # "client", "hook" or "tool-output"
    detail: str  # e.g. "PostToolUse:Write", "system message", "AGENTS.md instructions"

    def __str__(self) -> str:
        return f"{self.route}({self.detail})"


class _Chunk(NamedTuple):
    kind: str
    text: str


def _texts(content: Any) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                yield part["text"]


def _anthropic_chunks(body: Mapping[str, Any]) -> Iterator[_Chunk]:
    for text in _texts(body.get("system")):
        yield _Chunk("system prompt", text)
    for message in body.get("messages") or []:
        role, content = message.get("role"), message.get("content")
        if role == "system":
            for text in _texts(content):
                yield _Chunk("system message", text)
        elif role == "user":
            if isinstance(content, str):
                yield _Chunk("user text", content)
                continue
            for part in content or []:
                if part.get("type") == "tool_result":
                    for text in _texts(part.get("content")):
                        yield _Chunk("tool output", text)
                elif isinstance(part.get("text"), str):
                    yield _Chunk("user text", part["text"])


def _responses_chunks(body: Mapping[str, Any]) -> Iterator[_Chunk]:
    if isinstance(body.get("instructions"), str):
        yield _Chunk("instructions", body["instructions"])
    for item in body.get("input") or []:
        kind = item.get("type")
        if kind == "message":
            for text in _texts(item.get("content")):
                yield _Chunk(f"{item.get('role')} message", text)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            output = item.get("output")
            yield _Chunk("tool output", output if isinstance(output, str) else json.dumps(output))


def _route(chunk: _Chunk, position: int) -> Delivery:
    if chunk.kind == "tool output":
        return Delivery("tool-output", "tool result")
    if chunk.kind in ("system prompt", "instructions"):
        return Delivery("client", chunk.kind)
    if chunk.kind in ("system message", "user text"):  # Claude Code; one text may hold several parts
        hook = list(_HOOK_HEADER.finditer(chunk.text, 0, position))
        own = list(_CLIENT_HEADER.finditer(chunk.text, 0, position))
        if hook and (not own or hook[-1].start() > own[-1].start()):
            return Delivery("hook", hook[-1].group(1))
        if chunk.kind == "system message":
            return Delivery("client", "system message")
        return Delivery("client", "reminder" if "<system-reminder>" in chunk.text else "prompt")
    # Codex: its own AGENTS.md load is an <INSTRUCTIONS> block; a hook's context is a developer message.
    opened = chunk.text.rfind("<INSTRUCTIONS>", 0, position)
    if opened >= 0 and chunk.text.find("</INSTRUCTIONS>", opened) >= position:
        return Delivery("client", "AGENTS.md instructions")
    if chunk.kind == "developer message":
        return Delivery("hook", "developer message")
    return Delivery("client", chunk.kind)


def deliveries(body: Mapping[str, Any], marker: str) -> list[Delivery]:
    """Every occurrence of `marker` in the request, with its route, in conversation order."""
    chunks = _responses_chunks(body) if "input" in body else _anthropic_chunks(body)
    pattern = re.compile(rf"(?<![\w-]){re.escape(marker)}(?![\w-])")
    return [_route(chunk, m.start()) for chunk in chunks for m in pattern.finditer(chunk.text)]


def summary(body: Mapping[str, Any], markers: Sequence[str]) -> str:
    """One line per marker: how often and by which routes it arrived (for assertion messages)."""
    lines = []
    for marker in markers:
        found = deliveries(body, marker)
        shown = ", ".join(str(d) for d in found) or "-"
        lines.append(f"  {marker}: {len(found)}x {shown}")
    return "\n".join(lines)
