"""`jitctx doctor` on the Claude Code plugin: is jitctx installed as a plugin, enabled, and has its first-use
install into the plugin's data folder finished?

Claude Code lists installed plugins in `~/.claude/plugins/installed_plugins.json` (`{"plugins":
{"name@marketplace": [{"scope", "installPath", ...}]}}`), enables them in a settings file's
`enabledPlugins` (`{"name@marketplace": true}`), and gives each its data folder
`~/.claude/plugins/data/<name@marketplace with every [^A-Za-z0-9_-] as ->`. The plugin's bootstrap
(plugin/scripts/jitctx-plugin) leaves `installed-<version>` there when done, `installing/` while it works
and `install-failed` after a failure, with `install.log`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jitctx.cli.doctor_checks import OK, PROBLEM, WARN, Check

CLIENT = "claude-code"


def installed_plugin_ids(home: Path) -> list[str]:
    """The ids (`jitctx@marketplace`) of jitctx plugins Claude Code has installed for this home."""
    from jitctx.discovery.quick import read_state_file

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


CODEX_HOOKS_FILE = "hooks/codex-hooks.json"  # what plugin/.codex-plugin/plugin.json names


def codex_plugin_checks(
    codex_home: Path, config: Mapping[str, Any], events: Iterable[str]
) -> tuple[list[Check], bool]:
    """The jitctx plugin in Codex: enabled in config.toml (`[plugins."jitctx@..."] enabled = true`), its
    hooks trusted (keys `<id>:hooks/codex-hooks.json:<event>:0:0` under [hooks.state]; for plugin hooks
    only the record's presence is checked, Codex hashes them in a way not reproduced here), and its
    first-use install done (`$CODEX_HOME/plugins/data/<id>`)."""
    from jitctx.cli.doctor_checks import snake

    plugins = config.get("plugins")
    hooks = config.get("hooks")
    states = hooks.get("state") if isinstance(hooks, dict) else None
    checks: list[Check] = []
    active = False
    for plugin_id, entry in (plugins or {}).items() if isinstance(plugins, dict) else ():
        if not isinstance(plugin_id, str) or plugin_id.split("@", 1)[0] != "jitctx":
            continue
        name = f"plugin {plugin_id}"
        if not (isinstance(entry, dict) and entry.get("enabled") is True):
            checks.append(Check("codex", name, WARN, "installed but not enabled"))
            continue
        active = True
        checks.append(install_check("codex", name, data_dir(codex_home, plugin_id)))
        waiting = [
            event
            for event in events
            if not (
                isinstance(states, dict)
                and isinstance(states.get(f"{plugin_id}:{CODEX_HOOKS_FILE}:{snake(event)}:0:0"), dict)
            )
        ]
        if waiting:
            checks.append(
                Check(
                    "codex",
                    f"trust ({plugin_id})",
                    PROBLEM,
                    f"no trust recorded for the plugin's {', '.join(waiting)}; Codex does not run them",
                    "start Codex, type /hooks and trust the jitctx hooks",
                )
            )
        else:
            checks.append(Check("codex", f"trust ({plugin_id})", OK, "trust recorded for every plugin hook"))
    return checks, active
