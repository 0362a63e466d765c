"""What Gemini CLI's own files say: the context file names (`context.fileName`) and folder trust.

Settings are merged user (`~/.gemini/settings.json`) then project (`.gemini/settings.json`), a later one
winning; Gemini CLI reads them as JSON with comments. `context.fileName` is a string or a list of
strings. Trust is kept in `~/.gemini/trustedFolders.json`: `{"/abs/path": "TRUST_FOLDER" |
"TRUST_PARENT" | "DO_NOT_TRUST"}` (TRUST_PARENT trusts the folder's parent and what is below it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from jitctx.clients.gemini_cli.profile import DEFAULT_CONTEXT_FILES
from jitctx.clients.kit.folder_trust import nearest_trust
from jitctx.clients.kit.jsonc import read_jsonc


def _places(root: str, home: str | None) -> list[str]:
    places = [os.path.join(home, ".gemini", "settings.json")] if home else []
    return [*places, os.path.join(root, ".gemini", "settings.json")]


def context_file_names(root: str, home: str | None) -> tuple[str, ...]:
    """The file names Gemini CLI loads as context in this project: those of `context.fileName` and
    GEMINI.md, which it always keeps (0.61.0: `"AGENTS.md"` reads as AGENTS.md and GEMINI.md)."""
    names: tuple[str, ...] = DEFAULT_CONTEXT_FILES
    for place in _places(root, home):
        data = read_jsonc(place)
        context = data.get("context") if data is not None else None
        value = context.get("fileName") if isinstance(context, dict) else None
        if isinstance(value, str) and _plain_name(value):
            names = (value,)
        elif isinstance(value, list) and value and all(isinstance(v, str) and _plain_name(v) for v in value):
            names = tuple(value)
    return tuple(dict.fromkeys((*names, *DEFAULT_CONTEXT_FILES)))


def _plain_name(name: str) -> bool:
    """A file name, not a path: the client looks it up in each directory."""
    return (
        bool(name) and "/" not in name and "\\" not in name and name not in (".", "..") and "\0" not in name
    )


def trust_file(home: str | None, environ: Mapping[str, str]) -> str | None:
    """Where Gemini CLI keeps folder trust ($GEMINI_CLI_TRUSTED_FOLDERS_PATH, else the home's)."""
    explicit = environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    if explicit and os.path.isabs(explicit):
        return explicit
    return os.path.join(home, ".gemini", "trustedFolders.json") if home else None


def folder_trust(root: str, home: str | None, environ: Mapping[str, str]) -> str | None:
    """The folder's trust: "trusted", "untrusted", or None when Gemini CLI recorded nothing for it or a
    parent. The longest recorded path that holds the folder decides."""
    place = trust_file(home, environ)
    if place is None:
        return None
    data = read_jsonc(place)
    if data is None:
        return None
    return nearest_trust(root, data)
