"""Is a directory inside the project? Path segments, not string prefixes, and real paths at every step.

`/x/proj-evil` starts with `/x/proj` as a string but is a sibling, and `proj/vendor -> /elsewhere` is inside
by name but outside in fact. Both checks are needed; either alone leaks rules from outside the project.
"""

from __future__ import annotations

import os


def is_inside(real: str, root: str) -> bool:
    """`real` and `root` are real paths (no symlinks, no trailing separator except the filesystem root)."""
    if real == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return real.startswith(prefix)


def relative_posix(real: str, root: str) -> str:
    """`real` relative to `root`, with `/` separators; `""` for the root itself."""
    if real == root:
        return ""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if real.startswith(prefix):
        rel = real[len(prefix) :]
    else:
        rel = os.path.relpath(real, root)
    return rel.replace(os.sep, "/") if os.sep != "/" else rel


def nearest_existing(path: str) -> tuple[str, str]:
    """Split `path` into its nearest existing ancestor (or itself) and the part that does not exist yet."""
    existing = path
    missing: list[str] = []
    while not os.path.lexists(existing):
        parent = os.path.dirname(existing)
        if parent == existing:
            break
        missing.append(os.path.basename(existing))
        existing = parent
    return existing, "/".join(reversed(missing))


def find_root(start: str, markers: tuple[str, ...] | list[str]) -> str:
    """Nearest ancestor of `start` (itself included) holding one of `markers`; `start` if none does."""
    current = os.path.realpath(start)
    while True:
        if any(os.path.lexists(os.path.join(current, marker)) for marker in markers):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return os.path.realpath(start)
        current = parent
