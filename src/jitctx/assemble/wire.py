"""An assembled prompt as plain request data for each API family - dicts and strings, no SDK imports.

- `anthropic`: `system` is a list of text blocks; the static zone carries the `cache_control` breakpoint,
  so the dynamic zone and the JIT blocks after it never invalidate the cached static prefix.
- `openai`: no segmented system prompt, so the static zone is the first message and the dynamic zone and
  the JIT blocks go at the end of the message list - where every new JIT load lands.
- `text`: the model-visible text, zones joined by a blank line.
The boundary marker is a split point, not content: it appears in `PromptAssembler.system_prompt` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jitctx.assemble.render import SEP
from jitctx.errors import UsageError

BOUNDARY = "<!-- jitctx:cache-boundary (static above, dynamic below) -->"
FORMATS = ("text", "anthropic", "openai")
EPHEMERAL = {"type": "ephemeral"}


@dataclass(frozen=True)
class Block:
    """One JIT block: the file's display path, its text, and the rendered block as it sits in the prompt."""

    path: str
    text: str
    rendered: str


@dataclass(frozen=True)
class AssembledPrompt:
    """A snapshot of an assembler, split the way renderers need it. Blocks are in prompt order."""

    static: str
    dynamic: str
    blocks: tuple[Block, ...]
    text: str  # the full system prompt, boundary marker included
    boundary: str = BOUNDARY


def render_text(prompt: AssembledPrompt) -> str:
    return SEP.join(p for p in (prompt.static, prompt.dynamic, *(b.rendered for b in prompt.blocks)) if p)


def render_anthropic(prompt: AssembledPrompt, messages: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """`{"system": [...], "messages": [...]}` for the Messages API; empty zones are left out (the API
    rejects empty text blocks), so with no static zone there is no breakpoint."""
    system: list[dict[str, Any]] = []
    if prompt.static:
        system.append({"type": "text", "text": prompt.static, "cache_control": dict(EPHEMERAL)})
    if prompt.dynamic:
        system.append({"type": "text", "text": prompt.dynamic})
    system.extend({"type": "text", "text": b.rendered} for b in prompt.blocks)
    return {"system": system, "messages": [dict(m) for m in messages]}


def render_openai(
    prompt: AssembledPrompt, messages: Sequence[Mapping[str, Any]] = (), *, role: str = "system"
) -> dict[str, Any]:
    """`{"messages": [...]}`: static zone first, the conversation, then the dynamic zone and the blocks."""
    out: list[dict[str, Any]] = []
    if prompt.static:
        out.append({"role": role, "content": prompt.static})
    out.extend(dict(m) for m in messages)
    if prompt.dynamic:
        out.append({"role": role, "content": prompt.dynamic})
    out.extend({"role": role, "content": b.rendered} for b in prompt.blocks)
    return {"messages": out}


def render_prompt(
    prompt: AssembledPrompt, format: str, *, messages: Sequence[Mapping[str, Any]] = ()
) -> str | dict[str, Any]:
    if format == "text":
        return render_text(prompt)
    if format == "anthropic":
        return render_anthropic(prompt, messages)
    if format == "openai":
        return render_openai(prompt, messages)
    raise UsageError(f"unknown prompt format {format!r}; choose one of: {', '.join(FORMATS)}")
