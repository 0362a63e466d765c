"""Aligned plain-text tables, wide characters and file names that are not UTF-8 included."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def shown(text: str) -> str:
    """`text` writable as UTF-8: each lone surrogate (a byte of a file name that is not UTF-8) becomes
    its backslash escape, `caf\\udce9`, instead of an exception."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def display_width(text: str) -> int:
    """Columns a string takes in a terminal: wide (CJK) characters take two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def plain_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: Sequence[int] = ()
) -> str:
    """An aligned plain-text table; columns listed in `right` are right-aligned (numbers)."""
    cells = [[shown(str(h)) for h in headers], *[[shown(str(c)) for c in row] for row in rows]]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - display_width(cell))
            parts.append(pad + cell if i in right else cell + pad)
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)
