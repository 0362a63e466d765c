"""Codex's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.codex.client import CLIENT
from jitctx.clients.codex.doctor import doctor
from jitctx.clients.codex.hooks import ENTRIES, settings_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry

TRUST_NOTE = """\
jitctx: Codex runs a new or changed hook only after you trust it: start Codex, type /hooks, and trust
        the jitctx hooks (a project's .codex/ is read only in a folder Codex trusts, too).
        Check with `jitctx doctor`: it reads the trust Codex recorded in ~/.codex/config.toml
        ($CODEX_HOME/config.toml), the [hooks.state."<hooks.json>:<event>:<group>:<handler>"] tables."""


class CodexSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "its config.toml (readable, `features.hooks` not false); the trust it recorded for each hook "
        '(config.toml, [hooks.state."<hooks.json>:<event>:<group>:<handler>"]: trust them with /hooks in '
        "Codex) and for the project folder (it ignores .codex/ in a folder it does not trust); the jitctx"
        " plugin, when installed, with a trust record for each of its hooks"
    )
    scopes = ("project", "user")
    install_note = TRUST_NOTE

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return settings_path(scope, root, home, environ.get("CODEX_HOME") or None)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = CodexSetup(CLIENT)
