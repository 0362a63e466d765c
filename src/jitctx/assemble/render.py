"""How instruction files look once an agent receives them: render styles, payloads and their byte sizes.

Two shapes per style:
- a *block*: one file on its own, as a JIT block in an assembled prompt (`render_block`);
- a *payload*: a set of files delivered together, frame and intro included (`render_payload`). Budgets count
  the payload, because that is what the host measures against its limit.

Styles, and where their text comes from:
- `claude`: Claude Code's memory rendering. Startup files are joined under a fixed intro as
  "Contents of <path> (<kind>):" sections inside a `<system-reminder>` frame; a file found later (JIT) is
  "Contents of <path>:" on its own. Claude Code writes absolute paths; jitctx writes root-relative ones.
- `codex`: Codex's AGENTS.md fragment, "# AGENTS.md instructions for <dir>" then the files joined by a blank
  line inside `<INSTRUCTIONS>`; no header per file. A user-level file comes first, set off by
  "--- project-doc ---". Codex names its absolute cwd; jitctx names the most specific file's directory.
- `plain`: "Instructions from: <path>" and the text, files separated by a blank line, no frame.
- `dsh`: the DeepSeek Harness shape measured in the governance seed: a `<system-reminder>` frame, a fixed
  intro, "Instructions from: <path>" headers. Its real intro wording is not public in our sources; the one
  here is a stand-in whose length makes the overhead for `AGENTS.md` the measured 304 bytes
  (65,396 B rendered - 65,092 B body), so the seed's arithmetic holds exactly.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from jitctx.errors import UsageError
from jitctx.model import InstructionFile, Tier

SEP = "\n\n"


class RenderItem(NamedTuple):
    """One file to render: its root-relative display path, its text, and its tier (for Claude's labels)."""

    display: str
    text: str
    tier: Tier = Tier.PROJECT


RenderInput: TypeAlias = InstructionFile | RenderItem | tuple[str, str] | tuple[str, str, Tier]


@dataclass(frozen=True)
class RenderStyle:
    """The fixed text around instruction files. Templates may name {path}, {dir} and {label}."""

    name: str
    open: str  # before everything in a payload
    intro: str  # fixed text after `open`, before the first file
    item_header: str  # before each file's text in a payload
    separator: str  # between files in a payload
    close: str  # after everything in a payload
    block_open: str  # before a lone block (a JIT block in an assembled prompt)
    block_close: str  # after a lone block
    # Between a user/managed file and the first project file (Codex's "--- project-doc ---").
    project_separator: str | None = None
    # Claude Code labels each startup file by where it came from.
    labels: tuple[tuple[Tier, str], ...] = ()

    def label(self, tier: Tier) -> str:
        return dict(self.labels).get(tier, "")


_CLAUDE_INTRO = (
    "Codebase and user instructions are shown below. Be sure to adhere to these instructions. "
    "IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written."
)
# 235 bytes: with the frame (18 + 19), the blank line after it (2) and "Instructions from: AGENTS.md\n\n" (30)
# the overhead for AGENTS.md is 304 bytes, the figure the governance seed measured on dsh.
_DSH_INTRO = (
    "Project instructions loaded from the instruction files of this workspace follow. Adhere to them "
    "while you work here. A file deeper in the tree is more specific and takes precedence over the "
    "broader files that are listed before it here."
)
_GLOBAL = " (user's private global instructions for all projects)"

STYLES: dict[str, RenderStyle] = {
    s.name: s
    for s in (
        RenderStyle(
            name="claude",
            open="<system-reminder>\n",
            intro=_CLAUDE_INTRO + SEP,
            item_header="Contents of {path}{label}:\n\n",
            separator=SEP,
            close="\n</system-reminder>",
            block_open="Contents of {path}:\n\n",
            block_close="",
            labels=(
                (Tier.PROJECT, " (project instructions, checked into the codebase)"),
                (Tier.LOCAL, " (user's private project instructions, not checked in)"),
                (Tier.USER, _GLOBAL),
                (Tier.MANAGED, _GLOBAL),
            ),
        ),
        RenderStyle(
            name="agents-md",
            open="# AGENTS.md instructions for {dir}\n\n<INSTRUCTIONS>\n",
            intro="",
            item_header="",
            separator=SEP,
            close="\n</INSTRUCTIONS>",
            block_open="# AGENTS.md instructions for {dir}\n\n<INSTRUCTIONS>\n",
            block_close="\n</INSTRUCTIONS>",
            project_separator="\n\n--- project-doc ---\n\n",
        ),
        RenderStyle(
            name="plain",
            open="",
            intro="",
            item_header="Instructions from: {path}\n\n",
            separator=SEP,
            close="",
            block_open="Instructions from: {path}\n\n",
            block_close="",
        ),
        RenderStyle(
            name="dsh",
            open="<system-reminder>\n",
            intro=_DSH_INTRO + SEP,
            item_header="Instructions from: {path}\n\n",
            separator=SEP,
            close="\n</system-reminder>",
            block_open="Instructions from: {path}\n\n",
            block_close="",
        ),
    )
}


def get_style(style: str | RenderStyle) -> RenderStyle:
    if isinstance(style, RenderStyle):
        return style
    try:
        return STYLES[style]
    except KeyError:
        known = ", ".join(STYLES)
        raise UsageError(f"unknown render style {style!r}; choose one of: {known}") from None


def as_items(files: Iterable[RenderInput]) -> tuple[RenderItem, ...]:
    """Accept InstructionFile records or (display, text[, tier]) tuples; keep their order."""
    items: list[RenderItem] = []
    for f in files:
        if isinstance(f, InstructionFile):
            items.append(RenderItem(f.display, f.text, f.tier))
        elif isinstance(f, RenderItem):
            items.append(f)
        else:
            items.append(RenderItem(*f))
    return tuple(items)


_FIELD = re.compile(r"\{(path|dir|label)\}")


def _fill(template: str, item: RenderItem, style: RenderStyle) -> str:
    # One pass, so a path that itself contains "{label}" is not expanded twice.
    if "{" not in template:
        return template
    values = {"path": item.display, "dir": directory_of(item.display), "label": style.label(item.tier)}
    return _FIELD.sub(lambda m: values[m.group(1)], template)


def directory_of(display: str) -> str:
    return posixpath.dirname(display) or "."


def render_block(
    display: str, text: str, style: str | RenderStyle = "plain", tier: Tier = Tier.PROJECT
) -> str:
    """One file as a lone block: the header naming its path (or directory, for Codex), then its text."""
    s = get_style(style)
    item = RenderItem(display, text, tier)
    return _fill(s.block_open, item, s) + text + _fill(s.block_close, item, s)


GLOBAL_TIERS = frozenset({Tier.MANAGED, Tier.USER})  # files from outside the project


def _joiner(style: RenderStyle, previous: RenderItem, item: RenderItem) -> str:
    if (
        style.project_separator is not None
        and previous.tier in GLOBAL_TIERS
        and item.tier not in GLOBAL_TIERS
    ):
        return style.project_separator
    return style.separator


def render_payload(files: Iterable[RenderInput], style: str | RenderStyle = "plain") -> str:
    """Everything the agent receives for these files, in the order given; "" for no files."""
    s = get_style(style)
    items = as_items(files)
    if not items:
        return ""
    parts = [_fill(s.open, items[-1], s), s.intro]
    for i, item in enumerate(items):
        if i:
            parts.append(_joiner(s, items[i - 1], item))
        parts.append(_fill(s.item_header, item, s))
        parts.append(item.text)
    parts.append(_fill(s.close, items[-1], s))
    return "".join(parts)


def _utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def frame_bytes(style: RenderStyle, last: RenderItem) -> int:
    """Bytes of the frame and intro of a payload whose most specific file is `last`."""
    return _utf8(_fill(style.open, last, style)) + _utf8(style.intro) + _utf8(_fill(style.close, last, style))


def item_bytes(style: RenderStyle, item: RenderItem) -> int:
    """Bytes of one file inside a payload: its header and its text (separators not included)."""
    return _utf8(_fill(style.item_header, item, style)) + _utf8(item.text)


def payload_bytes(items: Sequence[RenderItem], style: RenderStyle) -> int:
    """`len(render_payload(items).encode())` without building the string."""
    if not items:
        return 0
    total = frame_bytes(style, items[-1]) + sum(item_bytes(style, item) for item in items)
    return total + sum(_utf8(_joiner(style, items[i - 1], items[i])) for i in range(1, len(items)))


def rendered_size(files: Iterable[RenderInput], style: str | RenderStyle = "plain") -> int:
    """Payload bytes of rendering these files together, as the host counts them against its limit."""
    return payload_bytes(as_items(files), get_style(style))


def render_overhead(display: str, style: str | RenderStyle = "plain", tier: Tier = Tier.PROJECT) -> int:
    """Bytes a single file at `display` costs beyond its own text (frame, intro, header, blank lines)."""
    return rendered_size([RenderItem(display, "", tier)], style)
