"""Claude Code's own AGENTS.md reading, set by its built-in agents-md plugin (since 2.1.277; 2.1.197 has
none and reads no AGENTS.md at all).

The mode is `pluginConfigs["cc-plugin-agents-md@builtin"].options.instructionFiles` (the key 2.1.332
honours, seen live; `agents-md@builtin` is read too), from the user's settings and the managed ones, the
managed winning (a project's settings do not set it); the older `projectInstructions` (`none`, `claude`,
`agents-fallback`, `both`) is honoured while `instructionFiles` keeps its default, as the plugin does.
`disableAllHooks` switches the plugin off.

    claude-md-or-agents-md   (default) AGENTS.md where no CLAUDE.md is on the chain
    claude-md-and-agents-md  AGENTS.md beside CLAUDE.md
    claude-md                no AGENTS.md
    managed-only             only the organisation's files (and auto-memory) at start

jitctx sends what the mode leaves out, so each file reaches the model once either way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from jitctx.profiles import Profile
from jitctx.safe_open import read_regular

PLUGINS = ("cc-plugin-agents-md@builtin", "agents-md@builtin")
FIRST_RELEASE = (2, 1, 277)  # the first with the plugin
DEFAULT = "claude-md-or-agents-md"
MODES = ("claude-md", DEFAULT, "claude-md-and-agents-md", "managed-only")
_LEGACY = {"none": "managed-only", "claude": "claude-md", "agents-fallback": DEFAULT,
           "both": "claude-md-and-agents-md"}  # fmt: skip
MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json"
MAX_BYTES = 1 << 20


def _settings(path: str) -> dict[str, Any]:
    data = read_regular(path, MAX_BYTES)
    try:
        value = json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def mode_in_force(
    home: str | None, managed: str = MANAGED_SETTINGS, release: tuple[int, ...] | None = ()
) -> str:
    """The AGENTS.md mode of the user's and the managed settings; "claude-md" when hooks are off, and for a
    release before the plugin or an unknown one (`release=None`): the hook then sends AGENTS.md, a
    possible duplicate rather than a rule that never arrives. `release=()` reads the settings alone."""
    if release is None or (release and release < FIRST_RELEASE):
        return "claude-md"
    layers = [_settings(os.path.join(home, ".claude", "settings.json"))] if home else []
    layers.append(_settings(managed))
    instruction_files = legacy = None
    for layer in layers:  # the managed settings last: they win
        if layer.get("disableAllHooks") is True:
            return "claude-md"  # the plugin is a hook: switched off with every other
        configs = layer.get("pluginConfigs")
        for name in PLUGINS if isinstance(configs, Mapping) else ():
            plugin = configs.get(name) if isinstance(configs, Mapping) else None
            options = plugin.get("options") if isinstance(plugin, Mapping) else None
            if not isinstance(options, Mapping):
                continue
            if options.get("instructionFiles") in MODES:
                instruction_files = options["instructionFiles"]
            if isinstance(options.get("projectInstructions"), str):
                legacy = _LEGACY.get(options["projectInstructions"], "claude-md")
    if legacy is not None and instruction_files in (None, DEFAULT):
        return legacy
    return instruction_files or DEFAULT


def profile_for(mode: str, profile: Profile) -> Profile:
    """What Claude Code reads by itself under `mode` (its profile is the default mode's)."""
    if mode == DEFAULT:
        return profile
    own = tuple(name for name in profile.native_files if name != "AGENTS.md")
    if mode == "claude-md-and-agents-md":
        return replace(profile, dir_files=(*profile.dir_files, "AGENTS.md"), fallback_files=())
    if mode == "managed-only":
        return replace(
            profile, dir_files=(), fallback_files=(), local_files=(), rules_dirs=(), user_files=(),
            user_rules_dirs=(), native_jit=False, native_files=(),
        )  # fmt: skip
    return replace(profile, fallback_files=(), native_files=own)
