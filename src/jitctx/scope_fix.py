"""The scope line a fix suggests: every glob of the file, in the form its format reads (pure).

The one source of such lines: `lint`'s fixes, and the warning every command that reads the file prints
(`startup`, `explain`, `touch`, `replay`) for a scope written with an unquoted glob, say the same words.
A fix that shows one example glob, or a form the format splits differently, loses globs when copied. So
the globs come from the file itself (from its frontmatter lines when YAML cannot read them), and the line
is written the way each format's agent reads it:

* YAML formats (`paths:` of Claude Code rules, `fileMatchPattern:` of Kiro): a flow list of quoted
  strings, `paths: ["src/**/*.ts", "docs/**"]`;
* Copilot's `applyTo:`: one quoted string, globs separated by commas, `applyTo: "src/**/*.ts,docs/**"`;
* Cursor's `globs:` in `.mdc` rules: unquoted and comma-separated, `globs: src/**/*.ts, docs/**`.
Copilot and Cursor split on every comma, so a brace set (`*.{ts,tsx}`) is written out as its globs there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

YAML, COPILOT, CURSOR = "yaml", "copilot", "cursor"
_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")
_ITEM = re.compile(r"^[ \t]*-[ \t]+")


def style_for(key: str, cursor_rule: bool = False) -> str:
    """How the format that uses `key` reads a scope."""
    if cursor_rule:
        return CURSOR
    return COPILOT if key == "applyTo" else YAML


def in_cursor_format(display: str, from_rules_dir: bool) -> bool:
    """An `.mdc` file of a rules folder: Cursor's format, whose `globs` is comma-separated text."""
    return from_rules_dir and display.endswith(".mdc")


def unquoted_fix(key: str, patterns: Sequence[str], cursor_rule: bool = False) -> str | None:
    """The advice for a scope written with an unquoted glob (invalid YAML, read line by line), keeping
    every one of `patterns`; None for a Cursor rule, where unquoted comma-separated text is the format's
    own: Cursor does not parse `globs` as YAML, so quotes or brackets would become part of its globs."""
    if cursor_rule:
        return None
    return f"quote it: {scope_line(key, patterns, style_for(key))}"


def scope_line(key: str, patterns: Sequence[str], style: str = YAML) -> str:
    """`key: ...` holding every one of `patterns`, as `style` reads it."""
    if style == YAML:
        return f"{key}: [{', '.join(json.dumps(p, ensure_ascii=False) for p in patterns)}]"
    expanded = [glob for pattern in patterns for glob in expand_braces(pattern)]
    if style == COPILOT:
        return f'{key}: "{",".join(expanded)}"'
    return f"{key}: {', '.join(expanded)}"


def expand_braces(pattern: str) -> list[str]:
    """`*.{ts,tsx}` -> [`*.ts`, `*.tsx`]; nested sets are expanded too; a pattern without a set is kept."""
    depth, start = 0, -1
    for index, char in enumerate(pattern):
        if char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _split_top(pattern[start + 1 : index])
                if len(options) < 2:
                    continue
                head, tail = pattern[:start], pattern[index + 1 :]
                return [g for option in options for g in expand_braces(head + option + tail)]
    return [pattern]


def raw_globs(lines: Sequence[str], end: int, key: str) -> list[str]:
    """The globs written under `key` in frontmatter lines 1..end-2 (0-based `lines`, `end` the 1-based
    closing `---`), read from the text itself: the key's value and the indented or `- ` lines after it,
    split on commas outside braces, quotes and list brackets removed. For fixes only: what a file means
    is the frontmatter reader's to say."""
    pieces: list[str] = []
    inside = False
    for line in lines[1 : max(1, end - 1)]:
        match = _KEY.match(line)
        if match is not None and not line[:1].isspace():
            if inside:
                break
            if match.group(1) == key:
                inside = True
                pieces.append(match.group(2))
            continue
        if inside and (line[:1].isspace() or _ITEM.match(line)):
            pieces.append(_ITEM.sub("", line))
    globs: list[str] = []
    for piece in pieces:
        text = piece.strip()
        if text in ("|", ">", "|-", ">-"):
            continue
        text = text.removeprefix("[").removesuffix("]")
        for part in _split_top(text):
            glob = part.strip().strip("'\"").strip()
            if glob:
                globs.append(glob)
    return globs


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside braces or brackets."""
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char in "{[":
            depth += 1
        elif char in "}]" and depth:
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    parts.append(current)
    return parts
