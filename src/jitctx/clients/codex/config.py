"""What the user's Codex config changes in what Codex reads: `project_doc_fallback_filenames` (names tried
per directory after AGENTS.override.md and AGENTS.md) and `project_doc_max_bytes` (its budget, 32 KiB by
default), from `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from jitctx.profiles import Profile
from jitctx.safe_open import read_regular

OWN_NAMES = ("AGENTS.override.md", "AGENTS.md")
MAX_BYTES = 1 << 20


def config_path(home: str | None, environ: Mapping[str, str]) -> str | None:
    codex_home = environ.get("CODEX_HOME")
    if codex_home and os.path.isabs(codex_home):
        return os.path.join(codex_home, "config.toml")
    return os.path.join(home, ".codex", "config.toml") if home else None


def read_config(path: str | None) -> dict[str, Any]:
    """The config as a dict; {} when missing, unreadable, too large or not TOML (Codex's defaults)."""
    if path is None:
        return {}
    data = read_regular(path, MAX_BYTES)
    try:
        return tomllib.loads(data.decode("utf-8")) if data is not None else {}
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _plain(name: object) -> bool:
    return (
        isinstance(name, str)
        and bool(name)
        and "/" not in name
        and "\0" not in name
        and name not in (".", "..")
    )


def project_doc_names(config: Mapping[str, Any]) -> tuple[str, ...]:
    """AGENTS.override.md, AGENTS.md, then the configured fallbacks: the order Codex tries per directory."""
    fallbacks = config.get("project_doc_fallback_filenames")
    extra = [name for name in fallbacks if _plain(name)] if isinstance(fallbacks, list) else []
    return tuple(dict.fromkeys((*OWN_NAMES, *extra)))


def with_config(profile: Profile, config: Mapping[str, Any]) -> Profile:
    """Codex's profile under this config: its names per directory and its byte budget."""
    names = project_doc_names(config)
    limit = config.get("project_doc_max_bytes")
    max_bytes = (
        limit if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 else profile.max_bytes
    )
    return replace(profile, dir_files=names, native_files=names, max_bytes=max_bytes)


def discovery_with_config(every_format: Profile, config: Mapping[str, Any]) -> Profile:
    """jitctx's profile reading Codex's names as Codex does: one of them per directory, in its order. A
    fallback that is a format of jitctx's own (CLAUDE.md) stays out of the group: where Codex reads
    AGENTS.md instead, jitctx still sends it."""
    names = project_doc_names(config)
    group = tuple(n for n in names if n in OWN_NAMES or n not in every_format.dir_files)
    others = tuple(name for name in every_format.dir_files if name not in group)
    return replace(every_format, dir_files=(*others, *group), alternatives=(group,))
