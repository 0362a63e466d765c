"""Tables that fit the terminal: on a terminal a table wider than it is wrapped to its width, `--wide`
shows every cell whole. Output into a pipe or a file is never changed (a script reads whole lines).

Right-aligned columns (numbers) keep their width; the text columns give way, the widest first, and each
cell is wrapped at spaces (a path at a `/`), a word longer than its column cut into pieces.
"""

from __future__ import annotations

import argparse
import os
import shutil
from collections.abc import Sequence
from typing import Any, TextIO

from jitctx.reports.table import display_width, shown

GAP = 2  # the spaces between two columns (reports.table.plain_table)
MIN_COLUMN = 8  # narrower than this a column reads as noise; the table then overflows instead
PROSE_MIN = 16  # a column of sentences is wrapped to no fewer columns before names are cut

_wide = False


def set_wide(wide: bool) -> None:
    global _wide
    _wide = wide


class _WideAction(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        set_wide(True)
        setattr(namespace, self.dest, True)


def add_wide(parser: argparse.ArgumentParser) -> None:
    set_wide(False)  # a parser is built once per run; an earlier run in the same process does not leak
    parser.add_argument(
        "--wide",
        nargs=0,
        default=False,
        action=_WideAction,
        help="on a terminal, print every table cell whole instead of wrapping the table to its width",
    )


def columns_for(stream: TextIO) -> int | None:
    """The width to fit tables to on `stream`: the terminal's, or None (no limit) for a pipe, a file, or
    `--wide`."""
    if _wide:
        return None
    isatty = getattr(stream, "isatty", None)
    try:
        if not (isatty and isatty()):
            return None
    except ValueError:  # a closed stream
        return None
    try:
        size = os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        size = shutil.get_terminal_size().columns
    return size if size > 0 else None


def fit_rows(
    headers: Sequence[str], rows: Sequence[Sequence[object]], width: int, *, right: Sequence[int] = ()
) -> tuple[list[str], list[list[str]]]:
    """`headers` and `rows` wrapped so that the table is at most `width` columns wide: a cell too wide
    for its column continues on the next lines of the same row. Headers come back as their first line;
    a header that had to wrap continues in extra rows under it."""
    cells = [[shown(str(h)) for h in headers], *[[shown(str(c)) for c in row] for row in rows]]
    count = len(headers)
    natural = [max(display_width(line) for row in cells for line in row[i].split("\n")) for i in range(count)]
    prose = {i for i in range(count) if any(" " in row[i] for row in cells[1:])}
    limits = _limits(natural, width - GAP * (count - 1), set(right), prose)
    if limits == natural:
        return cells[0], cells[1:]
    wrapped: list[list[str]] = []
    for row in cells:
        pieces = [[cell] if i in right else _wrap(cell, limits[i]) for i, cell in enumerate(row)]
        for depth in range(max(len(p) for p in pieces)):
            wrapped.append([p[depth] if depth < len(p) else "" for p in pieces])
    return wrapped[0], wrapped[1:]


def _limits(natural: list[int], room: int, fixed: set[int], prose: set[int]) -> list[int]:
    """The widest each column may be so that all fit in `room`. Columns of prose (cells with spaces)
    give way first, down to PROSE_MIN, so that names and ids stay whole; if that is not enough, every
    column but the numbers does, down to MIN_COLUMN. Within a tier one cap holds for all, as high as
    the room allows (water-filling)."""
    if sum(natural) <= room:
        return natural
    for shrinking, floor in ((prose - fixed, PROSE_MIN), (set(range(len(natural))) - fixed, MIN_COLUMN)):
        if not shrinking:
            continue
        cap = _cap(natural, room, shrinking, floor)
        if cap is not None:
            return [min(n, cap) if i in shrinking else n for i, n in enumerate(natural)]
    everything = set(range(len(natural))) - fixed
    return [min(n, MIN_COLUMN) if i in everything else n for i, n in enumerate(natural)]


def _cap(natural: list[int], room: int, shrinking: set[int], floor: int) -> int | None:
    """The largest cap >= `floor` for the `shrinking` columns with which the table fits, else None."""
    taken = sum(n for i, n in enumerate(natural) if i not in shrinking)

    def fits(cap: int) -> bool:
        return taken + sum(min(natural[i], cap) for i in shrinking) <= room

    if not fits(floor):
        return None
    low, high = floor, max(natural[i] for i in shrinking)
    while low < high:
        cap = (low + high + 1) // 2
        if fits(cap):
            low = cap
        else:
            high = cap - 1
    return low


def _wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` display columns, broken at spaces, a long word after a `/`
    where it can be, else cut."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if display_width(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while display_width(word) > width:
                head, word = _cut(word, width)
                lines.append(head)
            line = word
        lines.append(line)
    return lines


def _cut(word: str, width: int) -> tuple[str, str]:
    """The longest head of `word` that fits in `width` (ending after a `/` when it has one), the rest."""
    used, end = 0, 0
    for index, char in enumerate(word):
        used += display_width(char)
        if used > width:
            break
        end = index + 1
    end = max(end, 1)
    slash = word.rfind("/", 0, end)
    if 0 < slash < end - 1:
        end = slash + 1
    return word[:end], word[end:]
