"""`stats` as one JSON document, shared by `jitctx stats --json` and the MCP server's `stats` tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jitctx.telemetry.results import Stats


def stats_document(directory: Path, stats: Stats, unused: list[dict[str, str]]) -> dict[str, Any]:
    """The document: where the log is, the figures, and the project's skills never called."""
    return {"events_dir": str(directory), **stats.to_json(), "skills_unused": unused}
