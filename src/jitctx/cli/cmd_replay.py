"""`jitctx replay`: run recorded Claude Code transcripts through JIT discovery and compare with full load."""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jitctx.cli.common import add_agent, add_json, count, find_root, print_json, table, warn
from jitctx.cli.state import add_state_dir, user_config_path
from jitctx.cli.state_paths import writable_events_dir
from jitctx.errors import JitctxError, UsageError
from jitctx.profiles import ROOT_MARKERS
from jitctx.project import Project
from jitctx.reports.replay import replay_json, replay_totals
from jitctx.telemetry.replay import replay
from jitctx.telemetry.replay_record import already_recorded, recorder
from jitctx.telemetry.store import EventStore
from jitctx.telemetry.transcript import ToolCall, read_transcript
from jitctx.touched.tools import REGISTRY

EARLY = 10  # writes before their rules listed in the text report (--json lists them all)

if TYPE_CHECKING:
    from jitctx.telemetry.replay import Replay
    from jitctx.telemetry.transcript import Transcript

HELP = """\
A transcript is the JSONL file Claude Code keeps per session, ~/.claude/projects/<slug>/<session-id>.jsonl.
Each tool call in it (Read, Edit, Write, Bash, Glob, Grep, ...) is run, in order, through a fresh JIT
session; sub-agent lines (isSidechain) run in their own channel. The report shows what JIT loads at which
turn, the hit rate (discoveries that loaded something / every touched path), and the bytes each turn
sends with JIT against loading every instruction file of the project on every turn (full load).

The project is --root, else the nearest ancestor of the transcript's recorded cwd with a root marker,
else that of the current directory. A transcript recorded in another checkout replays here with
--from-root: paths under OLD are taken to be under the project root.

User-level files (~/.claude) are left out on both sides. A sub-agent's channel starts empty, as in a
session: its first touch loads the chain above it.

What Claude Code really loaded is read from the transcript itself where it records it (Claude Code 2.1
writes `instructions` and `nested_memory` attachment lines): the report then compares with that too (the
files only Claude Code loaded, those only JIT loads, such as AGENTS.md, and the bytes each turn carried),
and shows the API's own token counts (`usage` of each response) next to the estimates.

Writes before their rules: for each file a call wrote (Write, Edit, a patch, a shell redirect, ...), the
instruction files that apply to it and reached the model only after it, as JIT discovery alone would
send them (with the turn's tool results, after the write) and no write held back. With holding on
([hold] writes in .jitctx.toml, the default) the hook holds such a write once and sends its rules first.
What the recorded session itself held is not in its transcript, so this is no count of that session's
writes before their rules; `jitctx stats` counts those from the hook's records.

Lines that are not JSON are skipped and counted. A transcript that is missing or is not JSONL is reported
and the others still run; the exit status is then 2.

examples:
  jitctx replay ~/.claude/projects/-home-me-acme/3f0c9a52-6d1e-4b8a-9c47-2e5d1f8b7a10.jsonl
  jitctx replay --root examples/monorepo --from-root /home/dev/acme session.jsonl --json
  jitctx replay --record ~/.claude/projects/-home-me-acme/*.jsonl && jitctx stats --session replay:
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="project root (default: the nearest ancestor of the transcript's cwd with a root marker such "
        "as .git, if that directory exists here, else that of the current directory)",
    )
    add_agent(parser)
    add_json(parser)
    parser.add_argument(
        "--from-root",
        metavar="OLD",
        help="the directory the transcripts were recorded in; paths under it are replayed under the root",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="also write the replayed discoveries to the event log (session id replay:<id>), for stats",
    )
    add_state_dir(parser)
    parser.add_argument(
        "transcripts", nargs="+", metavar="TRANSCRIPT", help="Claude Code session .jsonl files"
    )


def run(args: argparse.Namespace) -> int:
    if args.root is not None and not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root!r} is not an existing directory")
    store: EventStore | None = None
    if args.record:
        store = EventStore(writable_events_dir(args), warn=warn)
    reports: list[Replay] = []
    errors: list[dict[str, str]] = []
    write_tools = REGISTRY.writes()  # as a replay resolves tool names: the first to declare one
    recorded = 0
    for path in args.transcripts:
        try:
            transcript = read_transcript(path)
            project = _project(args, transcript)
            if args.from_root:
                transcript = rebase(transcript, args.from_root, project.root)
            elif args.root is not None and transcript.cwd and not os.path.isdir(transcript.cwd):
                warn(
                    f"{path}: recorded in {transcript.cwd}, which is not here; its absolute paths miss "
                    f"the project: add --from-root {transcript.cwd}"
                )
            observe = None
            if store is not None:
                if already_recorded(store, transcript):
                    warn(
                        f"{path}: session replay:{transcript.session_id} is in the log already; "
                        "not recorded again"
                    )
                else:
                    observe = recorder(store, transcript)
                    recorded += 1
            reports.append(replay(transcript, project, observe=observe, write_tools=write_tools))
        except JitctxError as exc:  # this transcript cannot be replayed; the others still are
            print(f"jitctx: error: {exc}", file=sys.stderr)
            errors.append({"transcript": path, "error": str(exc)})
    if args.json:
        print_json(
            {
                "transcripts": [replay_json(r) for r in reports],
                "errors": errors,
                "totals": replay_totals(reports),
            }
        )
    for index, report in enumerate(reports):
        if not args.json:
            print(("\n" if index else "") + render(report))
        if report.transcript.malformed:
            warn(f"{report.transcript.path}: {_malformed(report.transcript)}")
        for message in report.warnings:
            warn(message)
    if store is not None and recorded:
        if store.dropped:
            raise UsageError(
                f"{count(store.dropped, 'replayed event')} could not be recorded in {store.directory}"
            )
        print(f"jitctx: {count(recorded, 'replayed session')} recorded in {store.directory}", file=sys.stderr)
    return 2 if errors else 0


def _project(args: argparse.Namespace, transcript: Transcript) -> Project:
    root = args.root
    if root is None:
        recorded = transcript.cwd if transcript.cwd and os.path.isdir(transcript.cwd) else os.getcwd()
        root = find_root(recorded, ROOT_MARKERS)
    # No user tier: the comparison is between the project's own instruction files, on both sides. The
    # user's own config still applies, as in the hook ([imports] allow_outside).
    return Project(root, profile=args.agent, home=None, user_config=user_config_path())


def rebase(transcript: Transcript, old_root: str, new_root: str) -> Transcript:
    """The transcript with paths under `old_root` (where it was recorded) moved under `new_root`."""
    pattern = re.compile(re.escape(old_root.rstrip("/\\")) + r"(?![\w.-])")

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda _: new_root, value)
        if isinstance(value, dict):
            return {key: swap(item) for key, item in value.items()}
        return [swap(item) for item in value] if isinstance(value, list) else value

    turns = tuple(
        replace(turn, calls=tuple(ToolCall(call.name, swap(dict(call.input))) for call in turn.calls))
        for turn in transcript.turns
    )
    host = tuple(
        replace(file, path=swap(file.path), replaces=swap(file.replaces)) for file in transcript.host_files
    )
    return replace(transcript, cwd=swap(transcript.cwd), turns=turns, host_files=host)


def _malformed(transcript: Transcript) -> str:
    shown = ", ".join(map(str, transcript.malformed[:5])) + (", ..." if len(transcript.malformed) > 5 else "")
    count = len(transcript.malformed)
    return f"{count} malformed line{'s' if count != 1 else ''} skipped (line {shown})"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def render(report: Replay) -> str:
    """The human report of one transcript: a summary, one row per turn, the comparison."""
    transcript = report.transcript
    turns, calls, discoveries, hits = report.count()
    sub = report.count("subagent")
    read = f"{transcript.lines} read" + (f", {_malformed(transcript)}" if transcript.malformed else "")
    head = [
        f"transcript  {transcript.path}",
        f"session     {transcript.session_id}",
        f"project     {report.root} (cwd {report.cwd}, agent {report.agent})",
        f"lines       {read}",
        f"turns       {turns} (main {turns - sub[0]}, subagent {sub[0]}); tool calls {calls} "
        f"(subagent {sub[1]})",
        f"hit rate    {_percent(hits, discoveries)} ({hits} of {discoveries} touched paths loaded something)",
        *_write_lines(report),
    ]
    startup = ", ".join(f"{load.path} ({load.reason})" for load in report.startup) or "-"
    rows: list[list[object]] = [
        ["start", "main", "", "", "", "", f"{sum(x.size.bytes for x in report.startup):,}", startup]
    ]
    for t in report.turns:
        loaded = ", ".join(f"{load.path} ({load.reason})" for load in t.loads) or "-"
        row = [t.turn.number, t.kind, t.turn.line, len(t.turn.calls), t.discoveries, t.hits]
        rows.append([*row, f"{t.sent.bytes:,}", loaded])
    headers = ["turn", "channel", "line", "calls", "paths", "hits", "jit bytes", "loaded after the turn"]
    if report.host is not None:  # what Claude Code's own attachments weighed in the same request
        host_start = sum(x.size.bytes for x in report.host.loads if x.turn == 0 and x.channel == "main")
        rows[0].insert(7, f"{host_start:,}")
        for row, t in zip(rows[1:], report.turns, strict=True):
            row.insert(7, f"{t.host_sent.bytes if t.host_sent is not None else 0:,}")
        headers.insert(7, "claude code bytes")
    jit, full = report.jit_total, report.full_total
    tail = [
        f"full load   {report.full_load_files} files, {report.full_load.bytes:,} bytes "
        f"(~{report.full_load.tokens:,} tokens) on every turn",
        f"over {turns} turns: JIT {jit.bytes:,} bytes (~{jit.tokens:,} tokens), "
        f"full load {full.bytes:,} bytes (~{full.tokens:,} tokens); "
        f"JIT sends {_percent(jit.bytes, full.bytes)} of full load",
        "(jit bytes: what the turn's request carried; a turn's loads reach the model with its tool results)",
        *_host_lines(report),
    ]
    right = (0, 2, 3, 4, 5, 6, 7) if report.host is not None else (0, 2, 3, 4, 5, 6)
    return "\n".join([*head, "", table(headers, rows, right=right), "", *tail])


def _write_lines(report: Replay) -> list[str]:
    """The writes made before their rules, as replayed (no write held), each with the files that came late."""
    writes = report.writes
    if writes is None:
        return ["writes      not counted: this replay was not told which tools write files"]
    if not writes:
        return ["writes      none: no tool call wrote a file"]
    early = [w for w in writes if not w.rules_before]
    lines = [
        f"writes      {count(len(writes), 'file write')}; {len(early):,} before "
        f"{'its' if len(early) == 1 else 'their'} rules, as replayed (rules sent after each call, "
        "no write held back)"
    ]
    lines += [
        f"  turn {w.turn} ({w.channel}): {w.path} ({w.tool}), late: {', '.join(w.late)}"
        for w in early[:EARLY]
    ]
    if len(early) > EARLY:
        lines.append(f"  and {count(len(early) - EARLY, 'more write')} (--json lists them)")
    return lines


def _host_lines(report: Replay) -> list[str]:
    """What Claude Code really loaded and what the API counted, where the transcript says."""
    lines: list[str] = []
    host, weight = report.host, report.host_total
    if host is not None and weight is not None:
        own = [x for x in host.loads if x.inside]
        started = sum(1 for x in own if x.turn == 0)
        jit = report.jit_total
        outside = len(host.loads) - len(own)
        lines += [
            "",
            f"claude code loaded {count(len(own), 'project file')} itself ({started} at start)"
            + (f" and {outside} outside the project" if outside else "")
            + f"; over the turns {weight.bytes:,} bytes (~{weight.tokens:,} tokens)",
            f"  JIT replay {jit.bytes:,} bytes: {_percent(jit.bytes, weight.bytes)} of what it carried",
            f"  only claude code: {', '.join(host.only_host) or '-'}",
            f"  only jitctx:      {', '.join(host.only_jit) or '-'}",
        ]
    usage = report.usage
    if usage is not None:
        lines += [
            "",
            f"api usage   {usage.prompt:,} prompt tokens (input {usage.input_tokens:,}, cache write "
            f"{usage.cache_creation:,}, cache read {usage.cache_read:,}), {usage.output_tokens:,} output, "
            f"over {count(sum(1 for t in report.turns if t.turn.usage), 'response')}",
        ]
        if weight is not None and usage.prompt:
            lines.append(
                f"  Claude Code's own instruction files: ~{_percent(weight.tokens, usage.prompt)} of them"
            )
    return lines
