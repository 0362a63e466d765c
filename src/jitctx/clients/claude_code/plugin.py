"""The jitctx plugin in Claude Code: installed, enabled, its first-use install done.

Claude Code lists installed plugins in `~/.claude/plugins/installed_plugins.json` (`{"plugins":
{"name@marketplace": [{"scope", "installPath", ...}]}}`), enables them in a settings file's
`enabledPlugins` (`{"name@marketplace": true}`), and gives each its data folder
`~/.claude/plugins/data/<name@marketplace with every [^A-Za-z0-9_-] as ->`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jitctx.clients.kit.checks import WARN, Check
from jitctx.clients.kit.plugin_doctor import data_dir, enabled, install_check
from jitctx.safe_open import read_state_file

CLIENT = "claude-code"


def installed_plugin_ids(home: Path) -> list[str]:
    """The ids (`jitctx@marketplace`) of jitctx plugins Claude Code has installed for this home."""
    try:
        listing = json.loads(
            read_state_file(str(home / ".claude" / "plugins" / "installed_plugins.json"), 1 << 20)
        )
    except (OSError, ValueError):
        return []
    plugins = listing.get("plugins") if isinstance(listing, dict) else None
    if not isinstance(plugins, dict):
        return []
    return [key for key in plugins if isinstance(key, str) and key.split("@", 1)[0] == "jitctx"]


def plugin_checks(home: Path, settings: list[Mapping[str, Any]]) -> tuple[list[Check], bool]:
    """One check per installed jitctx plugin; and whether one is enabled (then its hooks run)."""
    checks: list[Check] = []
    active = False
    for plugin_id in installed_plugin_ids(home):
        name = f"plugin {plugin_id}"
        if not enabled(plugin_id, settings):
            checks.append(
                Check(CLIENT, name, WARN, "installed but not enabled", f"claude plugin enable {plugin_id}")
            )
            continue
        active = True
        checks.append(install_check(CLIENT, name, data_dir(home / ".claude", plugin_id)))
    return checks, active
