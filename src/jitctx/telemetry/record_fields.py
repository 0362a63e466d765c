"""Fields of event records as statistics read them: the checks that make a record invalid when a field
has the wrong type, and how paths, sizes, durations and time series are shown."""

from __future__ import annotations

import os
from typing import Any


def whole_field(value: Any) -> Any:
    """An int field (bool is no int here), or None when absent; anything else makes the record invalid."""
    if value is None or value.__class__ is int:
        return value
    raise TypeError(f"expected an integer, not {type(value).__name__}")


def size_field(value: Any) -> Any:
    """A file size: a whole number of bytes, not negative, or None when unknown."""
    if value is None or (value.__class__ is int and value >= 0):
        return value
    raise TypeError("bytes is not a size")


def changed_points(points: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Points in time order, keeping only those where the value changed."""
    kept: list[tuple[str, int]] = []
    for point in sorted(points, key=lambda p: p[0]):
        if not kept or kept[-1][1] != point[1]:
            kept.append(point)
    return kept


def display_path(path: str, root: str) -> str:
    """`path` relative to `root` when it is inside it; as it is otherwise."""
    if root and (path == root or path.startswith(root.rstrip("/") + "/")):
        return os.path.relpath(path, root).replace(os.sep, "/")
    return path


def human_bytes(value: float) -> str:
    if value < 1024:
        return f"{value:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            return f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def duration(seconds: float) -> str:
    """'45 s', '12 min', '1 h 05', '2 d 3 h': how long a session ran, or where on its time axis."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min" + (f" {seconds % 60:02d}" if seconds % 60 and seconds < 600 else "")
    if seconds < 86400:
        minutes = seconds % 3600 // 60
        return f"{seconds // 3600} h" + (f" {minutes:02d}" if minutes else "")
    return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
