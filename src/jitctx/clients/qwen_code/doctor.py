"""Qwen Code's own doctor checks: hooks switched off in its settings, folder trust (when switched on, a
project's settings, its hooks included, count only in a trusted folder), and jitctx's status line when
it is set."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check, Handler
from jitctx.clients.kit.doctor_kit import launch_dir_check, settings_checks
from jitctx.clients.kit.status_line import status_line_checks
from jitctx.clients.qwen_code.settings import folder_trust, hooks_disabled, trust_enabled

if TYPE_CHECKING:
    from jitctx.clients.base import Setup


def doctor(setup: Setup, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
    places = [("project", setup.settings_path("project", root, "", environ))]
    if home:
        places.append(("user", setup.settings_path("user", root, home, environ)))

    def disabled(data: dict[str, Any], path: Path, name: str) -> list[Check]:
        if not hooks_disabled(data):
            return []
        return [
            Check(
                setup.name,
                name,
                PROBLEM,
                f"{path}: disableAllHooks is true: Qwen Code runs no hook at all",
                f"remove disableAllHooks from {path}",
            )
        ]

    def trust(scope: str, path: Path, handlers: list[Handler]) -> list[Check]:
        return [trust_check(setup.name, root, home, environ)] if scope == "project" else []

    checks, installed = settings_checks(
        setup, places, settings_problems=disabled, scope_checks=trust, last=status_line_checks(setup, places)
    )
    user = any(check.name == "hooks (user)" and check.status == OK for check in checks)
    launch = launch_dir_check(setup, root, os.getcwd(), user)
    return [*checks, *([launch] if launch is not None else [])], installed


def trust_check(name: str, root: str, home: str | None, environ: Mapping[str, str]) -> Check:
    if not trust_enabled(home, environ):
        return Check(name, "trust (folder)", OK, "folder trust is off (the default): every folder is trusted")
    state = folder_trust(root, home, environ)
    if state == "trusted":
        return Check(name, "trust (folder)", OK, f"{root} is trusted: Qwen Code runs its project hooks")
    fix = (
        "trust the folder in Qwen Code (it asks when started there), or: "
        "jitctx install qwen-code --scope user"
    )
    if state == "untrusted":
        return Check(
            name,
            "trust (folder)",
            PROBLEM,
            f"{root} is not trusted: Qwen Code ignores its .qwen/settings.json (hooks included)",
            fix,
        )
    return Check(
        name,
        "trust (folder)",
        WARN,
        f"folder trust is on and Qwen Code has not recorded trust for {root}: until it is trusted, the "
        "project's settings (hooks included) and context files are not read",
        fix,
    )
