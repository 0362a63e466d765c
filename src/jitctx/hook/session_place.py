"""Where a hook's session lives: its key in the session store, the folder it started in, the markers that
find its project, and the profile its discovery reads with (every format)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from jitctx.discovery.quick import quick_file_name
from jitctx.profiles import ROOT_MARKERS
from jitctx.safe_open import read_state_file

DISCOVERY_PROFILE = "jitctx"


def key_of(client: str, session_id: str) -> str:
    """A session's key in the store, namespaced by client, so that two clients' sessions (or `jitctx
    touch --session`) never share state."""
    return f"{client}.{session_id}"


def saved_start(sessions: Path, key: str) -> str | None:
    """The directory a saved session started in (its quick index records it), if it still exists."""
    try:  # a regular file of ours, bounded, never waited on (a FIFO there would block the hook)
        index = json.loads(read_state_file(str(sessions / quick_file_name(key))))
    except (OSError, ValueError, RecursionError):
        return None
    start = index.get("cwd") if isinstance(index, dict) else None
    if isinstance(start, str) and os.path.isabs(start) and "\0" not in start and os.path.isdir(start):
        return start
    return None


def root_markers() -> tuple[str, ...]:
    return ROOT_MARKERS
