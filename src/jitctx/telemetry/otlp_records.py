"""Event records as OpenTelemetry log records and metric points (pure: no OpenTelemetry import here).

Each stored record becomes one log record named after its kind (`jitctx.discovery`, `jitctx.startup`,
`jitctx.load` for a load the host reported), and each item of its `loaded[]` one more `jitctx.load` log
record, so that a collector can count loads per file without unpacking lists. Every log record carries
`jitctx.record.id`: a hash of the day file, the line's offset and the line itself. The same line sent twice
has the same id (a collector drops repeats by it); a line written after `jitctx log --clear` at an offset
used before has another.

Attribute names join Claude Code's own telemetry where it has one: `session.id`, `prompt.id` (the hook
input's `prompt_id`, when a record holds it), `gen_ai.tool.call.id` (the hook input's `tool_use_id`, when
a record holds it); the rest are `jitctx.*`. Paths are relative to the project root, so that the same
file in two developers' checkouts is one value.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jitctx.telemetry.events import parse_ts

AttributeValue = str | bool | int | float | Sequence[str]
Attributes = dict[str, AttributeValue]

# Discovery latency, milliseconds: a warm hook answers in about one, a cold walk of a big tree in hundreds.
LATENCY_BUCKETS_MS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 5000.0)


@dataclass(frozen=True)
class LogSpec:
    """One OpenTelemetry log record to emit."""

    timestamp_ns: int
    event_name: str
    body: str
    attributes: Attributes


@dataclass
class MetricTotals:
    """What one export's records add to the metrics (delta temporality: per export, not cumulative)."""

    loads: dict[tuple[tuple[str, str], ...], int] = field(default_factory=dict)
    load_bytes: dict[tuple[tuple[str, str], ...], int] = field(default_factory=dict)
    discoveries: dict[tuple[tuple[str, str], ...], int] = field(default_factory=dict)
    latency_ms: list[tuple[float, tuple[tuple[str, str], ...]]] = field(default_factory=list)
    hits: int = 0
    misses: int = 0

    @property
    def hit_ratio(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


def record_id(file_name: str, offset: int, line: bytes) -> str:
    digest = hashlib.sha256(f"{file_name}\0{offset}\0".encode())
    digest.update(line)
    return digest.hexdigest()[:32]


def relative(path: Any, root: Any) -> str | None:
    """`path` relative to `root` when inside it (POSIX separators), else as it is."""
    if not isinstance(path, str) or not path:
        return None
    if isinstance(root, str) and root and os.path.isabs(path):
        inside = os.path.normpath(path)
        base = os.path.normpath(root)
        if inside == base or inside.startswith(base.rstrip(os.sep) + os.sep):
            return os.path.relpath(inside, base).replace(os.sep, "/")
    return path


def _text(record: Mapping[str, Any], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) and value else None


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def common_attributes(record: Mapping[str, Any], rid: str, agent: str | None) -> Attributes:
    """What every log record of this event carries."""
    attributes: Attributes = {"jitctx.record.id": rid, "jitctx.kind": str(record.get("kind"))}
    for source, name in (
        ("session_id", "session.id"),
        ("prompt_id", "prompt.id"),
        ("tool_use_id", "gen_ai.tool.call.id"),
        ("channel", "jitctx.channel"),
        ("agent_id", "jitctx.agent_id"),
    ):
        value = _text(record, source)
        if value is not None:
            attributes[name] = value
    calls = record.get("tool_use_ids")  # a batch of parallel calls: one record for all of them
    if isinstance(calls, list) and calls and all(isinstance(c, str) for c in calls):
        attributes["jitctx.tool_use_ids"] = list(calls)
    attributes["jitctx.source"] = _text(record, "source") or "jitctx"
    if agent is not None:
        attributes["jitctx.agent"] = agent
    root = _text(record, "root")
    if root is not None:
        attributes["jitctx.project"] = os.path.basename(os.path.normpath(root))
    return attributes


def load_attributes(item: Mapping[str, Any], root: Any, trigger: Any) -> Attributes:
    attributes: Attributes = {}
    path = relative(item.get("file_path"), root)
    if path is not None:
        attributes["jitctx.path"] = path
    for source, name in (("load_reason", "jitctx.load.reason"), ("memory_type", "jitctx.memory_type")):
        value = _text(item, source)
        if value is not None:
            attributes[name] = value
    for source, name in (("bytes", "jitctx.bytes"), ("tokens", "jitctx.tokens")):
        number = _number(item.get(source))
        if number is not None:
            attributes[name] = int(number)
    globs = item.get("globs")
    if isinstance(globs, list) and globs:
        attributes["jitctx.globs"] = [g for g in globs if isinstance(g, str)]
    shown = relative(item.get("trigger_file_path") or trigger, root)
    if shown is not None:
        attributes["jitctx.trigger_path"] = shown
    if item.get("updated") is True:
        attributes["jitctx.updated"] = True
    return attributes


def _key(attributes: Attributes, names: Iterable[str]) -> tuple[tuple[str, str], ...]:
    return tuple((name, str(attributes[name])) for name in names if name in attributes)


_LOAD_KEYS = ("jitctx.load.reason", "jitctx.agent", "jitctx.channel", "jitctx.source", "jitctx.project")
_DISCOVERY_KEYS = ("jitctx.hit", "jitctx.agent", "jitctx.channel", "jitctx.project")


def to_logs(
    record: Mapping[str, Any], rid: str, line: str, agent: str | None, totals: MetricTotals
) -> list[LogSpec]:
    """The log records of one stored record; adds its loads, discoveries and latency to `totals`."""
    kind = record.get("kind")
    stamp = int(parse_ts(str(record["ts"])).timestamp() * 1_000_000) * 1000
    base = common_attributes(record, rid, agent)
    root = record.get("root")
    logs: list[LogSpec] = []
    if kind == "load":  # a load the host reported: the record is the load
        attributes = {**base, **load_attributes(record, root, None)}
        logs.append(LogSpec(stamp, "jitctx.load", line, attributes))
        _count_load(attributes, totals)
        return logs
    own: Attributes = dict(base)
    for source in ("elapsed_ms", "scope_skipped", "rules_scanned", "cumulative_bytes", "skipped"):
        number = _number(record.get(source))
        if number is not None:
            own[f"jitctx.{source}"] = number
    if kind == "discovery":
        own["jitctx.hit"] = record.get("hit") is True
        trigger = relative(record.get("trigger_file_path"), root)
        if trigger is not None:
            own["jitctx.trigger_path"] = trigger
        key = _key(own, _DISCOVERY_KEYS)
        totals.discoveries[key] = totals.discoveries.get(key, 0) + 1
        if own["jitctx.hit"]:
            totals.hits += 1
        else:
            totals.misses += 1
        elapsed = _number(record.get("elapsed_ms"))
        if elapsed is not None:
            totals.latency_ms.append((float(elapsed), _key(own, ("jitctx.agent", "jitctx.channel"))))
    loaded = [item for item in record.get("loaded") or () if isinstance(item, dict)]
    own["jitctx.loads"] = len(loaded)
    own["jitctx.bytes"] = sum(int(_number(item.get("bytes")) or 0) for item in loaded)
    logs.append(LogSpec(stamp, f"jitctx.{kind}", line, own))
    for index, item in enumerate(loaded):
        attributes = {**base, **load_attributes(item, root, record.get("trigger_file_path"))}
        attributes["jitctx.record.id"] = f"{rid}.{index}"
        attributes["jitctx.kind"] = "load"
        path = attributes.get("jitctx.path")
        logs.append(LogSpec(stamp, "jitctx.load", str(path or ""), attributes))
        _count_load(attributes, totals)
    return logs


def _count_load(attributes: Attributes, totals: MetricTotals) -> None:
    key = _key(attributes, _LOAD_KEYS)
    totals.loads[key] = totals.loads.get(key, 0) + 1
    size = attributes.get("jitctx.bytes")
    totals.load_bytes[key] = totals.load_bytes.get(key, 0) + (size if isinstance(size, int) else 0)
