"""Where things are in an instruction file as written on disk: body offset and frontmatter key lines.

`InstructionFile.text` is the body without frontmatter, so line numbers found in it are shifted by the
frontmatter's length. Governance reports point at the file as people see it in an editor, so the raw file
is read again here (cheap: these are small files) instead of widening the shared model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from jitctx.frontmatter import split_frontmatter
from jitctx.model import InstructionFile

_YAML_LINE = re.compile(r"at frontmatter line (\d+)")


@dataclass(frozen=True)
class SourceLayout:
    """The shape of one file on disk: its lines and the 1-based line where the body starts."""

    lines: tuple[str, ...]
    body_line: int
    frontmatter_end: int  # 1-based line of the closing `---`; 0 without frontmatter

    def key_line(self, key: str) -> int:
        """The 1-based line of `key:` inside the frontmatter; the opening line when not found."""
        pattern = re.compile(rf"^{re.escape(key)}[ \t]*:")
        for index in range(1, self.frontmatter_end - 1):
            if pattern.match(self.lines[index]):
                return index + 1
        return 1


def layout_of(file: InstructionFile) -> SourceLayout:
    """Read `file` again and locate its body; a file that vanished meanwhile is read as its body alone."""
    try:
        with open(file.path, "rb") as handle:
            data = handle.read()
    except OSError:
        return SourceLayout(tuple(file.text.split("\n")), 1, 0)
    return layout_of_text(data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace"))


def layout_of_text(text: str) -> SourceLayout:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = tuple(text.split("\n"))
    front = split_frontmatter(text)
    if not front.present or front.body_line <= 1:
        return SourceLayout(lines, 1, 0)
    return SourceLayout(lines, front.body_line, front.body_line - 1)


def scope_error_line(error: str) -> int:
    """The file line a frontmatter error points at (`at frontmatter line N` is counted after `---`)."""
    found = _YAML_LINE.search(error)
    if found is None:
        return 1
    return int(found.group(1)) + 1


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def lines_outside_fences(text: str) -> Iterator[tuple[int, str]]:
    """(0-based offset, line) of every line of `text` that is not inside fenced code (``` or ~~~)."""
    fence: str | None = None
    for offset, line in enumerate(text.split("\n")):
        marker = _FENCE.match(line)
        if fence is not None:
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
                fence = None
            continue
        if marker:
            fence = marker.group(1)
            continue
        yield offset, line
