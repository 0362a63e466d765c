"""`jitctx doctor` on a client's jitctx plugin: enabled, and its first-use install into the plugin's data
folder finished? The plugin's bootstrap (plugin/scripts/jitctx-plugin) leaves `installed-<version>` there
when done, `installing/` while it works and `install-failed` after a failure, with `install.log`. Which
plugins a client has installed and enabled, its folder tells (`claude_code.plugin`, `codex.plugin`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check


def enabled(plugin_id: str, settings: Iterable[Mapping[str, Any]]) -> bool:
    """Enabled in one of the settings files read (a later one wins: user, then project, then local)."""
    state = False
    for data in settings:
        flags = data.get("enabledPlugins")
        if isinstance(flags, dict) and isinstance(flags.get(plugin_id), bool):
            state = flags[plugin_id]
    return state


def data_dir(client_home: Path, plugin_id: str) -> Path:
    """A plugin's ${CLAUDE_PLUGIN_DATA} under a client's own folder (~/.claude, or $CODEX_HOME)."""
    return client_home / "plugins" / "data" / re.sub(r"[^a-zA-Z0-9\-_]", "-", plugin_id)


def install_check(client: str, name: str, data: Path) -> Check:
    """How far the plugin's first-use install of jitctx into its data folder `data` got."""
    log = data / "install.log"
    if any(data.glob("installed-*")):
        return Check(client, name, OK, f"enabled; jitctx installed in {data / 'venv'}")
    if (data / "install-failed").exists():
        return Check(
            client,
            name,
            PROBLEM,
            f"the first-use install of jitctx failed (see {log})",
            "fix what install.log says; the plugin retries an hour after a failure",
        )
    if (data / "installing").exists():
        return Check(client, name, WARN, f"installing jitctx into {data} (see {log})")
    return Check(
        client,
        name,
        WARN,
        "enabled, not used yet: the first session installs jitctx "
        f"into {data} and starts without jitctx's context",
    )
