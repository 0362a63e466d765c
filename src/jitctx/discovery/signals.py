"""Startup signals: where you work (the cwd marker) and what you are changing (git, narrowed to the cwd).

If git is missing or fails, the signals are the cwd marker alone: narrowing is the safe side, and a failed
probe must never turn into "match everything".
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

from jitctx.paths import is_inside, relative_posix

GIT_STATUS = ("git", "--no-optional-locks", "status", "--porcelain", "-z", "-uall")
GIT_TIMEOUT_S = 20.0
# Each changed file is an early touch at startup (its directory chain walked, every rule asked): 20,000
# untracked files cost seconds, past what a hook call may take (hook.deadline), and a start cut short
# would be cut short again at every call. Past this many, the first ones (in path order) are signals; the
# others load their rules when the agent touches them, as any file does.
MAX_CHANGED_SIGNALS = 1000


@dataclass(frozen=True)
class Signals:
    marker: str | None  # "src/ui/" for cwd src/ui; None at the root
    changed: tuple[str, ...]  # POSIX paths relative to the root, inside the cwd subtree
    warnings: tuple[str, ...] = ()

    @property
    def all(self) -> tuple[str, ...]:
        return ((self.marker,) if self.marker else ()) + self.changed


def cwd_marker(cwd_real: str, root: str) -> str | None:
    rel = relative_posix(cwd_real, root)
    return f"{rel}/" if rel else None


def find_git_top(start: str) -> str | None:
    """The nearest ancestor of `start` holding `.git` (a folder, or a file for worktrees)."""
    current = start
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def collect_signals(root: str, cwd_real: str, *, use_git: bool = True) -> Signals:
    marker = cwd_marker(cwd_real, root)
    if not use_git:
        return Signals(marker, ())
    top = find_git_top(cwd_real)
    if top is None:
        return Signals(marker, ())
    changed, warning = git_changed(top, cwd_real)
    if changed is None:
        return Signals(marker, (), (warning,) if warning else ())
    inside: list[str] = []
    top_real = os.path.realpath(top)
    for rel_to_top in changed:
        real = os.path.join(top_real, *rel_to_top.split("/"))
        # Narrow to the cwd subtree: a change under src/ui must not pull the ui rules into website/.
        if is_inside(real, cwd_real) and is_inside(real, root):
            inside.append(relative_posix(real, root))
    found = sorted(set(inside))
    if len(found) <= MAX_CHANGED_SIGNALS:
        return Signals(marker, tuple(found))
    warning = (
        f"{len(found):,} changed files under the cwd; the first {MAX_CHANGED_SIGNALS:,} are startup signals, "
        "the others load their rules when touched"
    )
    return Signals(marker, tuple(found[:MAX_CHANGED_SIGNALS]), (warning,))


def git_changed(top: str, cwd: str) -> tuple[list[str] | None, str | None]:
    """Changed and untracked files (relative to `top`) under `cwd`; None and a reason if git failed."""
    try:
        proc = subprocess.run(
            [*GIT_STATUS, "--", "."],
            cwd=cwd,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError:
        return None, "git is not installed; startup signals are the cwd marker only"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"git status failed ({exc}); startup signals are the cwd marker only"
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = message[0] if message else f"exit code {proc.returncode}"
        return None, f"git status failed ({reason}); startup signals are the cwd marker only"
    return parse_porcelain_z(proc.stdout), None


def parse_porcelain_z(data: bytes) -> list[str]:
    """Paths of `git status --porcelain -z` output; deletions are left out (their rules serve no step)."""
    fields = data.split(b"\0")
    paths: list[str] = []
    index = 0
    while index < len(fields):
        entry = fields[index]
        index += 1
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        if status[:1] in (b"R", b"C"):
            index += 1  # the next field is the original path of a rename or copy
        if b"D" in status and not status.startswith(b"R"):
            continue
        paths.append(os.fsdecode(path).replace(os.sep, "/"))
    return paths
