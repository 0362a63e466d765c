"""OpenCode's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.opencode.client import CLIENT
from jitctx.clients.opencode.doctor import doctor
from jitctx.clients.opencode.hooks import ENTRIES, plugin_path
from jitctx.clients.opencode.loading import config_home
from jitctx.clients.opencode.plugin import install_file

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry

INSTALL_NOTE = """\
jitctx: OpenCode loads the plugin when it starts (no trust step): plugins from the .opencode/ folders
        from where it starts up to the worktree, and from ~/.config/opencode/. `opencode --pure` and
        OPENCODE_PURE=1 load none. OpenCode installs its own plugin SDK into .opencode/ on its next start
        (package.json, node_modules/, with a .gitignore); jitctx's plugin needs none of it."""


class OpenCodeSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "jitctx's plugin file in each scope (present, jitctx's, current, its command runnable), and the "
        "switches that keep OpenCode from loading it"
    )
    scopes = ("project", "user")
    install_note = INSTALL_NOTE
    hooks_file = True

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return plugin_path(scope, root, home, environ)

    def user_folder(self, home: str, environ: Mapping[str, str]) -> Path | None:
        return config_home(home, environ)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return ENTRIES

    def install_file(self, path: Path, command: str | None, state: Path, dry_run: bool) -> Any:
        return install_file(path, command, state, dry_run, tuple(e.event for e in self.entries()))

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = OpenCodeSetup(CLIENT)
