"""`jitctx export --otlp`: the real SDK exporters against an OTLP/HTTP receiver on 127.0.0.1 that decodes
the protobuf requests (opentelemetry-proto), in-process and as a subprocess."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
pytest.importorskip("opentelemetry.proto")

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from jitctx.cli.main import main
from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.telemetry.events import event_from_discovery, event_from_instructions_loaded, event_from_startup
from jitctx.telemetry.otlp_cursor import CURSOR_FILE
from jitctx.telemetry.store import EventStore
from tests.conftest import write_tree

T0 = datetime(2026, 8, 8, 12, 0, 0, tzinfo=UTC)


class Receiver:
    """An OTLP/HTTP collector stand-in: answers 200 to /v1/logs and /v1/metrics and keeps the decoded
    requests (or answers `status` to make the export fail)."""

    def __init__(self) -> None:
        self.logs: list[ExportLogsServiceRequest] = []
        self.metrics: list[ExportMetricsServiceRequest] = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                assert self.headers.get("Content-Type") == "application/x-protobuf"
                if receiver.status == 200:
                    if self.path == "/v1/logs":
                        receiver.logs.append(ExportLogsServiceRequest.FromString(body))
                    elif self.path == "/v1/metrics":
                        receiver.metrics.append(ExportMetricsServiceRequest.FromString(body))
                self.send_response(receiver.status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def log_records(self) -> list[tuple[dict[str, Any], str, int]]:
        """(attributes, body, time) of every log record received, in order."""
        found = []
        for request in self.logs:
            for resource in request.resource_logs:
                for scope in resource.scope_logs:
                    for record in scope.log_records:
                        attributes = {kv.key: _value(kv.value) for kv in record.attributes}
                        found.append((attributes, record.body.string_value, record.time_unix_nano))
        return found

    def resource(self) -> dict[str, Any]:
        return {kv.key: _value(kv.value) for kv in self.logs[0].resource_logs[0].resource.attributes}

    def metric_points(self) -> dict[str, list[Any]]:
        points: dict[str, list[Any]] = {}
        for request in self.metrics:
            for resource in request.resource_metrics:
                for scope in resource.scope_metrics:
                    for metric in scope.metrics:
                        kind = metric.WhichOneof("data")
                        points.setdefault(metric.name, []).extend(getattr(metric, kind).data_points)
        return points


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in value.array_value.values]
    return getattr(value, kind) if kind is not None else None


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    running.thread.start()
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated home (no user config) and state dir whose log holds one session: its start, a hit, a
    miss, and a load Claude Code reported itself."""
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root rules\n",
            "src/ui/CLAUDE.md": "ui rules\n",
            ".claude/rules/py.md": "---\npaths: ['src/**/*.py']\n---\ntyped\n",
            "src/ui/Footer.tsx": "",
            "docs/a.md": "",
        },
    )
    session = Session(Project(root, managed_files=()), cwd=root, use_git=False, session_id="sess-1")
    store = EventStore(tmp_path / "state/events")
    store.append(event_from_startup(session.startup(), session_id="sess-1", ts=T0))
    for step, path in enumerate(["src/ui/Footer.tsx", "docs/a.md"], start=1):
        found = session.discover(path)
        event = event_from_discovery(
            found, session_id="sess-1", root=str(root), cumulative_bytes=0, ts=T0 + timedelta(seconds=step)
        )
        store.append(event)
    payload = {
        "session_id": "sess-1",
        "cwd": str(root),
        "file_path": str(root / ".claude/rules/py.md"),
        "memory_type": "Project",
        "load_reason": "path_glob_match",
        "globs": ["src/**/*.py"],
    }
    store.append(
        event_from_instructions_loaded(
            payload, source="claude-code", file_bytes=6, ts=T0 + timedelta(seconds=3)
        )
    )
    return tmp_path


def export(*args: str) -> int:
    return main(["export", *args])


def test_export_sends_logs_and_metrics_with_joinable_attributes(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    assert export("--otlp", receiver.endpoint, "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["records"] == 4 and report["batches"] == 1
    records = receiver.log_records()
    names = [attributes["event.name"] for attributes, _, _ in records]
    # startup (+ its one load), hit discovery (+ its load), miss discovery, the host's load
    assert names == [
        "jitctx.startup",
        "jitctx.load",
        "jitctx.discovery",
        "jitctx.load",
        "jitctx.discovery",
        "jitctx.load",
    ]
    assert report["log_records"] == len(records)
    assert all(attributes["session.id"] == "sess-1" for attributes, _, _ in records)
    assert len({attributes["jitctx.record.id"] for attributes, _, _ in records}) == len(records)
    loads = [attributes for attributes, _, _ in records if attributes["event.name"] == "jitctx.load"]
    assert [(a["jitctx.path"], a["jitctx.load.reason"]) for a in loads] == [
        ("CLAUDE.md", "session_start"),
        ("src/ui/CLAUDE.md", "nested_traversal"),
        (".claude/rules/py.md", "path_glob_match"),
    ]
    assert loads[0]["jitctx.bytes"] == len("root rules\n")
    assert loads[0]["jitctx.agent"] == "jitctx"  # the startup record's profile, carried to its session
    assert loads[2]["jitctx.source"] == "claude-code" and loads[2]["jitctx.agent"] == "claude-code"
    assert loads[2]["jitctx.globs"] == ["src/**/*.py"]
    hit, miss = (a for a, _, _ in records if a["event.name"] == "jitctx.discovery")
    assert hit["jitctx.hit"] is True and miss["jitctx.hit"] is False
    assert hit["jitctx.trigger_path"] == "src/ui/Footer.tsx"
    assert records[0][2] == int(T0.timestamp()) * 10**9  # the event's own time, not the export's
    assert receiver.resource()["service.name"] == "jitctx"

    points = receiver.metric_points()
    assert sum(p.as_int for p in points["jitctx.loads"]) == 3
    assert sum(p.as_int for p in points["jitctx.load.bytes"]) == len("root rules\n") + len("ui rules\n") + 6
    assert sum(p.as_int for p in points["jitctx.discoveries"]) == 2
    assert [p.as_double for p in points["jitctx.discovery.hit_ratio"]] == [0.5]
    (histogram,) = points["jitctx.discovery.duration"]
    assert histogram.count == 2 and len(histogram.explicit_bounds) > 5


def test_second_export_sends_nothing_and_a_new_event_once(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    assert export("--otlp", receiver.endpoint) == 0
    first = len(receiver.log_records())
    assert (env / "state" / CURSOR_FILE).is_file()
    assert export("--otlp", receiver.endpoint) == 0
    assert len(receiver.log_records()) == first and len(receiver.logs) == 1
    assert "nothing new" in capsys.readouterr().err

    later = {
        "session_id": "sess-2",
        "cwd": "/elsewhere",
        "file_path": "/elsewhere/CLAUDE.md",
        "memory_type": "Project",
        "load_reason": "session_start",
        "prompt_id": "p-1",
    }
    event = event_from_instructions_loaded(later, source="claude-code", ts=T0 + timedelta(minutes=5))
    EventStore(env / "state/events").append({**event, "prompt_id": "p-1", "tool_use_id": "toolu_9"})
    assert export("--otlp", receiver.endpoint) == 0
    assert export("--otlp", receiver.endpoint) == 0
    new = receiver.log_records()[first:]
    assert len(new) == 1
    attributes = new[0][0]
    assert attributes["session.id"] == "sess-2"
    assert attributes["prompt.id"] == "p-1" and attributes["gen_ai.tool.call.id"] == "toolu_9"


def test_a_dead_endpoint_loses_nothing(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    assert export("--otlp", dead, "--timeout", "1") == 1
    err = capsys.readouterr().err
    assert "export failed" in err and "Nothing was lost" in err and "Traceback" not in err
    assert not (env / "state" / CURSOR_FILE).exists()

    receiver.status = 503  # a collector that refuses: the same
    assert export("--otlp", receiver.endpoint, "--timeout", "1") == 1
    assert not (env / "state" / CURSOR_FILE).exists()

    receiver.status = 200  # back: everything goes out, once
    assert export("--otlp", receiver.endpoint) == 0
    assert len([r for r in receiver.log_records() if r[0]["event.name"] != "jitctx.load"]) == 3


def test_endpoint_and_headers_from_the_user_config(env: Path, receiver: Receiver) -> None:
    config = env / "home/.config/jitctx/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        f'[telemetry]\nendpoint = "{receiver.endpoint}/v1/logs"\ntimeout = 5\n'
        'resource = { team = "payments" }\nheaders = { "x-team" = "payments" }\n'
    )
    assert export() == 0
    assert receiver.resource()["team"] == "payments"
    assert len(receiver.log_records()) == 6


def test_no_endpoint_is_a_usage_error(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert export() == 2
    assert "--otlp" in capsys.readouterr().err


def test_a_batch_at_a_time_moves_the_cursor(env: Path, receiver: Receiver) -> None:
    from jitctx.telemetry import otlp_export

    target = otlp_export.Target(receiver.endpoint, batch_records=1)
    report = otlp_export.export_events(env / "state/events", env / "state" / CURSOR_FILE, target)
    assert report.records == 4 and report.batches == 4
    assert len(receiver.logs) == 4


def test_a_line_being_written_waits_for_the_next_export(env: Path, receiver: Receiver) -> None:
    (log,) = (env / "state/events").glob("*.jsonl")
    with open(log, "ab") as handle:
        handle.write(b'{"v":1,"kind":"load"')  # no newline yet: a writer is in the middle of it
    assert export("--otlp", receiver.endpoint) == 0
    assert len(receiver.log_records()) == 6


def test_export_as_a_subprocess(env: Path, receiver: Receiver) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "export", "--otlp", receiver.endpoint, "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == 4
    assert len(receiver.log_records()) == 6


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("timeout = 0", "positive number of seconds"),
        ('timeout = "10"', "'telemetry.timeout' must be"),
        ("endpoint = 4318", "'telemetry.endpoint' must be str"),
        ("headers = { a = 1 }", "'telemetry.headers.a' must be str"),
    ],
)
def test_a_wrong_telemetry_table_says_which_key(
    env: Path, table: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = env / "home/.config/jitctx/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f"[telemetry]\n{table}\n")
    assert export("--otlp", "http://127.0.0.1:9") == 2
    assert message in capsys.readouterr().err


def test_an_unknown_telemetry_key_is_a_warning(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    config = env / "home/.config/jitctx/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[telemetry]\nendpoint = "{receiver.endpoint}"\nendpont = "typo"\n')
    assert export() == 0
    assert "telemetry.endpont" in capsys.readouterr().err


def test_a_project_config_cannot_choose_where_events_go(tmp_path: Path) -> None:
    """[telemetry] is read from the user config only: a cloned repo must not send events elsewhere."""
    from jitctx.config import load_config

    root = write_tree(tmp_path / "proj", {".jitctx.toml": '[telemetry]\nendpoint = "http://evil:4318"\n'})
    config = load_config(root)
    assert any("telemetry" in warning for warning in config.warnings)


def test_without_the_extra_the_message_says_what_to_install(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> Any:
        if name.startswith("opentelemetry"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", missing)
    assert export("--otlp", "http://127.0.0.1:9") == 2
    err = capsys.readouterr().err
    assert "pip install 'jitctx[otel]'" in err and "Traceback" not in err


def test_a_second_export_at_the_same_time_steps_aside(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    fcntl = pytest.importorskip("fcntl")
    with open(env / "state/otlp-export.lock", "wb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert export("--otlp", receiver.endpoint) == 0
    assert "another `jitctx export` is running" in capsys.readouterr().err
    assert receiver.logs == []


def test_an_unreadable_cursor_resends_everything_with_the_same_ids(
    env: Path, receiver: Receiver, capsys: pytest.CaptureFixture[str]
) -> None:
    assert export("--otlp", receiver.endpoint) == 0
    first = [r[0]["jitctx.record.id"] for r in receiver.log_records()]
    (env / "state" / CURSOR_FILE).write_text("{not json")
    assert export("--otlp", receiver.endpoint) == 0
    again = [r[0]["jitctx.record.id"] for r in receiver.log_records()][len(first) :]
    assert again == first  # at least once: the collector drops these by id
    assert "not a cursor file" in capsys.readouterr().err


def test_a_cleared_log_is_read_again_from_its_start(env: Path, receiver: Receiver) -> None:
    assert export("--otlp", receiver.endpoint) == 0
    sent = len(receiver.log_records())
    (log,) = (env / "state/events").glob("*.jsonl")
    assert main(["log", "--clear", "--yes"]) == 0
    payload = {
        "session_id": "sess-9",
        "cwd": "/p",
        "file_path": "/p/CLAUDE.md",
        "load_reason": "session_start",
    }
    for minute in range(40):  # longer than the old file: its offset alone would skip the first records
        event = event_from_instructions_loaded(
            payload, source="claude-code", ts=T0 + timedelta(minutes=minute)
        )
        EventStore(env / "state/events").append(event)
    assert log.stat().st_size > 0
    assert export("--otlp", receiver.endpoint) == 0
    new = receiver.log_records()[sent:]
    assert len(new) == 40 and {r[0]["session.id"] for r in new} == {"sess-9"}


def test_the_hooks_ids_reach_the_export(
    tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run through the hook itself (engine, fast lane and a batch): the records keep the prompt and tool
    call ids of the event, and the export names them as Claude Code's own telemetry does."""
    from jitctx.hook.engine import HookEnv
    from jitctx.hook.pipeline import run_hook

    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    state = tmp_path / "state"
    monkeypatch.setenv("JITCTX_STATE_DIR", str(state))
    root = tmp_path / "proj"
    write_tree(root, {".git/HEAD": "x\n", "api/AGENTS.md": "# API\n", "api/users.ts": "x\n"})

    def hook(**fields: Any) -> dict[str, Any]:
        event = {"session_id": "ids", "transcript_path": "/t.jsonl", "cwd": str(root), **fields}
        return run_hook("claude-code", json.dumps(event), HookEnv(state_dir=state, use_git=False))

    nl = {"command": "nl -ba api/users.ts"}
    hook(
        hook_event_name="PostToolUse", prompt_id="p-7", tool_name="Bash", tool_input=nl, tool_use_id="toolu_1"
    )
    batch = [
        {"tool_name": "Bash", "tool_input": nl, "tool_use_id": "toolu_2"},
        {"tool_name": "Bash", "tool_input": {"command": "nl -ba api/x.ts"}, "tool_use_id": "toolu_3"},
    ]
    hook(hook_event_name="PostToolBatch", prompt_id="p-8", tool_calls=batch)
    assert main(["export", "--otlp", receiver.endpoint]) == 0
    discoveries = [a for a, _, _ in receiver.log_records() if a.get("jitctx.kind") == "discovery"]
    assert [(a.get("prompt.id"), a.get("gen_ai.tool.call.id")) for a in discoveries] == [
        ("p-7", "toolu_1"),
        ("p-8", None),
    ]
    assert discoveries[1]["jitctx.tool_use_ids"] == ["toolu_2", "toolu_3"]
    startups = [a for a, _, _ in receiver.log_records() if a.get("jitctx.kind") == "startup"]
    assert startups and startups[0]["prompt.id"] == "p-7"


def test_the_hook_never_loads_the_exporter(tmp_path: Path) -> None:
    """Export runs from a SessionEnd hook or a timer, never on a tool call: the hook process imports no
    OpenTelemetry module, even with a [telemetry] section in the user config."""
    home = tmp_path / "home"
    write_tree(home, {".config/jitctx/config.toml": '[telemetry]\nendpoint = "http://127.0.0.1:9"\n'})
    root = tmp_path / "proj"
    write_tree(root, {".git/HEAD": "x\n", "api/AGENTS.md": "# API\n", "api/users.ts": "x\n"})
    event = {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": str(root),
             "hook_event_name": "PostToolUse", "tool_name": "Bash",
             "tool_input": {"command": "nl -ba api/users.ts"}}  # fmt: skip
    code = (
        "import sys, io; sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()));"
        "from jitctx.cli.main import main; code = main(['hook', 'claude-code', '--no-git']);"
        "sys.stderr.write(repr(sorted(m for m in sys.modules if m.startswith('opentelemetry'))))"
    )
    env = {**os.environ, "JITCTX_HOME": str(home), "JITCTX_STATE_DIR": str(tmp_path / "state"),
           "XDG_CONFIG_HOME": str(home / ".config")}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, json.dumps(event)], capture_output=True, text=True,
                          env=env, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0 and "api/AGENTS.md" in done.stdout, done.stderr
    assert done.stderr.endswith("[]"), done.stderr
