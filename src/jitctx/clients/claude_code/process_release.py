"""The Claude Code release that runs this hook, from the client process itself.

The transcript names its release from the first assistant record on, but a hook can fire before that
record exists (the first tool call of `claude -p`, 34 ms after start in one run). The client process
exists at every call: the hook's ancestors (the hook runs under a shell Claude Code started) include it,
and its executable says the release without running it:

* npm's packages keep it in their `package.json` (`@anthropic-ai/claude-code/bin/claude.exe`, the
  platform package `@anthropic-ai/claude-code-linux-x64/claude`, or `cli.js` run by node);
* the native installer keeps each release in a folder named for it (`.../claude/versions/2.1.332`).

Only Linux's /proc is read; elsewhere, or when no ancestor is Claude Code, the release is unknown.
"""

from __future__ import annotations

import json
import os
import re

from jitctx.clients.claude_code.transcript import Release
from jitctx.safe_open import read_regular

MAX_ANCESTORS = 8
PACKAGE_PREFIX = "@anthropic-ai/claude-code"
_RELEASE = re.compile(r"(\d{1,4})\.(\d{1,4})\.(\d{1,6})")


def release_of_process(pid: int | None) -> Release | None:
    """The release of the nearest Claude Code process among `pid` and its ancestors, or None."""
    seen = 0
    while pid is not None and pid > 1 and seen < MAX_ANCESTORS:
        seen += 1
        for program in _programs(pid):
            release = release_of_program(program)
            if release is not None:
                return release
        pid = _parent(pid)
    return None


def _programs(pid: int) -> list[str]:
    """The executable of a process, and the script it runs when that is node (`node .../cli.js`)."""
    programs = []
    try:
        programs.append(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read(8192).split(b"\0")
    except OSError:
        words = []
    programs += [w.decode("utf-8", "replace") for w in words[:3] if w.startswith(b"/") and b"claude" in w]
    return programs


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read(4096)
    except OSError:
        return None
    fields = stat.rsplit(b")", 1)[-1].split()  # the name in parentheses may hold spaces
    try:
        return int(fields[1])
    except (IndexError, ValueError):
        return None


def release_of_program(path: str) -> Release | None:
    """The release a Claude Code executable or script belongs to, from the files around it."""
    if "claude" not in path.lower():
        return None
    directory = os.path.dirname(path)
    for _ in range(4):  # bin/claude.exe -> the package; cli.js -> the package
        release = _package_release(os.path.join(directory, "package.json"))
        if release is not None:
            return release
        found = _RELEASE.fullmatch(os.path.basename(directory))
        if found is not None and "versions" in directory.split(os.sep):
            return _triple(found)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    found = _RELEASE.fullmatch(os.path.basename(path))  # `.../versions/2.1.332` as the file itself
    return _triple(found) if found is not None else None


def _package_release(path: str) -> Release | None:
    data = read_regular(path, 1 << 16)
    if data is None:
        return None
    try:
        package = json.loads(data)
    except ValueError:
        return None
    if not isinstance(package, dict) or not str(package.get("name", "")).startswith(PACKAGE_PREFIX):
        return None
    found = _RELEASE.match(str(package.get("version", "")))
    return _triple(found) if found is not None else None


def _triple(found: re.Match[str]) -> Release:
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch
