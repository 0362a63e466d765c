"""GitHub Copilot CLI's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.copilot_cli.client import CLIENT
from jitctx.clients.copilot_cli.doctor import doctor
from jitctx.clients.copilot_cli.hooks import ENTRIES, settings_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry

TRUST_NOTE = """\
jitctx: GitHub Copilot CLI runs a repository's hooks only in a folder you trust: start `copilot` in the
        project and trust the folder when it asks (kept in ~/.copilot/config.json, trustedFolders).
        Runs with -p: GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (or COPILOT_ALLOW_ALL=true);
        --trust-folder serves a new session only (not --resume or --continue). User hooks (--scope
        user) need no trust."""


class CopilotCliSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "disableAllHooks in a settings file; folder trust (the repository's hooks run only in a trusted "
        "folder)"
    )
    scopes = ("project", "user")
    settings_comments = True
    install_note = TRUST_NOTE

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return settings_path(scope, root, home, environ)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = CopilotCliSetup(CLIENT)
