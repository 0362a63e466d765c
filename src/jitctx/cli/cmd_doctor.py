"""`jitctx doctor`: is jitctx set up so that the agents actually run it? Exit 1 when something is not."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from jitctx.cli.common import add_json, add_root, print_json, table
from jitctx.cli.doctor_checks import OK, PROBLEM, SKIP, WARN, Check
from jitctx.cli.state import add_state_dir, state_dir
from jitctx.errors import JitctxError, UsageError

HELP = """\
Checks, for Claude Code and Codex:
  hooks        jitctx's hook entries in each settings file the client reads (project, local, user),
               every event `jitctx install` writes; Claude Code settings that switch hooks off
               (disableAllHooks) and Codex's features.hooks = false are problems too
  command      the hook command's program exists (an absolute path) or is on PATH
  trust        Codex only: the hooks are trusted (Codex records that in config.toml under
               [hooks.state."<hooks.json>:<event>:<group>:<handler>"]; trust them with /hooks in Codex),
               and the project folder is trusted (Codex ignores .codex/ in a folder it does not trust)
  version      `claude --version` / `codex --version` (skipped when the client is not on PATH)
  plugin       the jitctx plugin, when installed: enabled, its first-use install of jitctx into the
               plugin's data folder done, and (Codex) a trust record for each of its hooks; an enabled
               plugin's hooks count as installed hooks
and for jitctx itself: the state dir is a directory of yours, 0700 and writable, and the hook log
(<state dir>/hook.log) has no errors from the last 24 hours.

Exit 0 when nothing is wrong, 1 when a check found a problem, 2 on a usage error. Warnings (a folder
Codex never asked about, hooks in two scopes) do not change the exit code.

examples:
  jitctx doctor
  jitctx doctor --root ~/src/app --json
"""

VERSION_TIMEOUT_S = 5
LOG_TAIL_BYTES = 64 * 1024


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_root(parser)
    add_state_dir(parser)
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    root = _root(args.root)
    checks: list[Check] = []
    installed = 0
    for client in ("claude-code", "codex"):
        client_checks, has_hooks = _client(client, root)
        checks.extend(client_checks)
        installed += has_hooks
    if not installed:
        checks.append(
            Check(
                "jitctx",
                "hooks",
                PROBLEM,
                "no jitctx hooks for any client, in any scope",
                "jitctx install claude-code   (or: jitctx install codex)",
            )
        )
    state = state_dir(args)
    from jitctx.cli.doctor_checks import hook_log_check, state_dir_check

    checks.append(state_dir_check(state, os.getuid()))
    checks.append(hook_log_check(_log_tail(state / "hook.log"), state / "hook.log", time.time()))
    problems = sum(c.status == PROBLEM for c in checks)
    if args.json:
        print_json({"ok": problems == 0, "root": root, "checks": [c.as_json() for c in checks]})
    else:
        _human(checks, problems)
    return 1 if problems else 0


def _root(root_arg: str | None) -> str:
    if root_arg is not None:
        root = os.path.abspath(root_arg)
        if not os.path.isdir(root):
            raise UsageError(f"--root {root_arg!r} is not an existing directory")
        return root
    from jitctx.discovery.boundary import find_root
    from jitctx.profiles import ROOT_MARKERS

    return find_root(os.getcwd(), ROOT_MARKERS)


def _client(client: str, root: str) -> tuple[list[Check], bool]:
    from jitctx.adapters import claude_code, codex
    from jitctx.cli.state import user_home

    checks = [_version(client)]
    home = user_home()
    config: dict[str, Any] = {}
    codex_home: str | None = None
    if client == "codex":
        codex_home = os.environ.get("CODEX_HOME") or (os.path.join(home, ".codex") if home else None)
        config, config_check = _codex_config(codex_home)
        if config_check is not None:
            checks.append(config_check)
        entries = codex.ENTRIES
        places = [("project", codex.settings_path("project", root, ""))]
        if codex_home:
            places.append(("user", Path(codex_home) / "hooks.json"))
    else:
        entries = claude_code.ENTRIES
        places = [
            (scope, claude_code.settings_path(scope, root, home or "")) for scope in ("project", "local")
        ]
        if home:
            places.append(("user", claude_code.settings_path("user", root, home)))
    found_in: list[str] = []
    commands: dict[str, str] = {}
    for scope, path in places:
        scope_checks, handlers = _hooks(client, scope, path, [e.event for e in entries])
        checks.extend(scope_checks)
        if handlers:
            found_in.append(scope)
            from jitctx.cli.doctor_checks import MCP_HANDLER

            for handler in handlers:
                if handler.command != MCP_HANDLER:
                    commands.setdefault(handler.command, scope)
            if any(handler.command == MCP_HANDLER for handler in handlers):
                checks.append(_mcp_server(client, scope, root, home))
            if client == "codex":
                checks.extend(_codex_trust(config, scope, path, handlers, root))
    plugin = False
    if client == "codex" and codex_home:
        from jitctx.cli.doctor_plugin import codex_plugin_checks

        plugin_found, plugin = codex_plugin_checks(Path(codex_home), config, [e.event for e in entries])
        checks.extend(plugin_found)
    if client == "claude-code" and home:
        from jitctx.cli.doctor_plugin import plugin_checks

        ordered = sorted(places, key=lambda place: place[0] != "user")  # user, then project, then local
        plugin_found, plugin = plugin_checks(Path(home), [_settings_data(path) for _, path in ordered])
        checks.extend(plugin_found)
    if plugin and found_in:
        checks.append(
            Check(
                client,
                "hooks",
                WARN,
                f"the jitctx plugin and the hooks in {' and '.join(found_in)} both run",
                f"keep one: jitctx uninstall {client} --scope {found_in[0]}, or disable the plugin",
            )
        )
    if not found_in and not plugin:
        where = ", ".join(scope for scope, _ in places)
        checks.append(Check(client, "hooks", SKIP, f"no jitctx hooks ({where})", f"jitctx install {client}"))
    elif len(found_in) > 1:
        checks.append(
            Check(
                client,
                "hooks",
                WARN,
                f"installed in {' and '.join(found_in)}: each scope runs the hook",
                f"keep one: jitctx uninstall {client} --scope {found_in[-1]}",
            )
        )
    checks.extend(_command(client, command, scope) for command, scope in commands.items())
    if client == "codex" and config:
        from jitctx.cli.doctor_checks import codex_hooks_disabled

        if codex_hooks_disabled(config):
            checks.append(
                Check(
                    client,
                    "hooks",
                    PROBLEM,
                    "features.hooks = false in Codex's config.toml",
                    "remove that line (Codex runs no hook at all)",
                )
            )
    return checks, bool(found_in) or plugin


def _settings_data(path: Path) -> dict[str, Any]:
    from jitctx.adapters.settings import read_settings

    try:
        return read_settings(path)[1]
    except JitctxError:
        return {}  # reported by the hooks check of that file


def _hooks(client: str, scope: str, path: Path, wanted: list[str]) -> tuple[list[Check], list[Any]]:
    from jitctx.adapters.settings import read_settings
    from jitctx.cli.doctor_checks import missing_events, our_handlers

    name = f"hooks ({scope})"
    try:
        text, data = read_settings(path)
    except JitctxError as exc:
        return [Check(client, name, PROBLEM, str(exc), f"fix {path}")], []
    if text is None:
        return [], []
    checks: list[Check] = []
    if client == "claude-code" and data.get("disableAllHooks") is True:
        checks.append(
            Check(
                client,
                name,
                PROBLEM,
                f"{path}: disableAllHooks is true: Claude Code runs no hook at all",
                f"remove disableAllHooks from {path}",
            )
        )
    handlers = our_handlers(data, client)
    if not handlers:
        return checks, []
    missing = missing_events(handlers, wanted)
    if missing:
        detail = f"{path}: no entry for {', '.join(missing)} (written by an older jitctx?)"
        checks.append(Check(client, name, PROBLEM, detail, f"jitctx install {client} --scope {scope}"))
    else:
        checks.append(Check(client, name, OK, f"{path}: {', '.join(wanted)}{_warm_note(handlers)}"))
    return checks, handlers


def _warm_note(handlers: list[Any]) -> str:
    """Said when every command hook of a settings file hands its events to the warm daemon."""
    from jitctx.adapters.settings import is_warm_command
    from jitctx.cli.doctor_checks import MCP_HANDLER

    commands = [handler.command for handler in handlers if handler.command != MCP_HANDLER]
    if commands and all(is_warm_command(command) for command in commands):
        return " (--warm: answered by a jitctx process that stays up)"
    return ""


def _mcp_server(client: str, scope: str, root: str, home: str | None) -> Check:
    """mcp_tool hooks of ours need the `jitctx` MCP server where Claude Code reads it, runnable, and
    (in a project's .mcp.json) approved."""
    import shlex

    from jitctx.adapters import claude_code
    from jitctx.adapters.mcp_hook import APPROVALS, MCP_SERVER, is_jitctx_server, server_file

    name = f"mcp server ({scope})"
    if scope == "user" and not home:
        return Check(client, name, PROBLEM, "no home directory for ~/.claude.json", "set HOME")
    path = Path(server_file(scope, root, home or ""))
    servers = _settings_data(path).get("mcpServers")
    entry = servers.get(MCP_SERVER) if isinstance(servers, dict) else None
    fix = f"jitctx install {client} --scope {scope} --transport mcp"
    if not is_jitctx_server(entry):
        detail = f"the mcp_tool hooks ask server {MCP_SERVER!r}, which {path} does not define (as jitctx mcp)"
        return Check(client, name, PROBLEM, detail, fix)
    assert isinstance(entry, dict)
    server_command = shlex.join([entry["command"], *entry["args"]])
    program = _command(client, server_command, scope)
    if program.status != OK:  # the server's program, checked as a hook command is
        return Check(client, name, program.status, f"{path}: {program.detail}", program.fix or fix)
    if scope != "user":
        approved = any(
            isinstance(names := _settings_data(claude_code.settings_path(s, root, "")).get(APPROVALS), list)
            and MCP_SERVER in names
            for s in ("project", "local")  # where a project's .mcp.json servers are approved
        )
        if not approved:
            detail = f"{path}: jitctx is not in {APPROVALS}; Claude Code asks to approve it on first start"
            return Check(client, name, WARN, detail, fix)
    return Check(client, name, OK, f"{path}: {server_command}")


def _command(client: str, command: str, scope: str) -> Check:
    from jitctx.cli.doctor_checks import command_program

    name = f"command ({scope})"
    program = command_program(command)
    if program is None:
        return Check(
            client, name, PROBLEM, f"cannot read the command {command!r}", f"jitctx install {client}"
        )
    if os.path.isabs(program):
        if os.path.isfile(program) and os.access(program, os.X_OK):
            return Check(client, name, OK, command)
        return Check(
            client,
            name,
            PROBLEM,
            f"{program} does not exist or is not executable ({command})",
            f"jitctx install {client} --scope {scope}   (from the jitctx you want to use)",
        )
    found = shutil.which(program)
    if found is None:
        return Check(
            client,
            name,
            PROBLEM,
            f"{program!r} is not on PATH ({command})",
            f"jitctx install {client} --scope {scope}   (writes an absolute path when need be)",
        )
    from jitctx.cli.cmd_install import in_active_virtualenv

    if in_active_virtualenv(found):
        return Check(
            client,
            name,
            WARN,
            f"{program!r} is found only through the active virtualenv ({found}); an agent started "
            "from another shell will not find it",
            f"jitctx install {client} --scope {scope}   (writes the absolute path)",
        )
    return Check(client, name, OK, f"{command} ({found})")


def _codex_config(codex_home: str | None) -> tuple[dict[str, Any], Check | None]:
    import tomllib

    if not codex_home:
        return {}, None
    path = Path(codex_home) / "config.toml"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, Check("codex", "config", PROBLEM, f"{path}: cannot be read ({exc.strerror})")
    try:
        return tomllib.loads(raw.decode("utf-8")), None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, Check("codex", "config", PROBLEM, f"{path}: not valid TOML ({exc})", f"fix {path}")


def _codex_trust(
    config: dict[str, Any], scope: str, path: Path, handlers: list[Any], root: str
) -> list[Check]:
    from jitctx.cli.doctor_checks import codex_project_trusted, codex_trust

    checks: list[Check] = []
    states = {h.event: codex_trust(config, path, h) for h in handlers}
    waiting = {event: state for event, state in states.items() if state not in ("trusted", "recorded")}
    name = f"trust ({scope})"
    if waiting:
        listed = ", ".join(f"{event} {state}" for event, state in waiting.items())
        checks.append(
            Check(
                "codex",
                name,
                PROBLEM,
                f"{path}: {listed}; Codex does not run these",
                "start Codex, type /hooks and trust the jitctx hooks",
            )
        )
    else:
        checks.append(Check("codex", name, OK, f"{path}: every jitctx hook trusted"))
    if scope == "project":
        trusted = codex_project_trusted(config, root)
        if trusted is False:
            checks.append(
                Check(
                    "codex",
                    "trust (folder)",
                    PROBLEM,
                    f"{root} is not trusted: Codex ignores its .codex/ (hooks included)",
                    "trust the folder in Codex, or: jitctx install codex --scope user",
                )
            )
        elif trusted is None:
            checks.append(
                Check(
                    "codex",
                    "trust (folder)",
                    WARN,
                    f"Codex has not recorded trust for {root}; it reads .codex/ once you trust the "
                    "folder (Codex asks when started there)",
                )
            )
    return checks


def _version(client: str) -> Check:
    program = "claude" if client == "claude-code" else "codex"
    found = shutil.which(program)
    if found is None:
        return Check(client, "version", SKIP, f"{program} is not on PATH")
    try:
        done = subprocess.run(
            [found, "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Check(client, "version", WARN, f"{found} --version did not answer in {VERSION_TIMEOUT_S} s")
    except OSError as exc:
        return Check(client, "version", WARN, f"{found} cannot be run ({exc.strerror})")
    text = done.stdout.decode("utf-8", "replace").strip().splitlines()
    if done.returncode != 0 or not text:
        return Check(client, "version", WARN, f"{found} --version failed (exit {done.returncode})")
    return Check(client, "version", OK, f"{text[0][:100]} ({found})")


def _log_tail(path: Path) -> str | None:
    """The end of the hook log: a regular file of ours, never a link or a FIFO (see open_state_file)."""
    from jitctx.discovery.quick import open_state_file

    try:
        fd = open_state_file(str(path))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as log:
        size = os.fstat(log.fileno()).st_size
        log.seek(max(0, size - LOG_TAIL_BYTES))
        data = log.read(LOG_TAIL_BYTES)
    text = data.decode("utf-8", "replace")
    return text.split("\n", 1)[1] if size > LOG_TAIL_BYTES and "\n" in text else text


def _human(checks: list[Check], problems: int) -> None:
    from jitctx.cli.common import count

    rows = [[c.client, c.name, c.status, c.detail] for c in checks]
    print(table(["client", "check", "status", "detail"], rows))
    fixes = [c for c in checks if c.fix and c.status in (PROBLEM, WARN)]
    if fixes:
        print()
        for check in fixes:
            print(f"fix ({check.client} {check.name}): {check.fix}")
    if problems:
        print(f"jitctx: {count(problems, 'problem')} found", file=sys.stderr)
    else:
        print(f"jitctx: no problems ({sum(c.status == OK for c in checks)} checks ok)", file=sys.stderr)
