"""Fields of event records as statistics read them: the checks that make a record invalid when a field
has the wrong type, and how paths and time series are shown."""

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
