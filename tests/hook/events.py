"""Hook events as Claude Code and Codex send them, for the hook tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def hook_event(
    cwd: Path, session: str, name: str, transcript: str = "/t.jsonl", **fields: Any
) -> dict[str, Any]:
    """An event of `session` fired in `cwd`; `transcript` names the session's transcript (a path that
    does not exist: the Claude Code release is unknown, taken as the newest)."""
    return {"session_id": session, "transcript_path": transcript, "cwd": str(cwd), "hook_event_name": name,
            **fields}  # fmt: skip
