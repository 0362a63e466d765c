"""`jitctx install|uninstall CLIENT`: add or remove jitctx's hooks in a client's settings file.

Both commands use this module; `configure` tells them apart by the parser's name. The help is in
`install_help`, the read-change-write of one file in `install_rewrite`, the MCP server entry in
`install_server`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.cli.common import add_json, add_root, print_json, table
from jitctx.cli.state import add_state_dir, state_dir
from jitctx.clients.doctor_kit import COMMITTED_SCOPE, in_active_virtualenv, machine_specific
from jitctx.errors import UsageError

if TYPE_CHECKING:
    from jitctx.cli.install_server import ServerChange
    from jitctx.clients.base import Client
    from jitctx.clients.settings_file import Change


def configure(parser: argparse.ArgumentParser) -> None:
    from jitctx.cli.install_help import UNINSTALL_HELP, install_help
    from jitctx.clients import all_clients

    removing = parser.prog.endswith("uninstall")
    parser.set_defaults(uninstall=removing)
    parser.epilog = UNINSTALL_HELP if removing else install_help()
    parser.add_argument("agent", choices=all_clients.choices(), help="the agent whose settings to change")
    parser.add_argument(
        "--scope",
        choices=("project", "local", "user"),
        default="project",
        help="which settings file (default: project; 'local' is Claude Code only), see below",
    )
    add_root(parser)
    add_state_dir(parser)
    parser.add_argument("--dry-run", action="store_true", help="show the change as a diff; write nothing")
    if not removing:
        # dest is not "command": main's subparsers already keep the command name there.
        parser.add_argument(
            "--command", dest="hook_command", metavar="CMD", help="the hook command to register (see below)"
        )
        parser.add_argument(
            "--transport",
            choices=("command", "mcp"),
            default="command",
            help="claude-code: 'mcp' answers tool calls and prompts from the `jitctx mcp` server Claude Code "
            "keeps running, instead of a new process per event (see below)",
        )
        parser.add_argument(
            "--warm",
            action="store_true",
            help="command hooks hand their event to a jitctx process that stays up (`jitctx hook --warm`)",
        )
    add_json(parser)


def home_dir() -> str:
    """The home whose settings `--scope user` changes; a usage error when there is none."""
    from jitctx.cli.state import user_home

    home = user_home()
    if home is None:
        raise UsageError("there is no home directory (HOME unset, no passwd entry); set HOME or JITCTX_HOME")
    return home


def default_command(agent: str, scope: str = "user") -> str:
    """The hook command for `scope`'s settings file.

    The committed scope's file is shared with the team, so its command names no path of this machine:
    always `jitctx hook AGENT`, found on PATH wherever the agent runs (`portable_notes` says what that
    asks of each machine). The other scopes stay on this machine and take whatever runs here from any
    shell: `jitctx hook AGENT` when jitctx is on PATH, the absolute path of a `jitctx` found only
    inside the active virtualenv (on PATH in this shell alone: the agent started from another shell
    would not find it), else this interpreter's `-m jitctx`."""
    if scope == COMMITTED_SCOPE:
        return f"jitctx hook {agent}"
    found = shutil.which("jitctx")
    if found:
        if in_active_virtualenv(found):
            return f"{shlex.quote(os.path.abspath(found))} hook {agent}"
        return f"jitctx hook {agent}"
    return f"{shlex.quote(sys.executable)} -m jitctx hook {agent}"


def project_root(root_arg: str | None) -> str:
    """The project the settings belong to: --root, else the nearest ancestor with a root marker."""
    from jitctx.paths import find_root
    from jitctx.profiles import ROOT_MARKERS

    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            raise UsageError(f"--root {root_arg!r} is not an existing directory")
        return root
    return find_root(os.getcwd(), ROOT_MARKERS)


def settings_file(agent: str, scope: str, root_arg: str | None) -> Path:
    root = project_root(root_arg)
    client = client_of(agent)
    if scope not in client.scopes:
        raise UsageError(
            f"--scope {scope} does not exist for {agent}; choose one of: {', '.join(client.scopes)}"
        )
    # Only the user scope lives in the home; the others are in the project. A client whose user scope
    # a variable moves ($CODEX_HOME) needs no home then.
    home = ""
    if scope == "user":
        from jitctx.cli.state import user_home

        home = user_home() or ""
    path = client.settings_path(scope, root, home, os.environ)
    if scope == "user" and not path.is_absolute():
        home_dir()  # raises the usage error that says there is no home
    return path


def client_of(agent: str) -> Client:
    from jitctx.clients import all_clients

    return all_clients.get(agent)


@dataclass(frozen=True)
class Outcome:
    path: Path
    command: str | None
    changes: tuple[Change, ...]
    changed: bool
    backup: Path | None
    diff: str
    removed: tuple[Path, ...] = ()  # the settings file and folders uninstall took away (install made them)
    server: ServerChange | None = None  # the MCP server entry, with --transport mcp (and on uninstall)


def run(args: argparse.Namespace) -> int:
    from jitctx.cli.install_rewrite import rewrite
    from jitctx.cli.install_server import register_server, without_warm
    from jitctx.clients import install_record
    from jitctx.clients import settings_file as settings
    from jitctx.clients.mcp_transport import APPROVALS, approve, withdraw

    path = settings_file(args.agent, args.scope, args.root)
    state = state_dir(args)
    mcp = getattr(args, "transport", "command") == "mcp"
    client = client_of(args.agent)
    args.agent = client.name  # an alias (`gemini`) installs the client's own entries
    if mcp and "mcp" not in client.transports:
        with_mcp = [c.name for c in _clients() if "mcp" in c.transports]
        raise UsageError(
            f"--transport mcp is for {', '.join(with_mcp)}: {client.title} hooks can only run commands"
        )
    if mcp and args.scope == "local":
        raise UsageError(
            "--transport mcp takes --scope project (the server in <root>/.mcp.json) or --scope user "
            "(in ~/.claude.json); Claude Code keeps local-scope servers inside ~/.claude.json per project"
        )
    command: str | None = None
    if not args.uninstall:
        command = args.hook_command or default_command(args.agent, args.scope)
        if not settings.is_jitctx_command(command, args.agent):
            raise UsageError(
                f"--command {command!r} must run `jitctx hook {args.agent}`: that is how jitctx recognises "
                "its own entries when it updates or removes them"
            )
        if args.warm and not settings.is_warm_command(command):
            command += " --warm"
    if client.hooks_file:  # a plugin file of jitctx's own, not entries in a settings file
        done_file = client.install_file(path, command, state, args.dry_run)
        outcome = Outcome(
            path, command, done_file.changes, done_file.changed, done_file.backup, done_file.diff,
            done_file.removed,
        )  # fmt: skip
        if args.json:
            print_json(_document(args, outcome))
        else:
            _human(args, outcome)
        return 0
    serving = "mcp" in client.transports and args.scope != "local"
    server_path = None
    if serving:
        from jitctx.clients.mcp_transport import server_file

        home = home_dir() if args.scope == "user" else ""
        server_path = Path(server_file(args.scope, str(path.parent.parent), home))  # <root>/.claude/...
    approving = mcp and command is not None and args.scope == "project"
    approval_added = install_record.was_added(state, path, "approval")
    changes: list[Change] = []
    server: ServerChange | None = None

    def change(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        nonlocal changes, server
        if command is None:
            after, changes = settings.uninstall(data, args.agent)
        else:
            after, changes = settings.install(
                data, client.entries("mcp" if mcp else "command"), command, args.agent
            )
        if approving:
            try:
                after = approve(after)
            except ValueError as exc:
                raise UsageError(f"{path}: {exc}; not changed") from None
        elif approval_added:
            after = withdraw(after)
        # The server before the settings that ask it: a problem with it (no MCP SDK, a server of that
        # name that is not ours) stops the install before any file is written. Only what jitctx added
        # is ever taken away again (uninstall, or an install back to the command transport).
        if server_path is not None and mcp and command is not None:
            server = register_server(
                server_path, without_warm(command), state, agent=args.agent, dry_run=args.dry_run
            )
        elif server_path is not None and install_record.was_added(state, server_path, "mcp-server"):
            server = register_server(server_path, None, state, agent=args.agent, dry_run=args.dry_run)
        return after, any(c.action != "kept" for c in changes) or after != data

    done = rewrite(path, state, dry_run=args.dry_run, adding=command is not None, change=change)
    if done.changed and not args.dry_run:
        if approving and done.after_data.get(APPROVALS) != done.data.get(APPROVALS):
            install_record.note_added(state, path, "approval")  # added by jitctx, not the user's
        elif approval_added and not approving:
            install_record.forget_added(state, path, "approval")
    outcome = Outcome(
        path, command, tuple(changes), done.changed, done.backup, done.diff, done.removed, server
    )
    if args.json:
        print_json(_document(args, outcome))
    else:
        _human(args, outcome)
    return 0


def _document(args: argparse.Namespace, outcome: Outcome) -> dict[str, Any]:
    from jitctx.clients.settings_file import is_warm_command

    return {
        "agent": args.agent,
        "action": "uninstall" if args.uninstall else "install",
        "scope": args.scope,
        "settings_path": str(outcome.path),  # absolute: `path` is always relative to a project root
        "command": outcome.command,
        "dry_run": args.dry_run,
        "changed": outcome.changed,
        "written": outcome.changed and not args.dry_run,
        "backup": str(outcome.backup) if outcome.backup is not None else None,
        "removed": [str(p) for p in outcome.removed],
        "changes": [{"event": c.event, "action": c.action, "matcher": c.matcher} for c in outcome.changes],
        "diff": outcome.diff,
        "transport": getattr(args, "transport", None),
        "warm": None if outcome.command is None else is_warm_command(outcome.command),
        "mcp_server": None
        if outcome.server is None
        else {
            "path": str(outcome.server.path),
            "action": outcome.server.action,
            "backup": str(outcome.server.backup) if outcome.server.backup is not None else None,
            "diff": outcome.server.diff,
        },
    }


def _human(args: argparse.Namespace, outcome: Outcome) -> None:
    from jitctx.clients.checks import command_program

    path = outcome.path
    server = outcome.server
    if args.dry_run:
        print(
            outcome.diff if outcome.changed else f"{path}: nothing to change",
            end="" if outcome.changed else "\n",
        )
        if server is not None and server.diff:
            print(server.diff, end="")
        print(f"jitctx: dry run, {path} not written", file=sys.stderr)
        return
    if server is not None and server.action != "kept":
        where = "from" if server.action == "removed" else "in"
        print(f"jitctx: MCP server jitctx {server.action} {where} {server.path}", file=sys.stderr)
        if server.backup:
            print(f"jitctx: previous version kept as {server.backup}", file=sys.stderr)
        for gone in server.removed:
            print(f"jitctx: deleted {gone} (jitctx created it; nothing else was in it)", file=sys.stderr)
    if outcome.changes:
        rows = [
            [c.event, "-" if c.action == "removed" else c.matcher or "*", c.action] for c in outcome.changes
        ]
        print(table(["event", "matcher", "action"], rows))
    if not outcome.changed:
        what = "no jitctx hooks to remove" if args.uninstall else "already installed"
        print(f"jitctx: {path}: {what}; file not written", file=sys.stderr)
        return
    verb = "removed" if args.uninstall else "installed"
    print(f"jitctx: {verb} hooks for {args.agent} in {path}", file=sys.stderr)
    root = project_root(args.root)
    if outcome.backup:
        print(f"jitctx: previous version kept as {outcome.backup}", file=sys.stderr)
    for gone in outcome.removed:
        print(f"jitctx: deleted {gone} (jitctx created it; nothing else was in it)", file=sys.stderr)
    client = client_of(args.agent)
    if outcome.command:
        print(f"jitctx: hook command: {outcome.command}", file=sys.stderr)
        program = command_program(outcome.command) or ""
        if args.scope == COMMITTED_SCOPE:
            for note in portable_notes(client, program, path, root):
                print(note, file=sys.stderr)
        elif os.path.isabs(program) and in_active_virtualenv(program):
            print(
                "jitctx: (an absolute path: jitctx is on PATH only in this virtualenv, and the agent may be "
                "started from another shell)",
                file=sys.stderr,
            )
    if client.install_note and not args.uninstall:
        print(client.install_note, file=sys.stderr)
    elsewhere = _started_elsewhere(client, args.scope, root)
    if elsewhere is not None and not args.uninstall:
        print(elsewhere, file=sys.stderr)


def portable_notes(client: Client, program: str, path: Path, root: str) -> list[str]:
    """What the committed command asks of each machine, and what is amiss with it on this one."""
    others = " or ".join(f"--scope {scope}" for scope in client.scopes if scope != COMMITTED_SCOPE)
    keep = f", or install with {others} (this machine only) to run this machine's jitctx" if others else ""
    why = machine_specific(program, root)
    if why is not None:  # an explicit --command
        return [
            f"jitctx: warning: {path} is committed, and {program} is {why}: on a teammate's machine "
            f"the hook points at nothing; drop --command{keep}"
        ]
    notes = [
        f"jitctx: {path} is committed, shared with the team, so the command names no path of this "
        "machine: everyone who runs the agent here needs jitctx on PATH (pipx install jitctx, or "
        "uv tool install jitctx)"
    ]
    if os.path.isabs(program) or program != "jitctx":
        return notes
    found = shutil.which("jitctx")
    if found is None:
        notes.append(f"jitctx: warning: jitctx is not on PATH here either: install it as above{keep}")
    elif in_active_virtualenv(found):
        notes.append(
            f"jitctx: warning: here jitctx is on PATH only through the active virtualenv ({found}): start "
            f"the agent from a shell where it is active, install jitctx as above{keep}"
        )
    elif not _is_this_install(found):
        notes.append(f"jitctx: note: the hook runs the jitctx on PATH here, {found}, not {sys.executable}")
    return notes


def _is_this_install(program: str) -> bool:
    """Is `program` this installation's `jitctx` script (in its interpreter's folder, or started by it)?"""
    here = os.path.dirname(sys.executable)
    if here in (os.path.dirname(os.path.abspath(program)), os.path.dirname(os.path.realpath(program))):
        return True
    try:
        with open(program, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return False
    return first.startswith(b"#!") and os.fsencode(sys.executable) in first


def _started_elsewhere(client: Client, scope: str, root: str) -> str | None:
    """Said when the project's settings go to a folder above this one, and the client, started here,
    would not read them (it reads project settings where it starts)."""
    if scope == "user" or not client.settings_where_started:
        return None
    folder = root
    from jitctx.paths import is_inside

    here, base = os.path.realpath(os.getcwd()), os.path.realpath(folder)
    if here == base or not is_inside(here, base):
        return None
    return (
        f"jitctx: {client.title} reads project settings only in the folder it starts in: started here "
        f"({here}) it runs no hook from {folder}. Start it at {folder}, or install with --scope user."
    )


def _clients() -> list[Client]:
    from jitctx.clients import all_clients

    return all_clients.every()
