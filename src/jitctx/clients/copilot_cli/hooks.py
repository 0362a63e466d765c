"""Where GitHub Copilot CLI's hooks are registered, and the entries `install` writes (its payloads:
`events`).

Hooks are registered under `hooks` in a settings file, keyed by event, in the same groups as Claude
Code's (`{hooks: [{type: "command", command, timeout}]}`, `timeout` in seconds): the repository's
`.github/copilot/settings.json` (project) or `~/.copilot/settings.json` (user, `$COPILOT_HOME` moves it).
Copilot CLI also reads `.github/hooks/*.json` (`{"version": 1, "hooks": ...}`); the settings files take
the same `hooks` without a version, so jitctx's entries sit beside the user's other settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from jitctx.clients.copilot_cli import tools
from jitctx.clients.copilot_cli.events import KINDS
from jitctx.clients.kit.settings_file import HookEntry
from jitctx.touched.tools import held_tools

if TYPE_CHECKING:
    from collections.abc import Mapping

TIMEOUT_S = 30
# The calls that may write, before they run: the file tools that write and the shell. Copilot CLI runs a
# preToolUse hook with a matcher only for the tool names that match all of it (1.0.36).
HOLD_TOOLS = held_tools(tools.TOOLS, tools.WRITES)
HOLD_MATCHER = f"^({'|'.join(HOLD_TOOLS)})$"
# No matcher after the call: the postToolUse payload names the tool by its own name, and jitctx's fast
# lane answers a call that touches nothing at once.
ENTRIES: tuple[HookEntry, ...] = tuple(
    HookEntry(event, HOLD_MATCHER if event == "preToolUse" else None, TIMEOUT_S, fails_closed=True)
    for event in KINDS
)


def settings_path(scope: str, root: str, home: str, environ: Mapping[str, str]) -> Path:
    if scope == "user":
        return config_home(home, environ) / "settings.json"
    return Path(root) / ".github" / "copilot" / "settings.json"


def config_home(home: str, environ: Mapping[str, str]) -> Path:
    """Where Copilot CLI keeps its user configuration: $COPILOT_HOME, else ~/.copilot."""
    explicit = environ.get("COPILOT_HOME")
    return Path(explicit) if explicit else Path(home) / ".copilot"
