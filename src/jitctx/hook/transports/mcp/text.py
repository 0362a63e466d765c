"""The text of the MCP tools: which strings from a client they take as a path or an id, and the text a
model reads back (the instruction files, or the statistics)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jitctx.assemble.render import render_block
from jitctx.errors import UsageError
from jitctx.hook.context import dropped_notes

if TYPE_CHECKING:
    from pathlib import Path

    from jitctx.model import Load


def text_problem(value: str) -> str | None:
    """Why a string from the client cannot be a path or an id (JSON can carry both problems)."""
    if "\0" in value:
        return "contains a NUL byte"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode text (a lone surrogate)"
    # What `mcp_wire.clean_line` and the SDK put where the client's text was not Unicode.
    if "\ufffd" in value:
        return "is not valid Unicode text (U+FFFD stands for a lone surrogate or bytes that are not UTF-8)"
    return None


def check_text(value: object, what: str) -> None:
    if not isinstance(value, str):
        raise UsageError(f"{what} must be a string")
    problem = text_problem(value)
    if problem is not None:
        raise UsageError(f"{what} {problem}")


def context_text(loads: list[Load], touched: list[dict[str, Any]], dropped: list[str]) -> str:
    names = ", ".join(entry["path"] for entry in touched)
    if loads:
        lines = [f"jitctx: {len(loads)} instruction file(s) apply to {names}; follow them:"]
        lines += [render_block(load.file.display, load.file.text, "plain", load.file.tier) for load in loads]
    else:
        lines = [f"jitctx: no new instruction files for {names} (nothing applies that this session lacks)"]
    lines += [f"note: {entry['path']}: {entry['note']}" for entry in touched if "note" in entry]
    lines += dropped_notes(dropped)
    return "\n\n".join(lines)


def stats_text(doc: dict[str, Any], directory: Path) -> str:
    if not doc["window"]["records"]:
        return f"jitctx: no events recorded yet in {directory}"

    def rate(value: float | None) -> str:
        return "-" if value is None else f"{value:.1%}"

    lines = [
        f"sessions {doc['sessions']}, discoveries {doc['discoveries']}, hit rate {rate(doc['hit_rate'])}, "
        f"waste rate {rate(doc['waste_rate'])}",
        f"loads {doc['loads']}, {doc['load_bytes']} bytes "
        f"(mean {doc['mean_bytes_per_load'] or 0:.0f} per load)",
    ]
    for key, unit in (("cumulative_bytes", "bytes per session"), ("latency_ms", "ms per discovery")):
        spread = doc[key]
        if spread is not None:
            lines.append(f"{unit}: P50 {spread['p50']:g}, P95 {spread['p95']:g}, max {spread['max']:g}")
    lines += [f"  {row['file']}: {row['loads']} loads, {row['bytes']} bytes" for row in doc["by_file"][:5]]
    window = doc["window"]
    lines.append(f"window {window['first_ts']} .. {window['last_ts']}, {window['records']} records")
    return "\n".join(lines)
