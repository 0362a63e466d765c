"""What every client's `doctor` checks the same way: jitctx's entries in each settings file the client
reads, the hook command's program, the client's version; and the flow that puts them together.

A client's own checks (a setting that switches hooks off, trust, plugins, an MCP server) come in through
the hooks of `settings_checks`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.kit.checks import (
    MCP_HANDLER,
    OK,
    PROBLEM,
    SKIP,
    WARN,
    Check,
    Handler,
    command_program,
    missing_events,
    our_handlers,
)
from jitctx.clients.kit.hook_command import fail_safe, guard, is_fail_safe, is_guarded
from jitctx.clients.kit.jsonc import read_jsonc
from jitctx.clients.kit.settings_file import is_warm_command, read_settings
from jitctx.errors import JitctxError
from jitctx.paths import is_inside

if TYPE_CHECKING:
    from jitctx.clients.base import Setup

VERSION_TIMEOUT_S = 5
Place = tuple[str, Path]  # (scope, settings file)


def settings_data(path: Path) -> dict[str, Any]:
    try:
        return read_settings(path)[1]
    except JitctxError:
        return {}  # reported by the hooks check of that file


def hooks_check(
    setup: Setup,
    scope: str,
    path: Path,
    settings_problems: Callable[[dict[str, Any], Path, str], list[Check]] | None = None,
) -> tuple[list[Check], list[Handler]]:
    """The entries of one settings file: every event `install` writes is there; and the handlers."""
    wanted = [entry.event for entry in setup.entries()]
    name = f"hooks ({scope})"
    checks: list[Check] = []
    try:
        text, data = read_settings(path)
    except JitctxError as exc:
        commented = read_jsonc(str(path)) if setup.settings_comments else None
        if commented is None:
            return [Check(setup.name, name, PROBLEM, str(exc), f"fix {path}")], []
        # The client reads it (comments, trailing commas): so does doctor; install would not rewrite it.
        text, data = "", commented
        detail = f"{path}: holds comments or trailing commas, which {setup.title} reads"
        fix = f"to let jitctx install or uninstall there, remove them from {path}"
        checks.append(Check(setup.name, f"{name} file", WARN, detail, fix))
    if text is None:
        return [], []
    checks += settings_problems(data, path, name) if settings_problems is not None else []
    handlers = our_handlers(data, setup.name)
    if not handlers:
        return checks, []
    missing = missing_events(handlers, wanted)
    if missing:
        detail = f"{path}: no entry for {', '.join(missing)} (written by an older jitctx?)"
        checks.append(
            Check(setup.name, name, PROBLEM, detail, f"jitctx install {setup.name} --scope {scope}")
        )
    else:
        checks.append(Check(setup.name, name, OK, f"{path}: {', '.join(wanted)}{warm_note(handlers)}"))
    checks.extend(fail_safe_check(setup, scope, path, handlers))
    return checks, handlers


def fail_safe_check(setup: Setup, scope: str, path: Path, handlers: Sequence[Handler]) -> list[Check]:
    """Said when a hook the client takes for a deny when it fails (`HookEntry.fails_closed`) runs a
    command that can exit non-zero: a jitctx that breaks or goes missing would then block the agent."""
    closing = {entry.event for entry in setup.entries() if entry.fails_closed}
    unsafe = [
        h for h in handlers if h.event in closing and h.command != MCP_HANDLER and not is_fail_safe(h.command)
    ]
    if not unsafe:
        return []
    events = ", ".join(dict.fromkeys(h.event for h in unsafe))
    return [
        Check(
            setup.name,
            f"fail-safe ({scope})",
            WARN,
            f"{path}: the command of {events}, `{unsafe[0].command}`, exits non-zero when jitctx fails "
            f"or is missing, and {setup.title} then denies the call (or the prompt) instead of running "
            f"it without jitctx; install writes `{fail_safe(unsafe[0].command)}`, which answers {{}} then",
            f"jitctx install {setup.name} --scope {scope}",
        )
    ]


def warm_note(handlers: Sequence[Handler]) -> str:
    """Said when every command hook of a settings file hands its events to the warm daemon."""
    commands = [handler.command for handler in handlers if handler.command != MCP_HANDLER]
    if commands and all(is_warm_command(command) for command in commands):
        return " (--warm: answered by a jitctx process that stays up)"
    return ""


def in_active_virtualenv(executable: str) -> bool:
    """Does `executable` live under $VIRTUAL_ENV (the virtualenv activated in this shell)?"""
    venv = os.environ.get("VIRTUAL_ENV")
    if not venv or not os.path.isabs(venv):
        return False
    base = os.path.realpath(venv)
    real = os.path.realpath(executable)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


# The scope whose settings file lives in the repository and is committed, shared with the team: a hook
# command there runs on every teammate's machine, so it must name no path of this one.
COMMITTED_SCOPE = "project"
# How a machine gets the `jitctx` that committed hooks run from PATH: once per user, from a checkout of
# jitctx or a wheel built from it (it is not taken from a package index by name).
INSTALL_FOR_USER = "pipx install DIR-OR-WHEEL (a checkout of jitctx, or its wheel; uv tool install works too)"
# Folder names that only a virtualenv (or a tool keeping virtualenvs) gives a path.
_VENV_PARTS = frozenset({".venv", "venv", "venvs", "virtualenvs", ".virtualenvs"})


def machine_specific(program: str, checkout: str | None = None) -> str | None:
    """Why the absolute `program` is a path of this machine only (inside a virtualenv, under the home,
    inside the checkout `checkout`, which lives elsewhere on another machine), or None when it is not
    absolute or is a shared system place (`/usr/bin/python3`)."""
    if not os.path.isabs(program):
        return None
    parts = program.replace(os.sep, "/").split("/")
    folder = os.path.dirname(program)
    venv = next(
        (d for d in (folder, os.path.dirname(folder)) if os.path.isfile(os.path.join(d, "pyvenv.cfg"))), None
    )
    if venv is not None or in_active_virtualenv(program) or _VENV_PARTS.intersection(parts[:-1]):
        return f"inside a virtualenv ({venv or folder})"
    if checkout and _under(program, checkout):
        return f"inside this checkout ({checkout}), which is somewhere else on another machine"
    home = os.path.expanduser("~")
    if home not in ("~", "/") and _under(program, home):
        return f"under this machine's home directory ({home})"
    return None


def _under(path: str, folder: str) -> bool:
    base = os.path.abspath(folder).rstrip(os.sep)
    return os.path.abspath(path).startswith(base + os.sep)


GIT_TIMEOUT_S = 5


def sharing(path: Path) -> str:
    """How the project scope's file `path` reaches the team, as git says: "committed" (in HEAD),
    "uncommitted" (not in HEAD: new, or only staged), "ignored", or "" (no git, or no repository)."""

    def git(*args: str) -> int | None:
        try:
            done = subprocess.run(
                ["git", "--no-optional-locks", "-C", str(path.parent), *args],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=GIT_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.returncode

    inside = git("rev-parse", "--is-inside-work-tree")
    if inside != 0:  # 128: not a repository; None: no git
        return ""
    if git("cat-file", "-e", f"HEAD:./{path.name}") == 0:
        return "committed"
    return "ignored" if git("check-ignore", "-q", "--", path.name) == 0 else "uncommitted"


def shared_phrase(path: Path) -> str:
    """`path` and how it is shared, for a sentence: "PATH is committed, shared with the team"."""
    return {
        "committed": f"{path} is committed, shared with the team",
        "uncommitted": f"{path} is not committed yet; once committed it is shared with the team",
        "ignored": f"{path} is ignored by git: it is shared with the team only if you commit it (git add -f)",
    }.get(sharing(path), f"{path} is meant to be committed, shared with the team")


def portable_check(setup: Setup, command: str, path: Path) -> Check:
    """The hook command of a committed settings file names no path of this machine, and answers where
    jitctx is not installed."""
    name = f"portable ({COMMITTED_SCOPE})"
    program = command_program(command) or ""
    why = machine_specific(program, str(path.parent.parent))  # <root>/.claude/settings.json -> <root>
    written = guard(f"jitctx hook {setup.name}")
    if not setup.hooks_file and any(entry.fails_closed for entry in setup.entries()):
        written = fail_safe(written)
    reinstall = (
        f"jitctx install {setup.name} --scope {COMMITTED_SCOPE}   (writes "
        f"`{written}`, which runs the jitctx each machine has on PATH: {INSTALL_FOR_USER})"
    )
    if why is not None:
        mine = [scope for scope in setup.scopes if scope != COMMITTED_SCOPE]
        keep = f"; or keep it on this machine only: --scope {mine[0]}" if mine else ""
        return Check(
            setup.name,
            name,
            WARN,
            f"{shared_phrase(path)}, and runs {program}, {why}: on a teammate's machine the hook points "
            "at nothing",
            f"{reinstall}{keep}",
        )
    if not (is_guarded(command) or is_fail_safe(command)):
        return Check(
            setup.name,
            name,
            WARN,
            f"{shared_phrase(path)}, and runs {command} on every machine: where jitctx is not installed "
            "every hook fails (exit 127, command not found), and a client may then refuse every prompt",
            reinstall,
        )
    return Check(
        setup.name,
        name,
        OK,
        f"{command}: names no path of this machine, and answers {{}} where jitctx is not installed",
    )


def command_check(client: str, command: str, scope: str, *, answers_without: bool = False) -> Check:
    """The hook command's program exists (an absolute path) or is on PATH for any shell. A command that
    answers by itself where the program is missing (a guarded one; `answers_without`: a plugin that then
    leaves the client alone) only warns then: the agent runs, without jitctx's context."""
    name = f"command ({scope})"
    program = command_program(command)
    if program is None:
        return Check(
            client, name, PROBLEM, f"cannot read the command {command!r}", f"jitctx install {client}"
        )
    if (answers_without or is_guarded(command)) and not os.path.isabs(program) and not shutil.which(program):
        return Check(
            client,
            name,
            WARN,
            f"{program!r} is not on PATH: the hook answers nothing here ({command}), so the agent runs "
            "without jitctx's context",
            _on_path_fix(client, scope, "(writes an absolute path when need be)"),
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
            _on_path_fix(client, scope, "(writes an absolute path when need be)"),
        )
    if in_active_virtualenv(found):
        return Check(
            client,
            name,
            WARN,
            f"{program!r} is found only through the active virtualenv ({found}); an agent started "
            "from another shell will not find it",
            _on_path_fix(client, scope, "(writes the absolute path)"),
        )
    return Check(client, name, OK, f"{command} ({found})")


def _on_path_fix(client: str, scope: str, what_install_writes: str) -> str:
    """How to make a `jitctx` that this shell cannot count on run: install it for every shell, since
    the committed file must keep its portable command; elsewhere install may write a path instead."""
    if scope == COMMITTED_SCOPE:
        return f"{INSTALL_FOR_USER}: the committed command runs jitctx from PATH"
    return f"jitctx install {client} --scope {scope}   {what_install_writes}"


def version_check(setup: Setup) -> Check:
    """`PROGRAM --version`, skipped when the client is not on PATH."""
    program = setup.program
    found = shutil.which(program)
    if found is None:
        return Check(setup.name, "version", SKIP, f"{program} is not on PATH")
    try:
        done = subprocess.run(
            [found, "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Check(
            setup.name, "version", WARN, f"{found} --version did not answer in {VERSION_TIMEOUT_S} s"
        )
    except OSError as exc:
        return Check(setup.name, "version", WARN, f"{found} cannot be run ({exc.strerror})")
    text = done.stdout.decode("utf-8", "replace").strip().splitlines()
    if done.returncode != 0 or not text:
        return Check(setup.name, "version", WARN, f"{found} --version failed (exit {done.returncode})")
    return Check(setup.name, "version", OK, f"{text[0][:100]} ({found})")


def settings_checks(
    setup: Setup,
    places: Sequence[Place],
    *,
    first: Sequence[Check] = (),
    settings_problems: Callable[[dict[str, Any], Path, str], list[Check]] | None = None,
    scope_checks: Callable[[str, Path, list[Handler]], list[Check]] | None = None,
    plugin: Callable[[], tuple[list[Check], bool]] | None = None,
    last: Sequence[Check] = (),
) -> tuple[list[Check], bool]:
    """The version, the entries of each settings file in `places`, the commands they run, the client's
    own checks (given as hooks), and whether jitctx's hooks are installed for it in any place."""
    checks = [version_check(setup), *first]
    found_in: list[str] = []
    commands: dict[str, str] = {}
    committed: dict[str, Path] = {}  # command -> the committed settings file that runs it
    for scope, path in places:
        scope_found, handlers = hooks_check(setup, scope, path, settings_problems)
        checks.extend(scope_found)
        if not handlers:
            continue
        found_in.append(scope)
        for handler in handlers:
            if handler.command != MCP_HANDLER:
                commands.setdefault(handler.command, scope)
                if scope == COMMITTED_SCOPE:
                    committed.setdefault(handler.command, path)
        if scope_checks is not None:
            checks.extend(scope_checks(scope, path, handlers))
    plugin_found, active = plugin() if plugin is not None else ([], False)
    checks.extend(plugin_found)
    name = setup.name
    if active and found_in:
        checks.append(
            Check(
                name,
                "hooks",
                WARN,
                f"the jitctx plugin and the hooks in {' and '.join(found_in)} both run",
                f"keep one: jitctx uninstall {name} --scope {found_in[0]}, or disable the plugin",
            )
        )
    if not active:
        checks.extend(scopes_check(name, "hooks", found_in, [scope for scope, _ in places]))
    checks.extend(command_check(name, command, scope) for command, scope in commands.items())
    checks.extend(portable_check(setup, command, path) for command, path in committed.items())
    checks.extend(last)
    return checks, bool(found_in) or active


def scopes_check(name: str, what: str, found_in: list[str], scopes: list[str]) -> list[Check]:
    """What the scopes holding jitctx's `what` (hooks, a plugin) say together: none is one skip line,
    one is enough, two run the hook twice per call."""
    if not found_in:
        return [Check(name, what, SKIP, f"no jitctx {what} ({', '.join(scopes)})", f"jitctx install {name}")]
    if len(found_in) > 1:
        detail = f"installed in {' and '.join(found_in)}: each scope runs the hook"
        return [Check(name, what, WARN, detail, f"keep one: jitctx uninstall {name} --scope {found_in[-1]}")]
    return []


def launch_dir_check(setup: Setup, root: str, cwd: str, user_installed: bool) -> Check | None:
    """A client that reads project settings only in the folder it starts in (`<cwd>/.claude/`,
    `<cwd>/.gemini/`) runs no project hook of the root when started in a subfolder: said when doctor runs
    in one whose own settings have no jitctx hooks and the user scope has none either."""
    real_cwd, real_root = os.path.realpath(cwd), os.path.realpath(root)
    if real_cwd == real_root or not is_inside(real_cwd, real_root) or user_installed:
        return None
    here = [path for scope, path in project_places(setup, real_cwd) if scope != "user"]
    if any(our_handlers(settings_data(path), setup.name) for path in here):
        return Check(setup.name, "hooks (this folder)", OK, f"started here, {setup.title} reads {here[0]}")
    shown = ", ".join(str(path) for path in here)
    return Check(
        setup.name,
        "hooks (this folder)",
        WARN,
        f"started in {real_cwd}, {setup.title} reads its project settings from {shown} only: "
        f"the hooks at {real_root} do not run",
        f"start {setup.program} at {real_root}, or: jitctx install {setup.name} --scope user",
    )


def project_places(setup: Setup, root: str) -> list[Place]:
    return [(scope, setup.settings_path(scope, root, "", {})) for scope in setup.scopes if scope != "user"]
