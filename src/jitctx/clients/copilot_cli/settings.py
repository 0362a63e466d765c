"""What Copilot CLI's own files say about hooks: the folders the user trusts and the switch that turns
every hook off.

`~/.copilot/config.json` is written by the client itself, with `//` comment lines at its head; it keeps
`trustedFolders`, the folders whose repository configuration (hooks included) the user accepted.
`disableAllHooks: true` in the user's or the repository's settings.json stops every hook.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jitctx.clients.copilot_cli.hooks import config_home
from jitctx.clients.kit.jsonc import read_jsonc
from jitctx.paths import is_inside

# Variables with which a `-p` run loads the repository's hooks without a recorded trust.
TRUSTING_VARIABLES = ("COPILOT_ALLOW_ALL", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS")


def trusting_variable(environ: Mapping[str, str]) -> str | None:
    """The variable that makes a `-p` run load the repository's hooks, when one is set to "true"."""
    return next((name for name in TRUSTING_VARIABLES if environ.get(name, "").strip() == "true"), None)


def trusted_folder(root: str, home: str | None, environ: Mapping[str, str]) -> str | None:
    """The entry of `trustedFolders` that holds `root` (the folder itself or one above it), else None."""
    if not home and not environ.get("COPILOT_HOME"):
        return None
    config = read_jsonc(str(config_home(home or "", environ) / "config.json"))
    folders = config.get("trustedFolders") if config else None
    if not isinstance(folders, list):
        return None
    real = os.path.realpath(root)
    for folder in folders:
        if not isinstance(folder, str) or not os.path.isabs(folder):
            continue
        base = os.path.realpath(folder)
        if is_inside(real, base):
            return folder
    return None


def hooks_disabled(data: Mapping[str, Any]) -> bool:
    return data.get("disableAllHooks") is True
