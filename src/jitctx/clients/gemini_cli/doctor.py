"""Gemini CLI's own doctor checks: hooks switched off in its settings, and folder trust (a project's
hooks run only in a trusted folder)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.gemini_cli.settings import folder_trust
from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check, Handler
from jitctx.clients.kit.doctor_kit import launch_dir_check, settings_checks
from jitctx.clients.kit.jsonc import read_jsonc

if TYPE_CHECKING:
    from jitctx.clients.base import Setup


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    places = [("project", setup.settings_path("project", root, "", environ))]
    if home:
        places.append(("user", setup.settings_path("user", root, home, environ)))

    def disabled(data: dict[str, Any], path: Path, name: str) -> list[Check]:
        config = data.get("hooksConfig")
        if isinstance(config, dict) and config.get("enabled") is False:
            return [
                Check(
                    setup.name,
                    name,
                    PROBLEM,
                    f"{path}: hooksConfig.enabled is false: Gemini CLI runs no hook at all",
                    f"remove hooksConfig.enabled from {path}",
                )
            ]
        return []

    def trust(scope: str, path: Path, handlers: list[Handler]) -> list[Check]:
        if scope != "project":
            return []
        return [trust_check(setup.name, root, home, environ)]

    checks, installed = settings_checks(setup, places, settings_problems=disabled, scope_checks=trust)
    user = any(check.name == "hooks (user)" and check.status == OK for check in checks)
    launch = launch_dir_check(setup, root, os.getcwd(), user)
    return [*checks, *([launch] if launch is not None else [])], installed


def trust_check(name: str, root: str, home: str | None, environ: Mapping[str, str]) -> Check:
    if environ.get("GEMINI_CLI_TRUST_WORKSPACE", "").lower() == "true":
        return Check(name, "trust (folder)", OK, "GEMINI_CLI_TRUST_WORKSPACE=true: every folder is trusted")
    user = read_jsonc(f"{home}/.gemini/settings.json") if home else None
    security = user.get("security") if user else None
    folder = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(folder, dict) and folder.get("enabled") is False:
        return Check(
            name, "trust (folder)", OK, "security.folderTrust.enabled is false: every folder is trusted"
        )
    state = folder_trust(root, home, environ)
    if state == "trusted":
        return Check(name, "trust (folder)", OK, f"{root} is trusted: Gemini CLI runs its project hooks")
    if state == "untrusted":
        return Check(
            name,
            "trust (folder)",
            PROBLEM,
            f"{root} is not trusted: Gemini CLI ignores its .gemini/settings.json (hooks included)",
            f"trust the folder in Gemini CLI (/permissions), or set {json.dumps(root)} to TRUST_FOLDER in "
            "~/.gemini/trustedFolders.json; or: jitctx install gemini-cli --scope user",
        )
    return Check(
        name,
        "trust (folder)",
        WARN,
        f"Gemini CLI has not recorded trust for {root}: it runs the project's hooks once the folder is "
        "trusted. It asks when started there; a headless run (-p) does not ask, and --skip-trust keeps "
        "it running but trusts the folder only after the project's settings, hooks included, were read "
        "and dropped",
        f"start `gemini` in {root} once and trust the folder (or add {json.dumps(root)}: "
        '"TRUST_FOLDER" to ~/.gemini/trustedFolders.json); for headless runs without that record, set '
        "GEMINI_CLI_TRUST_WORKSPACE=true instead of --skip-trust",
    )
