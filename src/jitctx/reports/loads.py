"""Loads and skips as JSON objects and table rows, shared by the commands that show them."""

from __future__ import annotations

from typing import Any

from jitctx.model import Load, Skip, Startup
from jitctx.tokens import estimate_tokens


def load_json(load: Load) -> dict[str, Any]:
    text = load.file.text
    document: dict[str, Any] = {
        "path": load.file.display,
        "reason": load.reason.value,
        "tier": load.file.tier.value,
        "bytes": len(text.encode("utf-8")),
        "tokens": estimate_tokens(text),
    }
    if load.trigger is not None:
        document["trigger"] = load.trigger
    if load.globs:
        document["globs"] = list(load.globs)
    return document


def skip_json(skip: Skip) -> dict[str, str]:
    return {"path": skip.path, "why": skip.why}


def startup_json(result: Startup) -> dict[str, Any]:
    return {
        "root": result.root,
        "cwd": result.cwd,
        "agent": result.agent,
        "signals": list(result.signals),
        "loaded": [load_json(load) for load in result.loaded],
        "skipped": [skip_json(skip) for skip in result.skipped],
        "warnings": list(result.warnings),
    }


def load_rows(loads: tuple[Load, ...] | list[Load]) -> list[list[object]]:
    rows: list[list[object]] = []
    for load in loads:
        doc = load_json(load)
        rows.append(
            [doc["path"], doc["tier"], doc["reason"], doc["bytes"], doc["tokens"], load.trigger or ""]
        )
    return rows
