"""Claude Code's setup: where `install` registers its hooks, and what `doctor` checks
(`jitctx.clients.base.Setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jitctx.clients.base import Setup
from jitctx.clients.claude_code.client import CLIENT
from jitctx.clients.claude_code.doctor import doctor
from jitctx.clients.claude_code.hooks import ENTRIES, MCP_ENTRIES, settings_path

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from jitctx.clients.kit.checks import Check
    from jitctx.clients.kit.settings_file import HookEntry


class ClaudeCodeSetup(Setup):
    # What its `doctor` checks of its own (`doctor --help`).
    doctor_note = (
        "settings that switch hooks off (disableAllHooks); the `jitctx mcp` server of `install "
        "--transport mcp`; the jitctx plugin, when installed (enabled, its first-use install of jitctx "
        "done; an enabled plugin's hooks count as installed); jitctx's status line, when set"
    )
    scopes = ("project", "local", "user")
    settings_where_started = True  # 2.1.197 and 2.1.332, started in src/ui: src/ui/.claude/ only
    # {"type": "command", "command": ...}, in any scope (2.1.332's settings schema; its input on stdin
    # carries the hooks' session_id)
    status_line_setting = ("statusLine",)

    def settings_path(self, scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
        return settings_path(scope, root, home)

    def entries(self, transport: str = "command") -> tuple[HookEntry, ...]:
        return MCP_ENTRIES if transport == "mcp" else ENTRIES

    def doctor(self, root: str, home: str | None, environ: Mapping[str, str]) -> tuple[list[Check], bool]:
        return doctor(self, root, home, environ)


SETUP = ClaudeCodeSetup(CLIENT)
