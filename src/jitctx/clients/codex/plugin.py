"""The jitctx plugin in Codex: enabled in config.toml, its hooks trusted, its first-use install done."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jitctx.clients.kit.checks import OK, PROBLEM, WARN, Check, snake
from jitctx.clients.kit.plugin_doctor import data_dir, install_check

CODEX_HOOKS_FILE = "hooks/codex-hooks.json"  # what plugin/.codex-plugin/plugin.json names


def codex_plugin_checks(
    codex_home: Path, config: Mapping[str, Any], events: Iterable[str]
) -> tuple[list[Check], bool]:
    """The jitctx plugin in Codex: enabled in config.toml (`[plugins."jitctx@..."] enabled = true`), its
    hooks trusted (keys `<id>:hooks/codex-hooks.json:<event>:0:0` under [hooks.state]; for plugin hooks
    only the record's presence is checked, Codex hashes them in a way not reproduced here), and its
    first-use install done (`$CODEX_HOME/plugins/data/<id>`)."""
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
