"""`jitctx export --otlp ENDPOINT`: ship new event records to an OpenTelemetry collector (OTLP/HTTP)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from jitctx.cli.common import add_json, count, print_json, warn
from jitctx.cli.state import add_state_dir, user_config_path
from jitctx.cli.state_paths import readable_events_dir, state_dir
from jitctx.config import TelemetryConfig, load_user_config
from jitctx.errors import UsageError
from jitctx.telemetry.otlp_export import ExportFailed, Target, check_extra, cursor_file, export_events

if sys.platform != "win32":
    import fcntl

if TYPE_CHECKING:
    from pathlib import Path
    from typing import BinaryIO

HELP = """\
Sends the event log's records that were not sent before as OpenTelemetry log records (one per
discovery, session start and load, with a jitctx.record.id a collector can drop repeats by) and metrics
(jitctx.loads, jitctx.load.bytes, jitctx.discoveries, jitctx.discovery.hit_ratio and the histogram
jitctx.discovery.duration), over OTLP/HTTP with protobuf. Needs the extra: pip install 'jitctx[otel]'.

Delivery is at least once: a cursor in the state dir (otlp-cursor.json, one per endpoint) moves only
after the collector acknowledged a batch. A dead endpoint loses nothing: the command exits 1 and the
next run sends the same records again.

The endpoint, headers, timeout and resource attributes may come from the user config
(~/.config/jitctx/config.toml) instead of the command line; Claude Code strips OTEL_* variables from
the hooks it runs, so they are not read:

  [telemetry]
  endpoint = "http://collector.internal:4318"
  headers = { authorization = "Bearer ..." }
  timeout = 10
  resource = { team = "payments" }

Never run it on the hook's path. Run it when a session ends (a Claude Code SessionEnd hook whose
command is `jitctx export >/dev/null 2>&1 &`), or from a timer (cron: */15 * * * * jitctx export).
Two exports at once are harmless: the second one finds the lock taken and exits 0.

examples:
  jitctx export --otlp http://localhost:4318
  jitctx export                      # the endpoint of [telemetry] in the user config
  jitctx export --otlp https://otel.example.com --header authorization='Bearer TOKEN' --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument(
        "--otlp",
        metavar="ENDPOINT",
        help="the collector's OTLP/HTTP base URL, e.g. http://localhost:4318 (default: [telemetry] endpoint "
        "of the user config)",
    )
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a request header (repeatable); added to those of the user config",
    )
    parser.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="per request, retries included (default: 10)"
    )
    add_state_dir(parser)
    add_json(parser)


def _settings() -> TelemetryConfig:
    user = load_user_config(user_config_path())
    for message in user.warnings:
        warn(message)
    return user.telemetry or TelemetryConfig()


def run(args: argparse.Namespace) -> int:
    check_extra()  # before anything else: without the extra there is nothing this command can do
    settings = _settings()
    endpoint = args.otlp or settings.endpoint
    if not endpoint:
        raise UsageError(
            "no endpoint: pass --otlp http://HOST:4318, or set endpoint in the [telemetry] table of "
            f"{user_config_path() or '~/.config/jitctx/config.toml'}"
        )
    if not endpoint.startswith(("http://", "https://")):
        raise UsageError(f"--otlp {endpoint!r} is not an http:// or https:// URL (OTLP/HTTP, port 4318)")
    headers = dict(settings.headers)
    for pair in args.header:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise UsageError(f"--header {pair!r} is not NAME=VALUE")
        headers[name.strip()] = value
    timeout = args.timeout if args.timeout is not None else settings.timeout
    if timeout <= 0:
        raise UsageError(f"--timeout {timeout} must be a positive number of seconds")
    target = Target(endpoint, tuple(sorted(headers.items())), timeout, settings.resource)
    events = readable_events_dir(args)
    state = state_dir(args)
    lock = _lock(state)
    if lock is False:
        message = "another `jitctx export` is running; this one has nothing to do"
        if args.json:
            print_json({"endpoint": endpoint, "records": 0, "busy": True})
        print(f"jitctx: {message}", file=sys.stderr)
        return 0
    try:
        try:
            report = export_events(events, cursor_file(state), target)
        except ExportFailed as exc:
            print(f"jitctx: export failed: {exc}", file=sys.stderr)
            if args.json:
                print_json({"endpoint": endpoint, "error": str(exc)})
            return 1
    finally:
        if not isinstance(lock, bool) and lock is not None:
            lock.close()
    if report.cursor_problem:
        warn(report.cursor_problem)
    if args.json:
        print_json(report.to_json())
    else:
        skipped = (
            f"; {count(report.skipped_lines, 'unreadable line')} passed over" if report.skipped_lines else ""
        )
        if report.records:
            print(
                f"jitctx: {count(report.records, 'record')} sent to {report.endpoint} "
                f"({count(report.log_records, 'log record')}, {count(report.batches, 'batch')}){skipped}",
                file=sys.stderr,
            )
        else:
            print(f"jitctx: nothing new to send to {report.endpoint}{skipped}", file=sys.stderr)
    return 0


def _lock(state: Path) -> BinaryIO | bool | None:
    """An exclusive lock on the state dir's export lock file: the open file, False when another export
    holds it, None where locking is not available (or the state dir does not exist yet)."""
    if sys.platform == "win32":  # no fcntl: concurrent exports only cost duplicates the record ids remove
        return None
    path = os.path.join(state, "otlp-export.lock")
    if not os.path.isdir(state):
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | os.O_NOFOLLOW, 0o600)
    except OSError:
        return None
    handle = os.fdopen(fd, "r+b")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return False
    return handle
