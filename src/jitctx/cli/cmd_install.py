"""`jitctx install|uninstall CLIENT`: add or remove jitctx's hooks in a client's settings file; without
CLIENT, in every client found on this machine (uninstall: every client), one failing leaving the others.

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
from jitctx.cli.install_help import UNINSTALL_HELP, install_help
from jitctx.cli.install_rewrite import rewrite
from jitctx.cli.install_server import register_server, without_warm
from jitctx.cli.install_status_line import StatusLineOutcome, notes, status_line_command, users_elsewhere
from jitctx.cli.state import add_state_dir, user_home
from jitctx.cli.state_paths import state_dir
from jitctx.clients import all_clients
from jitctx.clients.kit import hook_command as commands
from jitctx.clients.kit import install_record, status_line
from jitctx.clients.kit import settings_file as settings
from jitctx.clients.kit.checks import command_program
from jitctx.clients.kit.doctor_kit import (
    COMMITTED_SCOPE,
    INSTALL_FOR_USER,
    in_active_virtualenv,
    machine_specific,
    shared_phrase,
)
from jitctx.clients.kit.hook_command import is_guarded
from jitctx.clients.kit.mcp_transport import APPROVALS, approve, server_file, withdraw
from jitctx.clients.kit.settings_file import is_warm_command
from jitctx.clients.kit.status_line import REMOVED
from jitctx.errors import JitctxError, UsageError
from jitctx.paths import find_root, is_inside
from jitctx.profiles import ROOT_MARKERS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from jitctx.cli.install_server import ServerChange
    from jitctx.clients.base import Setup
    from jitctx.clients.kit.settings_file import Change


def configure(parser: argparse.ArgumentParser) -> None:
    removing = parser.prog.endswith("uninstall")
    parser.set_defaults(uninstall=removing)
    parser.epilog = UNINSTALL_HELP if removing else install_help()
    parser.add_argument(
        "agent",
        nargs="?",
        choices=all_clients.choices(),
        help="the agent whose settings to change (default: "
        + ("every agent, wherever jitctx's hooks are" if removing else "every agent found on this machine")
        + "; see below)",
    )
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
        parser.add_argument(
            "--statusline",
            action="store_true",
            help="also set the agent's status line to `jitctx statusline`, where it has one, unless you "
            "have one (see below)",
        )
    add_json(parser)


def home_dir() -> str:
    """The home whose settings `--scope user` changes; a usage error when there is none."""
    home = user_home()
    if home is None:
        raise UsageError("there is no home directory (HOME unset, no passwd entry); set HOME or JITCTX_HOME")
    return home


def default_command(agent: str, scope: str = "user") -> str:
    """The hook command for `scope`'s settings file.

    The committed scope's file is shared with the team, so its command names no path of this machine:
    always `jitctx hook AGENT`, found on PATH wherever the agent runs (`hook_command` guards it for the
    machines without jitctx; `portable_notes` says what that asks of each machine). The other scopes
    stay on this machine and take whatever runs here from any shell: `jitctx hook AGENT` when jitctx
    is on PATH, the absolute path of a `jitctx` found only inside the active virtualenv (on PATH in
    this shell alone: the agent started from another shell would not find it), else this
    interpreter's `-m jitctx`."""
    if scope == COMMITTED_SCOPE:
        return f"jitctx hook {agent}"
    found = shutil.which("jitctx")
    if found:
        if in_active_virtualenv(found):
            return f"{shlex.quote(os.path.abspath(found))} hook {agent}"
        return f"jitctx hook {agent}"
    return f"{shlex.quote(sys.executable)} -m jitctx hook {agent}"


def hook_command(setup: Setup, scope: str, given: str | None, warm: bool) -> str:
    """The command install writes: `given` (--command) or the scope's default, with --warm. In the
    committed scope a client that runs hook commands through a shell gets the guarded form, which
    answers `{}` on a machine without jitctx (clients.kit.hook_command.guard); a plugin of jitctx's own starts
    the program itself and leaves the client alone when it cannot."""
    command = given or default_command(setup.name, scope)
    if not commands.is_jitctx_command(command, setup.name):
        raise UsageError(
            f"--command {command!r} must run `jitctx hook {setup.name}`: that is how jitctx recognises "
            "its own entries when it updates or removes them"
        )
    invocation = commands.unguard(command)
    if warm and not settings.is_warm_command(invocation):
        invocation += " --warm"
    shared = scope == COMMITTED_SCOPE and given is None and not setup.hooks_file
    return commands.guard(invocation) if shared or commands.is_guarded(command) else invocation


def project_root(root_arg: str | None) -> str:
    """The project the settings belong to: --root, else the nearest ancestor with a root marker."""
    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            raise UsageError(f"--root {root_arg!r} is not an existing directory")
        return root
    return find_root(os.getcwd(), ROOT_MARKERS)


def settings_file(agent: str, scope: str, root_arg: str | None) -> Path:
    root = project_root(root_arg)
    setup = setup_of(agent)
    if scope not in setup.scopes:
        raise UsageError(
            f"--scope {scope} does not exist for {agent}; choose one of: {', '.join(setup.scopes)}"
        )
    # Only the user scope lives in the home; the others are in the project. A client whose user scope
    # a variable moves ($CODEX_HOME) needs no home then.
    home = ""
    if scope == "user":
        home = user_home() or ""
    path = setup.settings_path(scope, root, home, os.environ)
    if scope == "user" and not path.is_absolute():
        home_dir()  # raises the usage error that says there is no home
    return path


def setup_of(agent: str) -> Setup:
    return all_clients.setup(agent)


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
    status_line: StatusLineOutcome | None = None  # with --statusline, and on uninstall when it was ours


def run(args: argparse.Namespace) -> int:
    if args.agent is None:
        return run_every(args)
    args.agent = setup_of(args.agent).name  # an alias (`gemini`): messages and entries name the client
    if getattr(args, "statusline", False) and not setup_of(args.agent).status_line_setting:
        with_one = [c.name for c in _setups() if c.status_line_setting]
        raise UsageError(
            f"--statusline is for {', '.join(with_one)}: {setup_of(args.agent).title} has no status line "
            "command jitctx can set"
        )
    outcome = apply(args)
    if args.json:
        print_json(_document(args, outcome))
    else:
        _human(args, outcome)
    return 0


def apply(args: argparse.Namespace) -> Outcome:
    """Install or uninstall jitctx's hooks for `args.agent` (an alias becomes the client's own name),
    writing nothing with --dry-run. Raises UsageError (and SettingsError for a file it will not change)
    before anything is written."""
    setup = setup_of(args.agent)
    args.agent = setup.name  # an alias (`gemini`) installs the client's own entries
    path = settings_file(args.agent, args.scope, args.root)
    state = state_dir(args)
    mcp = getattr(args, "transport", "command") == "mcp"
    if mcp and "mcp" not in setup.transports:
        with_mcp = [c.name for c in _setups() if "mcp" in c.transports]
        raise UsageError(
            f"--transport mcp is for {', '.join(with_mcp)}: {setup.title} hooks can only run commands"
        )
    if mcp and args.scope == "local":
        raise UsageError(
            "--transport mcp takes --scope project (the server in <root>/.mcp.json) or --scope user "
            "(in ~/.claude.json); Claude Code keeps local-scope servers inside ~/.claude.json per project"
        )
    command: str | None = None
    if not args.uninstall:
        command = hook_command(setup, args.scope, args.hook_command, args.warm)
    if setup.hooks_file:  # a plugin file of jitctx's own, not entries in a settings file
        done_file = setup.install_file(path, command, state, args.dry_run)
        return Outcome(
            path, command, done_file.changes, done_file.changed, done_file.backup, done_file.diff,
            done_file.removed,
        )  # fmt: skip
    serving = "mcp" in setup.transports and args.scope != "local"
    server_path = None
    if serving:
        home = home_dir() if args.scope == "user" else ""
        server_path = Path(server_file(args.scope, str(path.parent.parent), home))  # <root>/.claude/...
    approving = mcp and command is not None and args.scope == "project"
    approval_added = install_record.was_added(state, path, "approval")
    changes: list[Change] = []
    server: ServerChange | None = None
    status: StatusLineOutcome | None = None
    status_keys = setup.status_line_setting
    with_status_line = command is not None and getattr(args, "statusline", False) and bool(status_keys)
    theirs = None
    if with_status_line:
        theirs = users_elsewhere(setup, path, project_root(args.root), user_home(), os.environ)

    def change(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        nonlocal changes, server, status
        if command is None:
            after, changes = settings.uninstall(data, args.agent)
        else:
            after, changes = settings.install(
                data, setup.entries("mcp" if mcp else "command"), command, args.agent
            )
        after, status = _status_line(
            after, status_keys, path, theirs, args.scope, setting=with_status_line, removing=command is None
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
                server_path, without_warm(commands.unguard(command)), state, agent=args.agent,
                dry_run=args.dry_run,
            )  # fmt: skip
        elif server_path is not None and install_record.was_added(state, server_path, "mcp-server"):
            server = register_server(server_path, None, state, agent=args.agent, dry_run=args.dry_run)
        return after, any(c.action != "kept" for c in changes) or after != data

    done = rewrite(path, state, dry_run=args.dry_run, adding=command is not None, change=change)
    if done.changed and not args.dry_run:
        if approving and done.after_data.get(APPROVALS) != done.data.get(APPROVALS):
            install_record.note_added(state, path, "approval")  # added by jitctx, not the user's
        elif approval_added and not approving:
            install_record.forget_added(state, path, "approval")
    # What the entries hold: a client that takes a failing hook for a deny gets the form that always exits 0.
    shown = command
    if command is not None and any(
        entry.fails_closed for entry in setup.entries("mcp" if mcp else "command")
    ):
        shown = commands.fail_safe(command)
    return Outcome(
        path, shown, tuple(changes), done.changed, done.backup, done.diff, done.removed, server, status
    )


def _status_line(
    data: dict[str, Any],
    keys: tuple[str, ...],
    path: Path,
    theirs: tuple[Path, str | None] | None,
    scope: str,
    *,
    setting: bool,
    removing: bool,
) -> tuple[dict[str, Any], StatusLineOutcome | None]:
    """The settings with jitctx's status line (`setting`; not over one of the user's, here or in
    `theirs`), or without it (`removing`: uninstall takes it away when it is jitctx's)."""
    if not keys or not (setting or removing):
        return data, None
    if removing:
        after, removed = status_line.uninstall(data, keys)
        return after, None if removed is None else StatusLineOutcome(removed, path)
    if theirs is not None:
        return data, StatusLineOutcome(status_line.StatusLineChange(status_line.LEFT, theirs[1]), theirs[0])
    after, done = status_line.install(data, keys, status_line_command(scope))
    return after, StatusLineOutcome(done, path)


# -- every agent at once: `install` / `uninstall` without a name ---------------------------------------


@dataclass(frozen=True)
class Presence:
    """How a client shows itself on this machine: its program on PATH, its own folder for this user."""

    program: str | None  # where PATH finds the client's program
    folder: Path | None  # the client's user folder (`~/.codex`, `$CODEX_HOME`), when it exists

    @property
    def found(self) -> bool:
        return self.program is not None or self.folder is not None


def presence(setup: Setup, home: str | None, environ: Mapping[str, str]) -> Presence:
    program = shutil.which(setup.program, path=environ.get("PATH")) if setup.program else None
    folder = setup.user_folder(home or "", environ)
    if folder is not None and not (folder.is_absolute() and os.path.isdir(folder)):
        folder = None
    return Presence(program, folder)


@dataclass(frozen=True)
class ClientRun:
    """What an install or uninstall without a name did for one client: done, skipped, or failed."""

    client: Setup
    presence: Presence
    args: argparse.Namespace | None = None  # the client's own arguments, when it was done
    outcome: Outcome | None = None
    skipped: str | None = None  # why it was left out: "not found", "no --scope local"
    error: str | None = None  # why it failed; the other clients are done all the same


def run_every(args: argparse.Namespace) -> int:
    """Install into every client found on this machine (its program on PATH or its user folder there),
    or uninstall from every client; each as `jitctx install NAME` would, and one failing leaves the
    others done (exit 1). A client without the --scope asked for is skipped with a note."""
    if getattr(args, "hook_command", None) is not None:
        raise UsageError(
            "--command is the hook of one agent: name the agent, `jitctx install AGENT --command CMD`"
        )
    if getattr(args, "transport", "command") == "mcp":
        with_mcp = [c.name for c in _setups() if "mcp" in c.transports]
        raise UsageError(
            f"--transport mcp is for {', '.join(with_mcp)} only: name it, "
            f"`jitctx install {with_mcp[0]} --transport mcp`"
        )
    root = project_root(args.root)
    state_dir(args)  # a state dir that cannot be used stops every install, before any file is read
    home = user_home()
    runs = [_run_one(args, setup, home) for setup in _setups()]
    code = _every_code(args, runs)
    if args.json:
        print_json(_every_document(args, root, runs, code))
    else:
        _every_human(args, root, home, runs, code)
    return code


def _run_one(args: argparse.Namespace, setup: Setup, home: str | None) -> ClientRun:
    found = presence(setup, home, os.environ)
    if not found.found and not args.uninstall:  # uninstall looks everywhere: the program may be gone
        return ClientRun(setup, found, skipped="not found")
    if args.scope not in setup.scopes:
        return ClientRun(setup, found, skipped=f"no --scope {args.scope}")
    one = argparse.Namespace(**{**vars(args), "agent": setup.name})
    try:
        outcome = apply(one)
    except (JitctxError, OSError) as exc:
        return ClientRun(setup, found, error=str(exc))
    return ClientRun(setup, found, one, outcome)


def _every_code(args: argparse.Namespace, runs: list[ClientRun]) -> int:
    """0 when every client asked was done; 1 when one failed, or when install found none to do."""
    if any(run.error is not None for run in runs):
        return 1
    return 0 if any(run.outcome is not None for run in runs) else 1


def _every_document(args: argparse.Namespace, root: str, runs: list[ClientRun], code: int) -> dict[str, Any]:
    action = "uninstall" if args.uninstall else "install"
    results: list[dict[str, Any]] = []
    for run in runs:
        if run.args is not None and run.outcome is not None:
            results.append(_document(run.args, run.outcome))
        elif run.error is not None:
            results.append(
                {"agent": run.client.name, "action": action, "scope": args.scope, "error": run.error}
            )
    return {
        "action": action,
        "scope": args.scope,
        "root": root,
        "dry_run": args.dry_run,
        "found": [
            {
                "agent": run.client.name,
                "program_path": run.presence.program,
                "folder_path": None if run.presence.folder is None else str(run.presence.folder),
            }
            for run in runs
            if run.presence.found
        ],
        "skipped": [{"agent": run.client.name, "reason": run.skipped} for run in runs if run.skipped],
        "results": results,
        "ok": code == 0,
    }


def _every_human(
    args: argparse.Namespace, root: str, home: str | None, runs: list[ClientRun], code: int
) -> None:
    rows = [
        [
            run.client.name,
            _status(args, run),
            _found_by(run.presence, home),
            _settings_shown(run, root, home),
        ]
        for run in runs
    ]
    print(table(["agent", "status", "found", "settings file"], rows))
    if args.dry_run:
        for run in runs:
            if run.outcome is not None and run.outcome.changed:
                print(run.outcome.diff, end="")
            if run.outcome is not None and run.outcome.server is not None:
                print(run.outcome.server.diff, end="")
        print("jitctx: dry run, nothing written", file=sys.stderr)
    notes: list[str] = []
    for run in runs:
        if run.args is None or run.outcome is None or args.dry_run:
            continue
        notes += _server_notes(run.outcome)
        notes += _status_line_notes(run.args, run.outcome)
        if run.outcome.changed:
            notes += _written_notes(run.args, run.outcome)
    _say(list(dict.fromkeys(notes)))  # a warning about this machine's jitctx is said once, not per client
    for run in runs:
        if run.error is not None:
            print(f"jitctx: error: {run.client.name}: {run.error}", file=sys.stderr)
    if code != 0 and not any(run.error is not None for run in runs):
        with_scope = [c.name for c in _setups() if args.scope in c.scopes]
        print(
            f"jitctx: found none of the agents with --scope {args.scope} ({', '.join(with_scope)}) on this "
            "machine: no program on PATH, no user folder. Name one to install it anyway: "
            "jitctx install AGENT",
            file=sys.stderr,
        )
    elif code != 0:
        failed = sum(run.error is not None for run in runs)
        done = sum(run.outcome is not None for run in runs)
        print(f"jitctx: {failed} failed, {done} done", file=sys.stderr)


def _status(args: argparse.Namespace, run: ClientRun) -> str:
    if run.skipped is not None:
        return f"skipped: {run.skipped}"
    if run.error is not None or run.outcome is None:
        return "failed"
    outcome = run.outcome
    if not outcome.changed:
        return "nothing to remove" if args.uninstall else "unchanged"
    if args.uninstall:
        return "would remove" if args.dry_run else "removed"
    if not outcome.changes or any(change.action == "added" for change in outcome.changes):
        return "would install" if args.dry_run else "installed"
    return "would update" if args.dry_run else "updated"


def _settings_shown(run: ClientRun, root: str, home: str | None) -> str:
    """The settings file a client's row names: none for a client left out, or one with no such file."""
    outcome = run.outcome
    if outcome is None or not (outcome.changed or outcome.path.exists()):
        return "-"
    return _shown_path(outcome.path, root, home)


def _found_by(found: Presence, home: str | None) -> str:
    how = []
    if found.program is not None:
        how.append(f"{os.path.basename(found.program)} on PATH")
    if found.folder is not None:
        how.append(_shown_path(found.folder, "", home))
    return ", ".join(how) or "-"


def _shown_path(path: Path, root: str, home: str | None) -> str:
    """`path` relative to the project root, else under `~`, else as it is."""
    for base, shown in ((root, ""), (home, "~/")):
        if base and path.is_relative_to(base) and path != Path(base):
            return shown + path.relative_to(base).as_posix()
    return str(path)


def _document(args: argparse.Namespace, outcome: Outcome) -> dict[str, Any]:
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
        "status_line": None
        if outcome.status_line is None
        else {
            "action": outcome.status_line.change.action,
            "command": outcome.status_line.change.command,
            "settings_path": str(outcome.status_line.path),
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
        _say(_status_line_notes(args, outcome))  # a status line of the user's that would be left
        return
    _say(_server_notes(outcome))
    if outcome.changes:
        rows = [
            [c.event, "-" if c.action == "removed" else c.matcher or "*", c.action] for c in outcome.changes
        ]
        print(table(["event", "matcher", "action"], rows))
    if not outcome.changed:
        what = "no jitctx hooks to remove" if args.uninstall else "already installed"
        print(f"jitctx: {path}: {what}; file not written", file=sys.stderr)
        _say(_status_line_notes(args, outcome))
        return
    verb = "removed" if args.uninstall else "installed"
    print(f"jitctx: {verb} hooks for {args.agent} in {path}", file=sys.stderr)
    _say(_status_line_notes(args, outcome))
    _say(_written_notes(args, outcome))


def _say(lines: list[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def _status_line_notes(args: argparse.Namespace, outcome: Outcome) -> list[str]:
    """What happened to the status line: set, left to the user's, or removed."""
    if outcome.status_line is None:
        return []

    change, path = outcome.status_line
    if change.action == REMOVED:
        return [] if args.dry_run else [f"jitctx: status line removed from {path}"]
    return notes(setup_of(args.agent), outcome.status_line, args.scope, args.dry_run)


def _server_notes(outcome: Outcome) -> list[str]:
    """What happened to the MCP server entry (--transport mcp, and uninstall after it)."""
    server = outcome.server
    if server is None or server.action == "kept":
        return []
    where = "from" if server.action == "removed" else "in"
    notes = [f"jitctx: MCP server jitctx {server.action} {where} {server.path}"]
    if server.backup:
        notes.append(f"jitctx: previous version kept as {server.backup}")
    return notes + _deleted(server.removed)


def _deleted(paths: tuple[Path, ...]) -> list[str]:
    return [f"jitctx: deleted {gone} (jitctx created it; nothing else was in it)" for gone in paths]


def _written_notes(args: argparse.Namespace, outcome: Outcome) -> list[str]:
    """After a settings file was written: its backup, what was deleted, the hook command and what it asks
    of this machine and the team's, and the client's own step before it runs the hooks."""
    path = outcome.path
    root = project_root(args.root)
    notes = []
    if outcome.backup:
        notes.append(f"jitctx: previous version kept as {outcome.backup}")
    notes += _deleted(outcome.removed)
    setup = setup_of(args.agent)
    if outcome.command:
        notes.append(f"jitctx: hook command: {outcome.command}")
        program = command_program(outcome.command) or ""
        if args.scope == COMMITTED_SCOPE:
            notes += portable_notes(setup, outcome.command, path, root)
        elif os.path.isabs(program) and in_active_virtualenv(program):
            notes.append(
                "jitctx: (an absolute path: jitctx is on PATH only in this virtualenv, and the agent may be "
                "started from another shell)"
            )
    if setup.install_note and not args.uninstall:
        notes.append(setup.install_note)
    elsewhere = _started_elsewhere(setup, args.scope, root)
    if elsewhere is not None and not args.uninstall:
        notes.append(elsewhere)
    return notes


def portable_notes(setup: Setup, command: str, path: Path, root: str) -> list[str]:
    """What the committed command does on each machine, and what is amiss with it on this one."""
    program = command_program(command) or ""
    others = " or ".join(f"--scope {scope}" for scope in setup.scopes if scope != COMMITTED_SCOPE)
    keep = f", or install with {others} (this machine only) to run this machine's jitctx" if others else ""
    shared = shared_phrase(path)
    why = machine_specific(program, root)
    if why is not None:  # an explicit --command
        return [
            f"jitctx: warning: {shared}, and {program} is {why}: on a teammate's machine the hook points "
            f"at nothing; drop --command{keep}"
        ]
    if setup.hooks_file or is_guarded(command):
        notes = [
            f"jitctx: {shared}, so the command names no path of this machine, and runs jitctx only where "
            "it is on PATH: a teammate without jitctx runs the agent as before, without jitctx's context. "
            f"To have it, each machine installs jitctx once: {INSTALL_FOR_USER}"
        ]
    else:  # an explicit bare --command
        notes = [
            f"jitctx: warning: {shared}, and {command} fails on a machine without jitctx (exit 127), where "
            f"a client may refuse every prompt; drop --command for the form that answers {{}} there"
        ]
    if os.path.isabs(program) or program != "jitctx":
        return notes
    found = shutil.which("jitctx")
    if found is None:
        notes.append(
            f"jitctx: warning: jitctx is not on PATH here either, so here too the hook adds nothing: "
            f"install it as above{keep}"
        )
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


def _started_elsewhere(setup: Setup, scope: str, root: str) -> str | None:
    """Said when the project's settings go to a folder above this one, and the client, started here,
    would not read them (it reads project settings where it starts)."""
    if scope == "user" or not setup.settings_where_started:
        return None
    folder = root

    here, base = os.path.realpath(os.getcwd()), os.path.realpath(folder)
    if here == base or not is_inside(here, base):
        return None
    return (
        f"jitctx: {setup.title} reads project settings only in the folder it starts in: started here "
        f"({here}) it runs no hook from {folder}. Start it at {folder}, or install with --scope user."
    )


def _setups() -> list[Setup]:
    return all_clients.every_setup()
