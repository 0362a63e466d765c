"""What OpenCode loads by itself in one project, environment and cwd, as a host profile.

Its startup rule is per name, not per directory: of AGENTS.md, CLAUDE.md and CONTEXT.md the first name
found anywhere from the cwd up to the worktree wins, and only files of that name load. Where every
directory of that chain agrees (its first file has the winning name, the common case), the profile's
one-file-per-directory rule says the same. Where they do not (AGENTS.md in the cwd, only CLAUDE.md
above), the profile keeps the winning name alone: then a nested file OpenCode attaches after a read may
arrive twice, but none is taken for loaded that was not. The user file is the first that exists of
`~/.config/opencode/AGENTS.md` and `~/.claude/CLAUDE.md`; OPENCODE_DISABLE_CLAUDE_CODE(_PROMPT) drops
the CLAUDE.md names; OPENCODE_DISABLE_PROJECT_CONFIG loads no project file at start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from jitctx.clients.opencode.profile import CLAUDE_FILE, DIR_FILES, PROFILE, USER_CLAUDE
from jitctx.paths import is_inside, relative_posix
from jitctx.profiles import Profile


def config_home(home: str, environ: Mapping[str, str]) -> Path:
    """OpenCode's user config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`."""
    xdg = environ.get("XDG_CONFIG_HOME")
    if xdg:  # as OpenCode takes it (xdg-basedir): any value set
        return Path(xdg) / "opencode"
    return Path(home) / ".config" / "opencode"


CLAUDE_SWITCHES = ("OPENCODE_DISABLE_CLAUDE_CODE", "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT")
PROJECT_SWITCH = "OPENCODE_DISABLE_PROJECT_CONFIG"


def _on(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true")


def claude_files_off(environ: Mapping[str, str]) -> bool:
    return any(_on(environ.get(name)) for name in CLAUDE_SWITCHES)


def _user_files(home: str | None, environ: Mapping[str, str], claude: bool) -> tuple[str, ...]:
    if not home:
        return ()
    agents = str(config_home(home, environ) / "AGENTS.md")
    places = [agents, *([os.path.join(home, USER_CLAUDE)] if claude else [])]
    for place in places:
        if os.path.isfile(place):
            real = os.path.realpath(place)
            if is_inside(real, os.path.realpath(home)):
                return (relative_posix(real, os.path.realpath(home)),)
            return ()  # outside the home a profile cannot name it: jitctx sends it (a duplicate at worst)
    return ()


def _chain(root: str, cwd: str) -> list[str]:
    """The directories from the root down to the cwd (the root alone when the cwd is outside it)."""
    real = os.path.realpath(cwd)
    if not is_inside(real, root):
        return [root]
    rel = relative_posix(real, root)
    parts = rel.split("/") if rel else []
    return [os.path.join(root, *parts[:depth]) for depth in range(len(parts) + 1)]


def host_profile(root: str, environ: Mapping[str, str], home: str | None, cwd: str | None) -> Profile:
    claude = not claude_files_off(environ)
    names = tuple(name for name in DIR_FILES if claude or name != CLAUDE_FILE)
    profile = replace(
        PROFILE, dir_files=names, native_files=names, user_files=_user_files(home, environ, claude)
    )
    if _on(environ.get(PROJECT_SWITCH)):
        # No project file at start; its read tool still attaches nested ones, which may then arrive twice.
        return replace(profile, dir_files=(), native_files=())
    if cwd is None:
        return profile
    firsts = []
    for directory in _chain(root, cwd):
        first = next((n for n in names if os.path.isfile(os.path.join(directory, n))), None)
        if first is not None:
            firsts.append(first)
    winner = next((n for n in names if n in firsts), None)
    if winner is None or all(first == winner for first in firsts):
        return profile
    return replace(profile, dir_files=(winner,), native_files=(winner,))
