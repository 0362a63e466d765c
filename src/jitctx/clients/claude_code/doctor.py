"""Claude Code's own doctor checks: `disableAllHooks`, the `jitctx mcp` server of `--transport mcp`, the
jitctx plugin, and jitctx's status line when it is set."""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.claude_code.hooks import settings_path
from jitctx.clients.claude_code.plugin import plugin_checks
from jitctx.clients.kit.checks import MCP_HANDLER, OK, PROBLEM, WARN, Check, Handler
from jitctx.clients.kit.doctor_kit import command_check, launch_dir_check, settings_checks, settings_data
from jitctx.clients.kit.mcp_transport import APPROVALS, MCP_SERVER, is_jitctx_server, server_file
from jitctx.clients.kit.status_line import status_line_checks

if TYPE_CHECKING:
    from jitctx.clients.base import Setup


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    places = [(scope, settings_path(scope, root, home or "")) for scope in ("project", "local")]
    if home:
        places.append(("user", settings_path("user", root, home)))

    def disabled(data: dict[str, Any], path: Path, name: str) -> list[Check]:
        if data.get("disableAllHooks") is not True:
            return []
        return [
            Check(
                setup.name,
                name,
                PROBLEM,
                f"{path}: disableAllHooks is true: Claude Code runs no hook at all",
                f"remove disableAllHooks from {path}",
            )
        ]

    def server(scope: str, path: Path, handlers: list[Handler]) -> list[Check]:
        if not any(handler.command == MCP_HANDLER for handler in handlers):
            return []
        return [mcp_server_check(setup.name, scope, root, home)]

    def plugin() -> tuple[list[Check], bool]:
        if not home:
            return [], False
        ordered = sorted(places, key=lambda place: place[0] != "user")  # user, then project, then local
        return plugin_checks(Path(home), [settings_data(path) for _, path in ordered])

    checks, installed = settings_checks(
        setup,
        places,
        settings_problems=disabled,
        scope_checks=server,
        plugin=plugin,
        last=status_line_checks(setup, places),
    )
    user = any(check.name == "hooks (user)" and check.status == OK for check in checks)
    launch = launch_dir_check(setup, root, os.getcwd(), user)
    return [*checks, *([launch] if launch is not None else [])], installed


def mcp_server_check(client: str, scope: str, root: str, home: str | None) -> Check:
    """mcp_tool hooks of ours need the `jitctx` MCP server where Claude Code reads it, runnable, and
    (in a project's .mcp.json) approved."""
    name = f"mcp server ({scope})"
    if scope == "user" and not home:
        return Check(client, name, PROBLEM, "no home directory for ~/.claude.json", "set HOME")
    path = Path(server_file(scope, root, home or ""))
    servers = settings_data(path).get("mcpServers")
    entry = servers.get(MCP_SERVER) if isinstance(servers, dict) else None
    fix = f"jitctx install {client} --scope {scope} --transport mcp"
    if not is_jitctx_server(entry):
        detail = f"the mcp_tool hooks ask server {MCP_SERVER!r}, which {path} does not define (as jitctx mcp)"
        return Check(client, name, PROBLEM, detail, fix)
    assert isinstance(entry, dict)
    server_command = shlex.join([entry["command"], *entry["args"]])
    program = command_check(client, server_command, scope)
    if program.status != OK:  # the server's program, checked as a hook command is
        return Check(client, name, program.status, f"{path}: {program.detail}", program.fix or fix)
    if scope != "user":
        approved = any(
            isinstance(names := settings_data(settings_path(s, root, "")).get(APPROVALS), list)
            and MCP_SERVER in names
            for s in ("project", "local")  # where a project's .mcp.json servers are approved
        )
        if not approved:
            detail = f"{path}: jitctx is not in {APPROVALS}; Claude Code asks to approve it on first start"
            return Check(client, name, WARN, detail, fix)
    return Check(client, name, OK, f"{path}: {server_command}")
