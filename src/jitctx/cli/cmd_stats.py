"""`jitctx stats`: what reached the agents, when, and at what cost, over the recorded sessions."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from jitctx.cli.cmd_log import add_filters, printable, report_skips, shown_path, since_of, window_line
from jitctx.cli.common import add_json, count, print_json, table, warn
from jitctx.cli.drift_report import drift_lines, drift_report
from jitctx.cli.state import user_home
from jitctx.cli.state_paths import readable_events_dir
from jitctx.errors import UsageError
from jitctx.govern.skills import unused_skills
from jitctx.reports.stats import stats_document
from jitctx.telemetry.html import render_html
from jitctx.telemetry.record_fields import human_bytes
from jitctx.telemetry.results import project_labels
from jitctx.telemetry.scan import stats_from_log

if TYPE_CHECKING:
    from jitctx.cli.drift_report import DriftReport
    from jitctx.telemetry.results import Writes
    from jitctx.telemetry.stats import Stats

UNUSED = 10  # skills never called, named on the line after the table
EARLY = 10  # files written before their rules, listed without --by-file

HELP = """\
How to read the figures:
  hit rate             discoveries that loaded something / every discovery (a file Claude Code
                       loaded by itself after a Read counts too). Low is normal: most files live
                       in folders without rules. A drop to 0 means the boundary or the trigger is
                       broken.
  waste rate           scope skips / rules scanned: scope checks that found nothing to load.
  cumulative bytes     per session, the most its context carried; P50/P95/MAX over sessions.
  bytes, size          a file's body as the agent receives it (frontmatter left out), as in
                       startup, touch and budget; `jitctx provenance` measures the whole file.
  predate the log      sessions known only from Claude Code's own load records, without jitctx's
                       discovery records; they are not in the hit rate.
  writes before their  writes (file tools, patches, shell write targets) made before an instruction
  rules                file that applies to the written file was in the model's context: it came only
                       after the write (late). Held back: writes jitctx stopped once to send their
                       rules first ([hold] writes in .jitctx.toml). Counted with holding on or off.
  skills used          calls of Claude Code's Skill tool, per skill and project; skills of those
                       projects' .claude/skills that the model never called in the window are
                       listed after them (a skill typed as /name is no tool call and not counted).
  drift (--drift)      read from the clients' own transcripts, per client release: a file whose
                       same text reached the model twice since the last compaction (via: who sent
                       it), and one jitctx counted as loaded by the client that never arrived.
The window comes first: the same command over another window gives other numbers.

examples:
  jitctx stats
  jitctx stats --since 7d --by-file
  jitctx stats --session 61da82e1 --json
  jitctx stats --html stats.html      # one self-contained page with a plot; opens offline
  jitctx stats --drift                # per client release: files sent twice, or never arrived
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    add_filters(parser)
    parser.add_argument(
        "--by-file",
        action="store_true",
        help="show the whole leaderboard of files, and every file written before its rules",
    )
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page with a plot")
    parser.add_argument("--workers", type=int, metavar="N", help=argparse.SUPPRESS)
    parser.add_argument(
        "--drift",
        action="store_true",
        help="also read the clients' transcripts: per release, files that reached the model twice "
        "and files counted as loaded by the client that never arrived",
    )
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.html is not None and args.html.strip() in ("", "-"):
        raise UsageError("--html takes the name of the file to write the page to, e.g. --html stats.html")
    directory = readable_events_dir(args)
    since = since_of(args)
    stats = stats_from_log(directory, since=since, session=args.session, workers=args.workers)

    unused = unused_skills(stats)
    if args.html:
        _write_html(stats, Path(args.html), unused)
    drift = _drift(args, directory, since) if args.drift else None
    if args.json:
        document = stats_document(directory, stats, unused)
        if drift is not None:
            document["drift"] = drift.to_json()
        print_json(document)
    else:
        _print(stats, by_file=args.by_file, unused=unused)
        if drift is not None:
            print()
            print("\n".join(drift_lines(drift)))
    report_skips(_Report(stats), directory, stats.window.records > 0, args.session, since)
    if stats.window.invalid:
        warn(f"{count(stats.window.invalid, 'record')} had fields of the wrong type and were left out")
    return 0


def _drift(args: argparse.Namespace, directory: Path, since: datetime | None) -> DriftReport:
    return drift_report(directory, since=since, session=args.session, home=user_home())


class _Report:
    """The window's skip counts in the shape `report_skips` reads."""

    def __init__(self, stats: Stats) -> None:
        window = stats.window
        self.files = window.files
        self.corrupt = window.corrupt
        self.corrupt_at = window.corrupt_at
        self.unknown_version = window.unknown_version
        self.unknown_kind = window.unknown_kind
        self.records = window.records
        self.filtered = window.filtered


def _write_html(stats: Stats, path: Path, unused: list[dict[str, str]]) -> None:
    generated = f"generated by jitctx stats at {datetime.now(UTC).strftime('%Y-%m-%d %H:%M:%S')} UTC"
    try:
        path.write_text(render_html(stats, generated=generated, unused_skills=unused), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write --html {path}: {exc.strerror}") from exc
    print(f"wrote {path}", file=sys.stderr)


def _print(stats: Stats, *, by_file: bool, unused: list[dict[str, str]]) -> None:
    print(window_line(asdict(stats.window)))
    if stats.window.records == 0:
        return
    cum, lat = stats.cumulative_bytes, stats.latency_ms
    rows: list[list[object]] = [
        [
            "sessions",
            f"{stats.sessions:,}",
            f"{stats.sessions_predating_log:,} predate the log, "
            f"{stats.sessions_with_discoveries:,} with discoveries",
        ],
        ["discoveries", f"{stats.discoveries:,}", ""],
        ["hit rate", _percent(stats.hit_rate), f"{stats.hits:,} / {stats.discoveries:,} discoveries"],
        [
            "mean bytes per load",
            human_bytes(stats.mean_bytes_per_load) if stats.mean_bytes_per_load is not None else "n/a",
            f"{count(stats.jit_loads, 'JIT load')}; {count(stats.loads, 'load')} in all",
        ],
        [
            "waste rate",
            _percent(stats.waste_rate),
            f"{count(stats.scope_skipped, 'scope skip')} / {count(stats.rules_scanned, 'rule')} scanned",
        ],
        ["cumulative bytes P50", human_bytes(cum.p50) if cum else "n/a", "per session"],
        [
            "cumulative bytes P95 / MAX",
            f"{human_bytes(cum.p95)} / {human_bytes(cum.max)}" if cum else "n/a",
            f"over {count(cum.n, 'session')}" if cum else "",
        ],
        ["discovery latency P50 / MAX", f"{lat.p50:g} ms / {lat.max:g} ms" if lat else "n/a", ""],
        _writes_row(stats.writes),
    ]
    print()
    print(table(["metric", "value", ""], rows))
    _print_early_writes(stats.writes, every=by_file)
    if stats.by_reason:
        print()
        print(
            table(
                ["reason", "loads", "bytes"],
                [[printable(r.reason), f"{r.loads:,}", human_bytes(r.bytes)] for r in stats.by_reason],
                right=(1, 2),
            )
        )
    if stats.by_channel:
        print()
        print(
            table(
                ["channel", "discoveries", "hits", "loads"],
                [[c.channel, f"{c.discoveries:,}", f"{c.hits:,}", f"{c.loads:,}"] for c in stats.by_channel],
                right=(1, 2, 3),
            )
        )

    if stats.by_skill:
        print()
        names = project_labels([*(r.project for r in stats.by_skill), *(u["project"] for u in unused)])
        print(
            table(
                ["skills used", "project", "uses", "sessions", "SKILL.md"],
                [
                    [
                        printable(r.skill),
                        printable(names.get(r.project or "", "-")),
                        f"{r.uses:,}",
                        f"{r.sessions:,}",
                        printable(r.path or "-"),
                    ]
                    for r in stats.by_skill
                ],
                right=(2, 3),
            )
        )
        if unused:
            shown = ", ".join(printable(f"{u['skill']} ({names[u['project']]})") for u in unused[:UNUSED])
            more = f", and {len(unused) - UNUSED:,} more (--json lists them)" if len(unused) > UNUSED else ""
            print(f"never called in the window: {shown}{more}")
    if not stats.by_file:
        return
    print()

    labels = project_labels(r.project for r in stats.by_file)
    if by_file:
        rows = [
            [
                _file(r.file),
                printable(labels.get(r.project or "", "-")),
                f"{r.loads:,}",
                f"{r.sessions:,}",
                (human_bytes(r.size) if r.size is not None else "?"),
                human_bytes(r.bytes),
            ]
            for r in stats.by_file
        ]
        print(
            table(["file", "project", "loads", "sessions", "size", "bytes carried"], rows, right=(2, 3, 4, 5))
        )
    else:
        top = stats.by_file[0]
        print(
            f"most bytes carried: {_file(top.file)}"
            + (f" in {printable(labels[top.project])}" if top.project else "")
            + f" ({human_bytes(top.bytes)} over "
            f"{count(top.loads, 'load')} in {count(top.sessions, 'session')}); "
            f"--by-file for all {count(len(stats.by_file), 'file')}"
        )


def _writes_row(writes: Writes) -> list[object]:
    """The metric row of writes before their rules: a share of the writes recorded, never of none."""
    if writes.total:
        value = _percent(writes.before_rules / writes.total)
        notes = [f"{writes.before_rules:,} / {count(writes.total, 'write')}"]
        if writes.before_rules:
            notes[0] += f", in {count(writes.before_rules_sessions, 'session')}"
    else:
        value, notes = "n/a", ["no write recorded"]
    if writes.held:
        its = "its" if writes.held == 1 else "their"
        notes.append(f"{count(writes.held, 'write')} held back until {its} rules were sent")
    return ["writes before their rules", value, "; ".join(notes)]


def _print_early_writes(writes: Writes, *, every: bool) -> None:
    """The files written before their rules, with the rules that came late."""
    if not writes.before_rules_files:
        return

    rows = writes.before_rules_files if every else writes.before_rules_files[:EARLY]
    labels = project_labels(r.project for r in writes.before_rules_files)
    print()
    print(
        table(
            ["written before its rules", "project", "writes", "sessions", "late"],
            [
                [
                    _file(r.path),
                    printable(labels.get(r.project or "", "-")),
                    f"{r.writes:,}",
                    f"{r.sessions:,}",
                    printable(", ".join(r.late) or "?"),
                ]
                for r in rows
            ],
            right=(2, 3),
        )
    )
    rest = len(writes.before_rules_files) - len(rows)
    if rest:
        print(f"and {count(rest, 'more file')} (--by-file or --json lists them)")


def _file(name: str) -> str:
    return printable(shown_path(name, "") if name.startswith("/") else name)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"
