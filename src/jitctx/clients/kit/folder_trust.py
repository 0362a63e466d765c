"""The folder-trust file of Gemini CLI and its fork Qwen Code (`trustedFolders.json`): absolute folders
mapped to TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST; the nearest record holding a folder decides."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jitctx.paths import is_inside


def nearest_trust(root: str, records: Mapping[str, Any]) -> str | None:
    """ "trusted", "untrusted", or None when no record holds `root` (real paths compared)."""
    real = os.path.realpath(root)
    verdict: tuple[int, str] | None = None
    for folder, level in records.items():
        if not isinstance(folder, str) or not isinstance(level, str) or not os.path.isabs(folder):
            continue
        try:
            base = os.path.realpath(folder)
        except ValueError:  # a name the OS refuses records nothing
            continue
        if level == "TRUST_PARENT":
            base = os.path.dirname(base)
        if not is_inside(real, base):
            continue
        state = "untrusted" if level == "DO_NOT_TRUST" else "trusted"
        if verdict is None or len(base) > verdict[0]:  # the nearest record wins
            verdict = (len(base), state)
    return verdict[1] if verdict else None
