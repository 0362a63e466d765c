"""`jitctx replay --json`: one replayed transcript as a JSON document, and the totals over several."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jitctx.telemetry.replay import Replay, ReplayedLoad, ReplayedWrite, Size
    from jitctx.telemetry.replay_host import Usage


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _size(size: Size) -> dict[str, int]:
    return {"bytes": size.bytes, "tokens": size.tokens}


def _usage(usage: Usage | None) -> dict[str, int] | None:
    return usage.to_json() if usage is not None else None


def _host_json(report: Replay) -> dict[str, Any] | None:
    host, weight = report.host, report.host_total
    if host is None or weight is None:
        return None
    loads = [
        {"turn": x.turn, "channel": x.channel, "path": x.path, "reason": x.reason, "inside": x.inside}
        | {"memory_type": x.memory_type, **_size(x.size)}
        for x in host.loads
    ]
    jit = report.jit_total
    return {
        "loads": loads,
        "only_host": list(host.only_host),
        "only_jit": list(host.only_jit),
        "both": list(host.both),
        "total": _size(weight),
        "jit_ratio": _ratio(jit.bytes, weight.bytes),
    }


def _load(load: ReplayedLoad) -> dict[str, Any]:
    document: dict[str, Any] = {"turn": load.turn, "channel": load.channel, "path": load.path}
    document.update(reason=load.reason, trigger=load.trigger, **_size(load.size))
    return document


def _writes_json(writes: tuple[ReplayedWrite, ...] | None) -> dict[str, Any] | None:
    """Each file a call wrote and the instruction files that came after it; None when the replay could
    not tell which calls write."""
    if writes is None:
        return None
    early = [w for w in writes if not w.rules_before]
    return {
        "total": len(writes),
        "before_rules": len(early),
        "before_rules_files": list(dict.fromkeys(w.path for w in early)),
        "per_write": [
            {"turn": w.turn, "channel": w.channel, "tool": w.tool, "path": w.path}
            | {"rules_before": w.rules_before, "late": list(w.late)}
            for w in writes
        ],
    }


def replay_json(report: Replay) -> dict[str, Any]:
    turns, calls, discoveries, hits = report.count()
    jit, full = report.jit_total, report.full_total
    by_channel = {}
    for kind in ("main", "subagent"):
        n_turns, n_calls, n_disc, n_hits = report.count(kind)
        by_channel[kind] = {"turns": n_turns, "tool_calls": n_calls, "discoveries": n_disc, "hits": n_hits}
    transcript = report.transcript
    return {
        "transcript": transcript.path,
        "session_id": transcript.session_id,
        "root": report.root,
        "cwd": report.cwd,
        "agent": report.agent,
        "lines": transcript.lines,
        "malformed_lines": list(transcript.malformed),
        "turns": turns,
        "tool_calls": calls,
        "discoveries": discoveries,
        "hits": hits,
        "hit_rate": _ratio(hits, discoveries),
        "by_channel": by_channel,
        "startup": [_load(load) for load in report.startup],
        "loads": [_load(load) for turn in report.turns for load in turn.loads],
        "per_turn": [
            {
                "turn": t.turn.number,
                "line": t.turn.line,
                "channel": t.kind,
                "timestamp": t.turn.timestamp,
                "tool_calls": len(t.turn.calls),
                "discoveries": t.discoveries,
                "hits": t.hits,
                "loaded": [load.path for load in t.loads],
                "jit": _size(t.sent),
                "held_after": _size(t.held),
                "host": _size(t.host_sent) if t.host_sent is not None else None,
                "api_usage": _usage(t.turn.usage),
            }
            for t in report.turns
        ],
        "full_load": {"files": report.full_load_files, **_size(report.full_load)},
        "host": _host_json(report),
        "api_usage": _usage(report.usage),
        "writes": _writes_json(report.writes),
        "totals": {"jit": _size(jit), "full_load": _size(full), "ratio": _ratio(jit.bytes, full.bytes)},
        "warnings": list(report.warnings),
    }


def replay_totals(reports: list[Replay]) -> dict[str, Any]:
    counts = [r.count() for r in reports]
    discoveries, hits = sum(c[2] for c in counts), sum(c[3] for c in counts)
    jit = sum(r.jit_total.bytes for r in reports)
    full = sum(r.full_total.bytes for r in reports)
    counted = [writes for writes in (r.writes for r in reports) if writes is not None]
    return {
        "transcripts": len(reports),
        "turns": sum(c[0] for c in counts),
        "discoveries": discoveries,
        "hits": hits,
        "hit_rate": _ratio(hits, discoveries),
        "jit_bytes": jit,
        "full_load_bytes": full,
        "ratio": _ratio(jit, full),
        "writes": {
            "total": sum(len(writes) for writes in counted),
            "before_rules": sum(1 for writes in counted for w in writes if not w.rules_before),
        }
        if counted
        else None,
    }
