"""Gemini CLI's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.gemini_cli.client import CLIENT
from jitctx.clients.gemini_cli.doctor import doctor
from jitctx.clients.gemini_cli.hooks import ENTRIES, settings_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry

TRUST_NOTE = """\
jitctx: Gemini CLI runs a project's hooks only in a folder you trust, and reads them from the
        .gemini/settings.json of the folder it starts in (not of a parent): start `gemini` in the project
        root and trust the folder when it asks. Headless runs: GEMINI_CLI_TRUST_WORKSPACE=true (not
        --skip-trust, which ignores the project's settings, hooks included). `jitctx doctor` reads the
        trust recorded in ~/.gemini/trustedFolders.json."""


class GeminiCliSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "settings that switch hooks off; folder trust (a project's hooks run only in a trusted folder)"
    )
    settings_where_started = True  # 0.61.0 reads `<cwd>/.gemini/settings.json`, no parent's
    scopes = ("project", "user")
    settings_comments = True
    install_note = TRUST_NOTE

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return settings_path(scope, root, home)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = GeminiCliSetup(CLIENT)
