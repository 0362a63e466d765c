"""OpenCode's doctor checks: jitctx's plugin file in each scope (present, jitctx's, current, its command
runnable), and the switches that keep OpenCode from loading it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from jitctx.clients.kit.checks import OK, PROBLEM, SKIP, WARN, Check
from jitctx.clients.kit.doctor_kit import command_check, scopes_check, version_check
from jitctx.clients.kit.settings_file import SettingsError
from jitctx.clients.opencode.hooks import TOOL_BEFORE
from jitctx.clients.opencode.plugin import command_of, is_ours, read_text, render

if TYPE_CHECKING:
    from pathlib import Path

    from jitctx.clients.base import Setup

# Set, OpenCode loads no plugin at all (`--pure` does the same for one run), or no project config.
NO_PLUGINS = "OPENCODE_PURE"
NO_PROJECT = "OPENCODE_DISABLE_PROJECT_CONFIG"


def _set(environ: Mapping[str, str], name: str) -> bool:
    return environ.get(name, "").strip().lower() in ("1", "true")


def plugin_check(setup: Setup, scope: str, path: Path) -> tuple[Check, str | None]:
    """The plugin file of one scope, and the command it runs when it is jitctx's and current."""
    name = f"plugin ({scope})"
    fix = f"jitctx install {setup.name} --scope {scope}"
    try:
        text = read_text(path)
    except SettingsError as exc:
        return Check(setup.name, name, PROBLEM, str(exc), fix), None
    if text is None:  # one scope is enough: `doctor` weighs the scopes together
        return Check(setup.name, name, SKIP, f"{path}: no jitctx plugin", fix), None
    if not is_ours(text):
        return Check(
            setup.name, name, PROBLEM, f"{path} is not jitctx's plugin", f"move it away; {fix}"
        ), None
    command = command_of(text)
    if command is None:
        return Check(setup.name, name, PROBLEM, f"{path}: its hook command cannot be read", fix), None
    try:
        current = render(command)
    except SettingsError as exc:
        return Check(setup.name, name, PROBLEM, str(exc), "reinstall jitctx"), command
    if text != current:
        detail = f"{path} is from another jitctx release: reinstall to get this one's"
        if f'"{TOOL_BEFORE}"' not in text:
            detail += " (that one does not hold back a write whose rules the model has not seen)"
        return Check(setup.name, name, WARN, detail, fix), command
    return Check(setup.name, name, OK, f"{path} runs {command}"), command


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    checks = [version_check(setup)]
    found_in: list[str] = []
    scopes = [scope for scope in setup.scopes if home is not None or scope != "user"]
    plugins: list[Check] = []
    commands: list[Check] = []
    for scope in scopes:
        path = setup.settings_path(scope, root, home or "", environ)
        check, command = plugin_check(setup, scope, path)
        plugins.append(check)
        if command is not None:
            found_in.append(scope)
            # The plugin starts the command itself and leaves OpenCode alone when it cannot.
            commands.append(command_check(setup.name, command, scope, answers_without=True))
    installed = bool(found_in)
    checks.extend(check for check in plugins if check.status != SKIP)  # one scope is enough
    checks.extend(scopes_check(setup.name, "plugin", found_in, scopes))
    checks.extend(commands)
    if installed and _set(environ, NO_PLUGINS):
        checks.append(
            Check(
                setup.name,
                "plugins",
                PROBLEM,
                f"{NO_PLUGINS} is set: OpenCode loads no plugin",
                f"unset {NO_PLUGINS}",
            )
        )
    if installed and _set(environ, NO_PROJECT):
        checks.append(
            Check(
                setup.name,
                "project config",
                WARN,
                f"{NO_PROJECT} is set: OpenCode ignores the project's .opencode/, and its plugin",
                f"unset {NO_PROJECT}, or: jitctx install {setup.name} --scope user",
            )
        )
    return checks, installed
