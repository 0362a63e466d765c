"""What Qwen Code's own files say: where they are, the context file names (`context.fileName`), whether
hooks are switched off (`disableAllHooks`), and folder trust.

Settings are merged user (`$QWEN_HOME/settings.json`, else `~/.qwen/settings.json`) then project
(`<cwd>/.qwen/settings.json`), a later one winning; Qwen Code reads them as JSON with comments. A project's
settings count only in a trusted folder. Folder trust is off unless `security.folderTrust.enabled` is
true in the user settings; then `trustedFolders.json` beside them ($QWEN_CODE_TRUSTED_FOLDERS_PATH wins)
holds `{"/abs/path": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"}`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jitctx.clients.kit.folder_trust import nearest_trust
from jitctx.clients.kit.jsonc import read_jsonc
from jitctx.clients.qwen_code.profile import DEFAULT_CONTEXT_FILES


def user_dir(home: str, environ: Mapping[str, str]) -> str:
    """Qwen Code's user folder: $QWEN_HOME when it is set (absolute), else `~/.qwen`."""
    explicit = environ.get("QWEN_HOME")
    if explicit and os.path.isabs(explicit):
        return explicit
    return os.path.join(home, ".qwen")


def _user_settings(home: str | None, environ: Mapping[str, str]) -> dict[str, Any]:
    if not home and not environ.get("QWEN_HOME"):
        return {}
    return read_jsonc(os.path.join(user_dir(home or "", environ), "settings.json")) or {}


def _section(data: Mapping[str, Any], *keys: str) -> Any:
    value: Any = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def context_file_names(root: str, home: str | None, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The file names Qwen Code loads as context in this project: those of `context.fileName` (a name or
    a list; it replaces QWEN.md and AGENTS.md), else the defaults."""
    names: tuple[str, ...] = DEFAULT_CONTEXT_FILES
    places = [_user_settings(home, environ)]
    if folder_trust(root, home, environ) == "trusted":  # unrecorded counts as untrusted
        places.append(read_jsonc(os.path.join(root, ".qwen", "settings.json")) or {})
    for data in places:
        value = _section(data, "context", "fileName")
        if isinstance(value, str) and _plain_name(value.strip()):
            names = (value.strip(),)
        elif (
            isinstance(value, list)
            and value
            and all(isinstance(v, str) and _plain_name(v.strip()) for v in value)
        ):
            names = tuple(v.strip() for v in value)
    return names


def _plain_name(name: str) -> bool:
    """A file name, not a path: the client looks it up in each directory."""
    return (
        bool(name) and "/" not in name and "\\" not in name and name not in (".", "..") and "\0" not in name
    )


def trust_enabled(home: str | None, environ: Mapping[str, str]) -> bool:
    return _section(_user_settings(home, environ), "security", "folderTrust", "enabled") is True


def trust_file(home: str | None, environ: Mapping[str, str]) -> str | None:
    explicit = environ.get("QWEN_CODE_TRUSTED_FOLDERS_PATH")
    if explicit and os.path.isabs(explicit):
        return explicit
    if not home and not environ.get("QWEN_HOME"):
        return None
    return os.path.join(user_dir(home or "", environ), "trustedFolders.json")


def folder_trust(root: str, home: str | None, environ: Mapping[str, str]) -> str | None:
    """ "trusted" (also when folder trust is off), "untrusted", or None when folder trust is on and
    nothing is recorded for the folder or a parent (Qwen Code then reads it as untrusted until the user
    answers its question). The nearest recorded folder decides."""
    if not trust_enabled(home, environ):
        return "trusted"
    place = trust_file(home, environ)
    data = read_jsonc(place) if place is not None else None
    if data is None:
        return None
    return nearest_trust(root, data)


def hooks_disabled(data: Mapping[str, Any]) -> bool:
    """Does this settings file switch every hook off (`disableAllHooks: true`)?"""
    return data.get("disableAllHooks") is True
