"""`jitctx install|uninstall CLIENT`: add or remove jitctx's hooks in a client's settings file.

Both commands use this module; `configure` tells them apart by the parser's name.
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
from jitctx.clients.doctor_kit import in_active_virtualenv
from jitctx.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from jitctx.clients.base import Client
    from jitctx.clients.settings_file import Change


INSTALL_HELP = """\
Merges jitctx's hook entries into the agent's settings file and leaves everything else in it as it was.
Installing twice changes nothing (the file is not even rewritten). Before any change the old file is copied
to the state dir, <state dir>/settings-backups/<folder>-<hash>/NAME.bak-<timestamp> (out of the repository;
the output names it). A file that is not valid JSON, not a JSON object, or whose 'hooks' has the wrong
type is refused (exit 2) and left alone; so is a settings file or folder that is a dangling symlink.
Values jitctx does not change keep their text, numbers included.

Where the entries go:
  claude-code  --scope project  <root>/.claude/settings.json        (committed, shared with the team)
               --scope local    <root>/.claude/settings.local.json  (this checkout only)
               --scope user     ~/.claude/settings.json             (every project)
  codex        --scope project  <root>/.codex/hooks.json
               --scope user     ~/.codex/hooks.json ($CODEX_HOME/hooks.json when set)

The command written is `jitctx hook AGENT` when `jitctx` is on PATH; the absolute path of that `jitctx`
when it is on PATH only through the active virtualenv ($VIRTUAL_ENV), so that the agent finds it when
started from another shell; else the absolute `PYTHON -m jitctx hook AGENT` of this installation.
--command replaces it. Codex runs a new hook only after you trust it: open /hooks in Codex once after
installing; `jitctx doctor` shows whether Codex recorded that trust.

--transport mcp (claude-code, project or user scope): PostToolBatch, UserPromptSubmit and SubagentStart
become `mcp_tool` hooks answered by the `jitctx mcp` server, which Claude Code starts with the session and
keeps (stdio: no port, nothing another user can reach), so a tool call costs no new process. The server
is registered as `jitctx` in <root>/.mcp.json (approved in the settings file by enabledMcpjsonServers) or,
for --scope user, in ~/.claude.json. SessionStart and InstructionsLoaded stay commands: Claude Code cannot
ask an MCP server at session start, and discards InstructionsLoaded answers. Needs the extra
`jitctx[mcp]`. uninstall removes both kinds of entry and the server.

--warm writes `jitctx hook AGENT --warm` for every command hook (with --transport mcp, the ones that stay
commands): each hook process hands its event to a jitctx process of yours that stays up, and starts about
as fast as `python -c pass` plus a socket round trip (see `jitctx hook --help`). Installing without --warm
takes it away again.

examples:
  jitctx install claude-code --dry-run
  jitctx install claude-code --transport mcp
  jitctx install codex --warm
  jitctx install claude-code --scope user
  jitctx install codex --root ~/src/app --json
"""

UNINSTALL_HELP = """\
Removes jitctx's hook entries (commands running `jitctx hook AGENT`) from the agent's settings file and
nothing else; a matcher group or event left empty by that goes too. The old file is kept in the state
dir, as install does. A settings file that install created and that is left empty (`{}`) is deleted, and
so is a folder made for it (`.claude/`) when nothing else is in it. Same scopes and paths as `jitctx install`.

examples:
  jitctx uninstall claude-code --dry-run
  jitctx uninstall codex --scope user
"""


def configure(parser: argparse.ArgumentParser) -> None:
    removing = parser.prog.endswith("uninstall")
    parser.set_defaults(uninstall=removing)
    parser.epilog = UNINSTALL_HELP if removing else INSTALL_HELP
    from jitctx.clients import all_clients

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


def default_command(agent: str) -> str:
    """`jitctx hook AGENT` when jitctx is on PATH (portable across machines), else this interpreter's.

    A `jitctx` found only inside the active virtualenv is on PATH in this shell alone: the agent started
    from another shell would not find it, so its absolute path is written instead."""
    found = shutil.which("jitctx")
    if found:
        if in_active_virtualenv(found):
            return f"{shlex.quote(os.path.abspath(found))} hook {agent}"
        return f"jitctx hook {agent}"
    return f"{shlex.quote(sys.executable)} -m jitctx hook {agent}"


def settings_file(agent: str, scope: str, root_arg: str | None) -> Path:
    from jitctx.discovery.boundary import find_root
    from jitctx.profiles import ROOT_MARKERS

    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            raise UsageError(f"--root {root_arg!r} is not an existing directory")
    else:
        root = find_root(os.getcwd(), ROOT_MARKERS)
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


@dataclass(frozen=True)
class ServerChange:
    path: Path  # .mcp.json or ~/.claude.json
    action: str  # "added", "updated", "kept" or "removed"
    backup: Path | None
    diff: str
    removed: tuple[Path, ...] = ()  # .mcp.json, when jitctx had made it and removing the server emptied it


def run(args: argparse.Namespace) -> int:
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
        command = args.hook_command or default_command(args.agent)
        if not settings.is_jitctx_command(command, args.agent):
            raise UsageError(
                f"--command {command!r} must run `jitctx hook {args.agent}`: that is how jitctx recognises "
                "its own entries when it updates or removes them"
            )
        if args.warm and not settings.is_warm_command(command):
            command += " --warm"
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
            server = _register_server(args, server_path, _without_warm(command), state)
        elif server_path is not None and install_record.was_added(state, server_path, "mcp-server"):
            server = _register_server(args, server_path, None, state)
        return after, any(c.action != "kept" for c in changes) or after != data

    done = _rewrite(path, state, dry_run=args.dry_run, adding=command is not None, change=change)
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


def _without_warm(command: str) -> str:
    """The hook command without a final --warm: the MCP server is the same program with `mcp`."""
    return command.removesuffix(" --warm").rstrip()


@dataclass(frozen=True)
class Rewrite:
    """One JSON file of the agent's as `_rewrite` left it."""

    data: dict[str, Any]  # as it was
    after_data: dict[str, Any]
    changed: bool
    backup: Path | None
    diff: str
    removed: tuple[Path, ...]  # the file and folders jitctx had made, taken away once left empty


def _rewrite(
    path: Path,
    state: Path,
    *,
    dry_run: bool,
    adding: bool,
    change: Callable[[dict[str, Any]], tuple[dict[str, Any], bool]],
) -> Rewrite:
    """Read, change and write one settings-like file under one lock (a concurrent install would otherwise
    lose this change), keeping a backup in the state dir. A file jitctx creates is noted; one it changes
    for a removal (`adding` False) is deleted with its folders when jitctx had made it and it is left empty.
    `change` may raise UsageError: nothing is written then."""
    from jitctx.clients import install_record
    from jitctx.clients import settings_file as settings

    missing = install_record.missing_folders(path)
    with settings.locked(path, create=adding and not dry_run):
        before, data = settings.read_settings(path)
        after_data, changed = change(data)
        after = settings.dump(after_data, before) if changed else (before or "")
        backup = None
        removed: tuple[Path, ...] = ()
        if changed and not dry_run:
            backup = settings.write_settings(
                path, before, after, lambda content: install_record.save_backup(state, path, content)
            )
            if before is None and adding:
                install_record.note_created(state, path, missing)
            elif not adding:
                removed = _clean_up(state, path, after_data)
    diff = settings.diff(before, after, path) if changed else ""
    return Rewrite(data, after_data, changed, backup, diff, removed)


def _clean_up(state: Path, path: Path, after: dict[str, Any]) -> tuple[Path, ...]:
    """After an uninstall: a settings file jitctx created and left as `{}` goes, with the folders made
    for it when they are empty. A file the user had, or one with anything else in it, stays."""
    from jitctx.clients import install_record

    folders = install_record.created_note(state, path)
    if folders is None:
        return ()
    install_record.forget_created(state, path)
    if after or path.is_symlink():
        return ()
    return tuple(install_record.remove_created(path, folders))


def _register_server(
    args: argparse.Namespace, path: Path, command: str | None, state: Path
) -> ServerChange | None:
    """Add (install) or remove (uninstall) the `jitctx` MCP server entry of `path` (.mcp.json or
    ~/.claude.json); None when a removal finds none."""
    from jitctx.clients import install_record
    from jitctx.clients.mcp_transport import MCP_SERVER, add_server, remove_server, server_spec

    if command is None and not path.exists():
        install_record.forget_added(state, path, "mcp-server")
        return None
    spec: dict[str, Any] = {}
    if command is not None:
        from jitctx.hook.mcp_server import load_sdk

        load_sdk()  # the server needs the extra `jitctx[mcp]`: a UsageError naming it when it is missing
        try:
            spec = server_spec(command, args.agent)
        except ValueError:
            raise UsageError(
                f"--transport mcp needs a hook command that ends in `hook {args.agent}` (the server runs the "
                f"same program with `mcp`), not {command!r}"
            ) from None

    def change(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        try:
            return remove_server(data) if command is None else add_server(data, spec)
        except ValueError as exc:
            raise UsageError(f"{path}: {exc}; not changed") from None

    done = _rewrite(path, state, dry_run=args.dry_run, adding=command is not None, change=change)
    servers = done.data.get("mcpServers")
    had = isinstance(servers, dict) and MCP_SERVER in servers
    if command is None and not done.changed:
        if not args.dry_run:
            install_record.forget_added(state, path, "mcp-server")  # gone already: nothing to note
        return None
    action = "kept" if not done.changed else "removed" if command is None else "updated" if had else "added"
    if done.changed and not args.dry_run:
        if command is None:
            install_record.forget_added(state, path, "mcp-server")
        elif not had:  # a server entry the user had is theirs, even where jitctx rewrote it
            install_record.note_added(state, path, "mcp-server")
    return ServerChange(path, action, done.backup, done.diff, done.removed)


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
    if outcome.backup:
        print(f"jitctx: previous version kept as {outcome.backup}", file=sys.stderr)
    for gone in outcome.removed:
        print(f"jitctx: deleted {gone} (jitctx created it; nothing else was in it)", file=sys.stderr)
    if outcome.command:
        print(f"jitctx: hook command: {outcome.command}", file=sys.stderr)
        program = shlex.split(outcome.command)[0]
        if os.path.isabs(program) and in_active_virtualenv(program):
            print(
                "jitctx: (an absolute path: jitctx is on PATH only in this virtualenv, and the agent may be "
                "started from another shell)",
                file=sys.stderr,
            )
    note = client_of(args.agent).install_note
    if note and not args.uninstall:
        print(note, file=sys.stderr)


def _clients() -> list[Client]:
    from jitctx.clients import all_clients

    return all_clients.every()
