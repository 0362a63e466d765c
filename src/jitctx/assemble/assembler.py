"""The system prompt of a session: a static zone, a boundary, a dynamic zone, and the JIT blocks after it.

The invariant that matters: every current JIT block is in the prompt exactly once, after the boundary.
Hosts rebuild their system prompt wholesale (model switch, memory reload, compaction) and such a rebuild
wipes appended blocks; the session's dedup still counts those files as loaded, so they would never come back.
A single "please rebuild through this helper" entry point gets bypassed sooner or later, so the invariant
lives here, in the class holding the state: `set_system_prompt` (and the `system_prompt` setter, which is
the same call) re-appends what the new text lacks, block by block, so repeating it changes nothing.

A rebuilt text may also carry an older version of a file's block (the host cached the prompt before the
file changed) or the block of a deleted file; after the boundary, the first is replaced by the current
version in place and the second removed. The static zone before the boundary is never edited: it is the
host's cached prefix, and a current block found there counts as present. Blocks are recognised by their
exact rendered text, as in the seed's implementation; other text that reproduces a rendering verbatim is
taken for that block.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, overload

from jitctx.assemble.render import SEP, RenderInput, RenderStyle, as_items, get_style, render_block
from jitctx.assemble.wire import BOUNDARY, AssembledPrompt, Block, render_prompt
from jitctx.model import Tier

_HISTORY = 8  # superseded renderings remembered per path, to repair stale copies in rebuilt prompts


def _join(*parts: str) -> str:
    return SEP.join(p for p in parts if p)


def _cut_at(text: str, start: int, length: int) -> str:
    """Remove text[start:start+length] together with one separator next to it."""
    end = start + length
    if text[:start].endswith(SEP):
        start -= len(SEP)
    elif text[end:].startswith(SEP):
        end += len(SEP)
    return text[:start] + text[end:]


def _occurrences(text: str, renderings: Iterable[str]) -> list[tuple[int, str]]:
    """Non-overlapping places where any of `renderings` occurs, the longest one winning at each start.

    Versions of one file are often prefixes of each other (a paragraph appended); the longest match at a
    position is the block actually sitting there, not the shorter version that happens to match its head.
    """
    longest: dict[int, str] = {}
    for rendering in set(renderings):
        if not rendering:
            continue
        at = text.find(rendering)
        while at >= 0:
            if len(rendering) > len(longest.get(at, "")):
                longest[at] = rendering
            at = text.find(rendering, at + 1)
    found: list[tuple[int, str]] = []
    end = 0
    for at in sorted(longest):
        if at >= end:
            found.append((at, longest[at]))
            end = at + len(longest[at])
    return found


class PromptAssembler:
    """Holds one system prompt and the session's JIT blocks; every write keeps the blocks."""

    def __init__(self, static: str = "", dynamic: str = "", *, style: str | RenderStyle = "plain") -> None:
        self.style = get_style(style)
        self._blocks: dict[str, Block] = {}
        self._stale: dict[str, list[str]] = {}  # path -> renderings superseded by a fresher version
        self._retired: dict[str, list[str]] = {}  # path -> renderings of removed blocks
        self._errors: list[str] = []
        self._text = _join(static, BOUNDARY, dynamic)

    # -- state ----------------------------------------------------------------------------------------

    @property
    def boundary(self) -> str:
        return BOUNDARY

    @property
    def system_prompt(self) -> str:
        return self._text

    @system_prompt.setter
    def system_prompt(self, text: str) -> None:
        self.set_system_prompt(text)

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Current blocks in load order (a replaced block keeps its place)."""
        return tuple(self._blocks.values())

    @property
    def reinjection_errors(self) -> tuple[str, ...]:
        """Failures caught while re-appending blocks; the prompt write went through regardless."""
        return tuple(self._errors)

    @property
    def static(self) -> str:
        return self.snapshot().static

    @property
    def dynamic(self) -> str:
        return self.snapshot().dynamic

    # -- writes ---------------------------------------------------------------------------------------

    def set_system_prompt(self, text: str) -> None:
        """Write a rebuilt prompt; re-append every current block it lacks (after the boundary), once."""
        try:
            self._text = self._reinject(text)
        except Exception as exc:  # a failure here must never block the write itself
            self._errors.append(f"{type(exc).__name__}: {exc}")
            self._text = text

    def set_dynamic(self, dynamic: str) -> None:
        """Replace the dynamic zone (date, git status...) and keep the static zone and the blocks."""
        self.set_system_prompt(_join(self.static, BOUNDARY, dynamic))

    def add_block(self, path: str, text: str, *, tier: Tier = Tier.PROJECT) -> Block:
        """Add the block for `path`, or replace it in place when a fresher version of the file arrives."""
        block = Block(path, text, render_block(path, text, self.style, tier).rstrip())
        old = self._blocks.get(path)
        if old is not None and old.rendered == block.rendered:
            return old
        self._blocks[path] = block  # an existing key keeps its position
        self._retired.pop(path, None)
        history = self._stale.setdefault(path, [])
        if block.rendered in history:
            history.remove(block.rendered)
        if old is not None:
            history.append(old.rendered)
            del history[:-_HISTORY]
        self.set_system_prompt(self._text)
        return block

    def add_files(self, files: Iterable[RenderInput]) -> tuple[Block, ...]:
        """Add (or refresh) blocks for instruction files in load order, e.g. `Session.blocks()`."""
        return tuple(self.add_block(i.display, i.text, tier=i.tier) for i in as_items(files))

    def remove_block(self, path: str) -> bool:
        """Drop the block for `path` (its file was deleted); False when there was none."""
        block = self._blocks.pop(path, None)
        if block is None:
            return False
        retired = self._retired.setdefault(path, [])
        retired.extend([block.rendered, *self._stale.pop(path, [])])
        del retired[:-_HISTORY]
        self.set_system_prompt(self._text)
        return True

    def _reinject(self, text: str) -> str:
        # One scan over every rendering this class ever produced, so a block quoted inside another block
        # is never taken for the block itself. Only the part after the boundary is edited: the static zone
        # is the host's cached prefix, and a block found there still counts as present.
        owner: dict[str, str] = {}
        for table in (self._retired, self._stale):
            for path, renderings in table.items():
                owner.update(dict.fromkeys(renderings, path))
        owner.update((b.rendered, path) for path, b in self._blocks.items())
        found = _occurrences(text, owner)
        marker = text.find(BOUNDARY)
        editable_from = marker + len(BOUNDARY) if marker >= 0 else 0
        edits: list[tuple[int, str, str | None]] = []  # (position, old, replacement); None cuts
        missing: list[str] = []
        for path, block in self._blocks.items():
            mine = [o for o in found if owner[o[1]] == path]
            frozen = any(r == block.rendered for at, r in mine if at < editable_from)
            editable = [o for o in mine if o[0] >= editable_from]
            current = [o for o in editable if o[1] == block.rendered]
            keep: tuple[int, str] | None = None
            if not frozen and (current or editable):
                keep = (current or editable)[0]
            elif not frozen:
                missing.append(block.rendered)
            for at, old in editable:
                if (at, old) != keep:
                    edits.append((at, old, None))  # never two copies, never two versions of one file
                elif old != block.rendered:
                    edits.append((at, old, block.rendered))  # a fresher version replaces in place
        edits.extend(
            (at, old, None) for at, old in found if at >= editable_from and owner[old] not in self._blocks
        )
        for at, old, new in sorted(edits, key=lambda e: e[0], reverse=True):
            text = _cut_at(text, at, len(old)) if new is None else text[:at] + new + text[at + len(old) :]
        if not missing:
            return text
        if BOUNDARY not in text:
            text = _join(text, BOUNDARY)
        return _join(text, *missing)

    # -- reads ----------------------------------------------------------------------------------------

    def snapshot(self) -> AssembledPrompt:
        """Split the current prompt into static zone, dynamic zone and the blocks after the boundary."""
        before, marker, after = self._text.partition(BOUNDARY)
        if not marker:
            return AssembledPrompt(self._text, "", (), self._text)
        by_rendering = {b.rendered: b for b in self._blocks.values()}
        pieces: list[str] = []
        blocks: list[Block] = []
        cursor = 0
        for at, rendering in _occurrences(after, by_rendering):
            pieces.append(after[cursor:at])
            blocks.append(by_rendering[rendering])
            cursor = at + len(rendering)
        pieces.append(after[cursor:])
        dynamic = _join(*(p.strip("\n") for p in pieces))
        return AssembledPrompt(before.removesuffix(SEP), dynamic, tuple(blocks), self._text)

    @overload
    def render(self, format: Literal["text"], *, messages: Sequence[Mapping[str, Any]] = ...) -> str: ...
    @overload
    def render(
        self, format: Literal["anthropic", "openai"], *, messages: Sequence[Mapping[str, Any]] = ...
    ) -> dict[str, Any]: ...
    @overload
    def render(self, format: str, *, messages: Sequence[Mapping[str, Any]] = ...) -> str | dict[str, Any]: ...

    def render(self, format: str, *, messages: Sequence[Mapping[str, Any]] = ()) -> str | dict[str, Any]:
        """The prompt as plain data: "text" (a str), "anthropic" or "openai" (dicts; see `assemble.wire`)."""
        return render_prompt(self.snapshot(), format, messages=messages)
