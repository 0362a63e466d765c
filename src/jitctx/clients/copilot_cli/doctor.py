"""Copilot CLI's own doctor checks: `disableAllHooks` in a settings file, and folder trust (the
repository's hooks run only in a trusted folder)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.copilot_cli.settings import hooks_disabled, trusted_folder, trusting_variable
from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check, Handler, our_handlers
from jitctx.clients.kit.doctor_kit import settings_checks, settings_data

if TYPE_CHECKING:
    from jitctx.clients.base import Setup


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    places = [("project", setup.settings_path("project", root, "", environ))]
    if home or environ.get("COPILOT_HOME"):
        places.append(("user", setup.settings_path("user", root, home or "", environ)))

    def disabled(data: dict[str, Any], path: Path, name: str) -> list[Check]:
        if not hooks_disabled(data):
            return []
        detail = f"{path}: disableAllHooks is true: Copilot CLI runs no hook at all"
        return [Check(setup.name, name, PROBLEM, detail, f"remove disableAllHooks from {path}")]

    # Hooks of the user scope run in any folder: with them, an untrusted folder costs nothing, and
    # installing them is no advice to give.
    user_hooks = any(bool(our_handlers(settings_data(path), setup.name)) for scope, path in places[1:])

    def trust(scope: str, path: Path, handlers: list[Handler]) -> list[Check]:
        return [trust_check(setup.name, root, home, environ, user_hooks)] if scope == "project" else []

    return settings_checks(setup, places, settings_problems=disabled, scope_checks=trust)


def trust_check(
    name: str, root: str, home: str | None, environ: Mapping[str, str], user_hooks: bool = False
) -> Check:
    check = "trust (folder)"
    variable = trusting_variable(environ)
    if variable is not None:
        return Check(name, check, OK, f"{variable}=true: the repository's hooks load in every folder")
    folder = trusted_folder(root, home, environ)
    if folder is not None:
        return Check(name, check, OK, f"{root} is trusted (trustedFolders: {folder}): its hooks run")
    return Check(
        name,
        check,
        WARN,
        f"Copilot CLI has not recorded trust for {root}: it runs the repository's hooks once you trust "
        "the folder (it asks when started there). A -p run does not ask: GITHUB_COPILOT_PROMPT_MODE_"
        "REPO_HOOKS=true (or COPILOT_ALLOW_ALL=true, which also allows every tool) loads them; "
        "--trust-folder does for a new session only (1.0.102 refuses it with --resume, --continue "
        "and --session-id)",
        "start `copilot` in the project and trust the folder"
        + (
            " (the user scope's jitctx hooks run meanwhile)"
            if user_hooks
            else ", or: jitctx install copilot-cli --scope user"
        ),
    )
