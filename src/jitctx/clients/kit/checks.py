"""The checks of `jitctx doctor` every client shares, as functions of what was read: settings files, the
state dir, the hook log. A client's own checks live in its folder (`Setup.doctor`).
"""

from __future__ import annotations

import calendar
import os
import re
import shlex
import stat
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jitctx.clients.kit.hook_command import is_jitctx_command, unguard
from jitctx.clients.kit.mcp_transport import is_jitctx_mcp_handler
from jitctx.clients.kit.settings_file import speaks_mcp

OK, WARN, PROBLEM, SKIP = "ok", "warn", "problem", "skip"


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked for which client, and how it went."""

    client: str  # a client's registry name, or "jitctx"
    name: str
    status: str  # OK, WARN, PROBLEM or SKIP
    detail: str
    fix: str = ""

    def as_json(self) -> dict[str, str]:
        return {
            "client": self.client,
            "check": self.name,
            "status": self.status,
            "detail": self.detail,
            "fix": self.fix,
        }


@dataclass(frozen=True)
class Handler:
    """A jitctx handler found in a settings file, with its place (a client may key its trust by it)."""

    event: str
    group: int
    index: int
    matcher: str | None
    command: str
    fields: Mapping[str, Any]


# The `command` of a Handler that asks the running `jitctx mcp` server (an mcp_tool hook).
MCP_HANDLER = "mcp_tool jitctx.hook_event"


def our_handlers(data: Mapping[str, Any], agent: str) -> list[Handler]:
    """jitctx's handlers for `agent` in a parsed settings file, in file order; an mcp_tool handler of ours
    has MCP_HANDLER for its command."""
    found: list[Handler] = []
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            matcher = group.get("matcher")
            for h, handler in enumerate(group["hooks"]):
                if not isinstance(handler, dict):
                    continue
                if is_jitctx_command(handler.get("command"), agent):
                    command = handler["command"]
                elif speaks_mcp(agent) and is_jitctx_mcp_handler(handler):
                    command = MCP_HANDLER
                else:
                    continue
                found.append(
                    Handler(event, g, h, matcher if isinstance(matcher, str) else None, command, handler)
                )
    return found


def missing_events(handlers: Iterable[Handler], wanted: Iterable[str]) -> list[str]:
    have = {h.event for h in handlers}
    return [event for event in wanted if event not in have]


def snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


# -- command, state dir, hook log ----------------------------------------------------------------------


def command_program(command: str) -> str | None:
    """The program a hook command starts (after `env A=1`; inside a guarded command, the one it guards),
    None when the command cannot be split."""
    try:
        words = shlex.split(unguard(command))
    except ValueError:
        return None
    words = [w for w in words if w != "env" and not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", w)]
    return words[0] if words else None


def state_dir_check(path: Path, uid: int) -> Check:
    """The state dir holds what every session read: it must be a directory of ours nobody else enters."""
    name = "state dir"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and os.access(parent, os.W_OK | os.X_OK):
            return Check("jitctx", name, OK, f"{path} (not created yet; the first hook creates it 0700)")
        return Check(
            "jitctx",
            name,
            PROBLEM,
            f"{path} does not exist and cannot be created",
            "set JITCTX_STATE_DIR to a directory of yours",
        )
    except OSError as exc:
        return Check("jitctx", name, PROBLEM, f"{path}: {exc.strerror}", "set JITCTX_STATE_DIR")
    if not stat.S_ISDIR(info.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a directory"
        return Check("jitctx", name, PROBLEM, f"{path} is {kind}", "move it away, or set JITCTX_STATE_DIR")
    if info.st_uid != uid:
        return Check(
            "jitctx",
            name,
            PROBLEM,
            f"{path} belongs to uid {info.st_uid}, not to you (uid {uid})",
            "set JITCTX_STATE_DIR to a directory of yours",
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        return Check(
            "jitctx",
            name,
            PROBLEM,
            f"{path} is {mode:04o}: others can read what sessions loaded",
            f"chmod 700 '{path}'",
        )
    if not os.access(path, os.W_OK | os.X_OK):
        return Check("jitctx", name, PROBLEM, f"{path} is not writable", f"chmod 700 '{path}'")
    return Check("jitctx", name, OK, f"{path} (0700, yours, writable)")


LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)Z (\S+): (.*)$")
RECENT_S = 24 * 3600


def hook_log_check(text: str | None, path: Path, now: float, shown: int = 3) -> Check:
    """The last hook errors of `<state dir>/hook.log`; errors of the last 24 hours are a problem."""
    name = "hook errors"
    if not text or not text.strip():
        return Check("jitctx", name, OK, f"none logged ({path})")
    lines = [line for line in text.splitlines() if line.strip()]
    recent: list[str] = []
    last_stamp = ""
    for line in lines:
        found = LOG_LINE.match(line)
        if not found:
            continue
        last_stamp = found.group(1)
        try:
            when = calendar.timegm(time.strptime(found.group(1), "%Y-%m-%dT%H:%M:%S"))
        except (ValueError, OverflowError):
            continue
        if now - when <= RECENT_S:
            recent.append(line)
    if not recent:
        last = f"; the last at {last_stamp}Z" if last_stamp else ""
        return Check("jitctx", name, OK, f"none in the last 24 hours{last} ({path})")
    tail = " | ".join(line[:300] for line in recent[-shown:])
    return Check(
        "jitctx",
        name,
        PROBLEM,
        f"{len(recent)} in the last 24 hours ({path}); last: {tail}",
        f"read {path}: each line is a hook call that answered {{}} (no context) because of that error",
    )
