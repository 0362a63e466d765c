"""The `jitctx` MCP server entry that `jitctx install --transport mcp` adds (and uninstall removes) in
.mcp.json or ~/.claude.json, next to the hooks that ask it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jitctx.cli.install_rewrite import rewrite
from jitctx.clients.kit import install_record
from jitctx.clients.kit.mcp_transport import MCP_SERVER, add_server, remove_server, server_spec
from jitctx.errors import UsageError
from jitctx.hook.transports.mcp.server import load_sdk

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class ServerChange:
    path: Path  # .mcp.json or ~/.claude.json
    action: str  # "added", "updated", "kept" or "removed"
    backup: Path | None
    diff: str
    removed: tuple[Path, ...] = ()  # .mcp.json, when jitctx had made it and removing the server emptied it


def without_warm(command: str) -> str:
    """The hook command without a final --warm: the MCP server is the same program with `mcp`."""
    return command.removesuffix(" --warm").rstrip()


def register_server(
    path: Path, command: str | None, state: Path, *, agent: str, dry_run: bool
) -> ServerChange | None:
    """Add (a command given) or remove (None) the `jitctx` MCP server entry of `path` (.mcp.json or
    ~/.claude.json); None when a removal finds none."""
    if command is None and not path.exists():
        install_record.forget_added(state, path, "mcp-server")
        return None
    spec: dict[str, Any] = {}
    if command is not None:
        load_sdk()  # the server needs the extra `jitctx[mcp]`: a UsageError naming it when it is missing
        try:
            spec = server_spec(command, agent)
        except ValueError:
            raise UsageError(
                f"--transport mcp needs a hook command that ends in `hook {agent}` (the server runs the "
                f"same program with `mcp`), not {command!r}"
            ) from None

    def change(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        try:
            return remove_server(data) if command is None else add_server(data, spec)
        except ValueError as exc:
            raise UsageError(f"{path}: {exc}; not changed") from None

    done = rewrite(path, state, dry_run=dry_run, adding=command is not None, change=change)
    servers = done.data.get("mcpServers")
    had = isinstance(servers, dict) and MCP_SERVER in servers
    if command is None and not done.changed:
        if not dry_run:
            install_record.forget_added(state, path, "mcp-server")  # gone already: nothing to note
        return None
    action = "kept" if not done.changed else "removed" if command is None else "updated" if had else "added"
    if done.changed and not dry_run:
        if command is None:
            install_record.forget_added(state, path, "mcp-server")
        elif not had:  # a server entry the user had is theirs, even where jitctx rewrote it
            install_record.note_added(state, path, "mcp-server")
    return ServerChange(path, action, done.backup, done.diff, done.removed)
