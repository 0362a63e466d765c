"""Ship the event log's new records to an OTLP/HTTP collector: log records and metrics, at least once.

`export_events(events_dir, cursor_path, target)` reads the lines after the stored cursor (whole lines
only: a line being appended is left for the next run), sends them in batches, each batch as one logs
request then one metrics request through the OpenTelemetry SDK's OTLP/HTTP (protobuf) exporters, and moves
the cursor past a batch only once the collector acknowledged both. A dead or refusing endpoint raises
`ExportFailed` and leaves the cursor where it was: nothing is lost, the next run sends it again.

Metrics have delta temporality (each export adds what its records add): `jitctx.loads`,
`jitctx.load.bytes`, `jitctx.discoveries`, `jitctx.discovery.hit_ratio` (a gauge over the batch) and the
histogram `jitctx.discovery.duration` (ms). A batch that is resent adds its metrics twice; the log
records, with their `jitctx.record.id`, are the exact source.

The OpenTelemetry packages are the optional extra `jitctx[otel]`, imported only here and only when an
export runs: the hook never pays for them. This is never run on the hook's path; a SessionEnd hook or a
timer runs `jitctx export`.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jitctx import __version__
from jitctx.errors import JitctxError
from jitctx.telemetry.events import parse_line, record_problem
from jitctx.telemetry.log_reader import event_files
from jitctx.telemetry.otlp_cursor import (
    CURSOR_FILE,
    Cursor,
    Position,
    head_of,
    load_cursor,
    save_cursor,
    start_of,
)
from jitctx.telemetry.otlp_records import LATENCY_BUCKETS_MS, LogSpec, MetricTotals, record_id, to_logs

BATCH_RECORDS = 500
_CHUNK = 4 * 1024 * 1024
_MISSING = (
    "the OpenTelemetry packages are not installed; `jitctx export` needs the optional extra: "
    "pip install 'jitctx[otel]'"
)


class ExportFailed(JitctxError):
    """The collector did not acknowledge a batch; the cursor stayed where it was."""


class MissingExtra(JitctxError):
    """`jitctx[otel]` is not installed."""


@dataclass(frozen=True)
class Target:
    """Where and how to send: the OTLP/HTTP base URL (`/v1/logs` and `/v1/metrics` are appended)."""

    endpoint: str
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = 10.0
    resource: tuple[tuple[str, str], ...] = ()
    batch_records: int = BATCH_RECORDS

    def url(self, signal: str) -> str:
        return f"{base_endpoint(self.endpoint)}/v1/{signal}"


def base_endpoint(endpoint: str) -> str:
    """The base URL of an endpoint given with or without a signal path (`.../v1/logs`)."""
    base = endpoint.strip().rstrip("/")
    for suffix in ("/v1/logs", "/v1/metrics", "/v1/traces"):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


@dataclass
class ExportReport:
    endpoint: str
    records: int = 0  # stored records sent (and acknowledged)
    log_records: int = 0
    batches: int = 0
    skipped_lines: int = 0  # corrupt lines or records of an unknown version, passed over
    files: list[str] = field(default_factory=list)
    cursor_problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "endpoint": self.endpoint,
            "records": self.records,
            "log_records": self.log_records,
            "batches": self.batches,
            "skipped_lines": self.skipped_lines,
            "files": self.files,
            "cursor_problem": self.cursor_problem,
        }


@dataclass(frozen=True)
class Pending:
    """One whole line of a day file after the cursor."""

    file: str  # the day file's name
    offset: int
    end: int  # the offset after its newline
    line: bytes


def pending_lines(path: Path, start: int) -> Iterator[Pending]:
    """The whole lines of `path` from byte `start` on; a last line without its newline is not yet whole."""
    try:
        handle = open(path, "rb")
    except OSError:
        return
    with handle:
        handle.seek(start)
        offset, carry = start, b""
        while True:
            block = handle.read(_CHUNK)
            if not block:
                return
            data = carry + block
            lines = data.split(b"\n")
            carry = lines.pop()
            for line in lines:
                end = offset + len(line) + 1
                yield Pending(path.name, offset, end, line)
                offset = end


def _modules() -> dict[str, Any]:
    names = {
        "logs_api": "opentelemetry._logs",
        "sdk_logs": "opentelemetry.sdk._logs",
        "sdk_logs_export": "opentelemetry.sdk._logs.export",
        "sdk_metrics": "opentelemetry.sdk.metrics",
        "sdk_metrics_export": "opentelemetry.sdk.metrics.export",
        "sdk_metrics_view": "opentelemetry.sdk.metrics.view",
        "resources": "opentelemetry.sdk.resources",
        "log_exporter": "opentelemetry.exporter.otlp.proto.http._log_exporter",
        "metric_exporter": "opentelemetry.exporter.otlp.proto.http.metric_exporter",
    }
    try:
        return {key: importlib.import_module(name) for key, name in names.items()}
    except ImportError as exc:
        raise MissingExtra(f"{_MISSING} (missing: {exc.name})") from None


def check_extra() -> None:
    """MissingExtra, with the install command, when the OpenTelemetry packages are not installed."""
    _modules()


class _Errors(logging.Handler):
    """Keeps what the exporters log, to say why a send failed, instead of printing it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:
            self.messages.append(str(record.msg))


class Sender:
    """The SDK's exporters for one target; `send(logs, totals)` is True once both requests were
    acknowledged."""

    def __init__(self, target: Target) -> None:
        self.otel = _modules()
        self.target = target
        attributes = {"service.name": "jitctx", "service.version": __version__, **dict(target.resource)}
        self.resource = self.otel["resources"].Resource.create(attributes)
        headers = dict(target.headers)
        self.logs = self.otel["log_exporter"].OTLPLogExporter(
            endpoint=target.url("logs"), headers=headers, timeout=target.timeout
        )
        self.metrics = self.otel["metric_exporter"].OTLPMetricExporter(
            endpoint=target.url("metrics"), headers=headers, timeout=target.timeout
        )
        self.errors = _Errors()

    def close(self) -> None:
        for exporter in (self.logs, self.metrics):
            try:
                exporter.shutdown()
            except Exception:  # closing a session that never opened: nothing to keep
                pass

    def _log_batch(self, logs: list[LogSpec]) -> Any:
        otel = self.otel
        export = otel["sdk_logs_export"]
        # Renamed in SDK 1.39 (the old name warns); the extra's lower bound has only the old one.
        memory = getattr(export, "InMemoryLogRecordExporter", None) or export.InMemoryLogExporter
        memory = memory()
        provider = otel["sdk_logs"].LoggerProvider(resource=self.resource)
        provider.add_log_record_processor(otel["sdk_logs_export"].SimpleLogRecordProcessor(memory))
        logger = provider.get_logger("jitctx", __version__)
        info = otel["logs_api"].SeverityNumber.INFO
        for spec in logs:
            logger.emit(
                otel["logs_api"].LogRecord(
                    timestamp=spec.timestamp_ns,
                    severity_number=info,
                    severity_text="INFO",
                    body=spec.body,
                    attributes={**spec.attributes, "event.name": spec.event_name},
                    event_name=spec.event_name,
                )
            )
        batch = memory.get_finished_logs()
        provider.shutdown()
        return batch

    def _metric_data(self, totals: MetricTotals) -> Any:
        otel = self.otel
        sdk, export, view = otel["sdk_metrics"], otel["sdk_metrics_export"], otel["sdk_metrics_view"]
        delta = export.AggregationTemporality.DELTA
        reader = export.InMemoryMetricReader(
            preferred_temporality={sdk.Counter: delta, sdk.Histogram: delta, sdk.UpDownCounter: delta}
        )
        latency_view = view.View(
            instrument_name="jitctx.discovery.duration",
            aggregation=view.ExplicitBucketHistogramAggregation(boundaries=LATENCY_BUCKETS_MS),
        )
        provider = sdk.MeterProvider(metric_readers=[reader], resource=self.resource, views=[latency_view])
        meter = provider.get_meter("jitctx", __version__)
        loads = meter.create_counter("jitctx.loads", unit="{load}", description="instruction files loaded")
        size = meter.create_counter("jitctx.load.bytes", unit="By", description="bytes of the files loaded")
        discoveries = meter.create_counter(
            "jitctx.discoveries", unit="{discovery}", description="JIT discoveries, hit or miss"
        )
        latency = meter.create_histogram(
            "jitctx.discovery.duration", unit="ms", description="time of one JIT discovery"
        )
        for key, value in totals.loads.items():
            loads.add(value, dict(key))
        for key, value in totals.load_bytes.items():
            size.add(value, dict(key))
        for key, value in totals.discoveries.items():
            discoveries.add(value, dict(key))
        for elapsed, key in totals.latency_ms:
            latency.record(elapsed, dict(key))
        ratio = totals.hit_ratio
        if ratio is not None:
            gauge = meter.create_gauge(
                "jitctx.discovery.hit_ratio", unit="1", description="discoveries that loaded something"
            )
            gauge.set(ratio)
        data = reader.get_metrics_data()
        provider.shutdown()
        return data

    def send(self, logs: list[LogSpec], totals: MetricTotals) -> str | None:
        """None once the collector acknowledged the logs and the metrics; else why not."""
        otel = self.otel
        watched = [logging.getLogger(name) for name in ("opentelemetry", "urllib3", "requests")]
        saved = [(log.handlers[:], log.propagate) for log in watched]
        self.errors.messages.clear()
        for log in watched:
            log.handlers[:] = [self.errors]
            log.propagate = False
        try:
            result = self.logs.export(self._log_batch(logs))
            if result != otel["sdk_logs_export"].LogRecordExportResult.SUCCESS:
                return self._why("logs")
            data = self._metric_data(totals)
            if data is not None and data.resource_metrics:
                outcome = self.metrics.export(data, timeout_millis=self.target.timeout * 1000)
                if outcome != otel["sdk_metrics_export"].MetricExportResult.SUCCESS:
                    return self._why("metrics")
            return None
        finally:
            for log, (handlers, propagate) in zip(watched, saved, strict=True):
                log.handlers[:] = handlers
                log.propagate = propagate

    def _why(self, signal: str) -> str:
        said = self.errors.messages[-1] if self.errors.messages else "no acknowledgement"
        return f"{self.target.url(signal)} did not accept the {signal}: {said}"


def export_events(
    events_dir: Path, cursor_path: Path, target: Target, *, sender: Sender | None = None
) -> ExportReport:
    """Send the records after the cursor; the cursor moves past each acknowledged batch. ExportFailed
    when a batch was not acknowledged (the batches before it stay acknowledged)."""
    key = base_endpoint(target.endpoint)
    cursor = load_cursor(cursor_path, key)
    report = ExportReport(key, cursor_problem=cursor.problem)
    files = event_files(events_dir)
    # A cursor entry of a day file that is gone (log --clear) would only grow the file.
    cursor.files = {name: position for name, position in cursor.files.items() if events_dir / name in files}
    agents: dict[str, str] = {}
    active = sender
    try:
        for path in files:
            try:
                size = path.stat().st_size
            except OSError:
                continue
            start = start_of(cursor, path, size)
            if start >= size:
                continue
            head = head_of(path)
            logs: list[LogSpec] = []
            totals = MetricTotals()
            records, end = 0, start
            for item in pending_lines(path, start):
                end = item.end
                record = _record(item.line)
                if record is None:
                    report.skipped_lines += bool(item.line.strip())
                else:
                    agent = _agent(record, agents)
                    rid = record_id(item.file, item.offset, item.line)
                    text = item.line.decode("utf-8", "replace")
                    logs.extend(to_logs(record, rid, text, agent, totals))
                    records += 1
                if records >= target.batch_records:
                    active = active or Sender(target)
                    _flush(active, logs, totals, records, report, cursor, cursor_path, path, head, end)
                    logs, totals, records = [], MetricTotals(), 0
            if records:
                active = active or Sender(target)
                _flush(active, logs, totals, records, report, cursor, cursor_path, path, head, end)
            elif end != start:  # only blank or unreadable lines: nothing to send, but read past them
                cursor.files[path.name] = Position(end, head)
                save_cursor(cursor_path, cursor)
            if path.name not in report.files and end != start:
                report.files.append(path.name)
    finally:
        if active is not None and sender is None:
            active.close()
    return report


def _flush(
    sender: Sender,
    logs: list[LogSpec],
    totals: MetricTotals,
    records: int,
    report: ExportReport,
    cursor: Cursor,
    cursor_path: Path,
    path: Path,
    head: str,
    end: int,
) -> None:
    problem = sender.send(logs, totals)
    if problem is not None:
        raise ExportFailed(
            f"{problem}. Nothing was lost: the {records} record(s) stay in {path.parent} and the next "
            f"`jitctx export` sends them ({report.records} sent before this batch)"
        )
    cursor.files[path.name] = Position(end, head)
    save_cursor(cursor_path, cursor)
    report.records += records
    report.log_records += len(logs)
    report.batches += 1


def _record(line: bytes) -> Mapping[str, Any] | None:
    try:
        value = parse_line(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return value if record_problem(value) is None else None


def _agent(record: Mapping[str, Any], agents: dict[str, str]) -> str | None:
    """The profile a record was made under: its own `agent`, else its session's startup record's; a load
    the host reported was made by that host."""
    session = record.get("session_id")
    agent = record.get("agent")
    if isinstance(agent, str) and agent:
        if isinstance(session, str):
            agents[session] = agent
        return agent
    source = record.get("source")  # a load the client reported names the client
    if isinstance(source, str) and source:
        return source
    return agents.get(session) if isinstance(session, str) else None


def cursor_file(state_dir: str | os.PathLike[str]) -> Path:
    return Path(state_dir) / CURSOR_FILE
