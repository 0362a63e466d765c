"""Qwen Code's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.qwen_code.client import CLIENT
from jitctx.clients.qwen_code.doctor import doctor
from jitctx.clients.qwen_code.hooks import ENTRIES, settings_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry

TRUST_NOTE = """\
jitctx: Qwen Code reads a project's hooks from the .qwen/settings.json of the folder it starts in (not
        of a parent): start `qwen` in the project root. Folder trust is off by default, and then no
        trust step is needed; with security.folderTrust.enabled, trust the folder when Qwen Code asks
        (an untrusted folder's settings, hooks included, are ignored). `jitctx doctor` reads the trust
        recorded in ~/.qwen/trustedFolders.json."""


class QwenCodeSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "settings that switch hooks off; folder trust (when it is on, a project's settings, its hooks "
        "included, count only in a trusted folder); jitctx's status line, when set"
    )
    settings_where_started = True  # 0.24.4 reads `<cwd>/.qwen/settings.json`, no parent's
    scopes = ("project", "user")
    settings_comments = True
    install_note = TRUST_NOTE
    # 0.24.4's `ui.statusLine` runs a command with the session's id on stdin (`session_id`, the id its
    # hooks carry: docs/features/status-line.md, startInteractiveUI's status line input).
    status_line_setting = ("ui", "statusLine")

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return settings_path(scope, root, home, environ)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = QwenCodeSetup(CLIENT)
