"""`jitctx replay`: a recorded Claude Code session (tests/telemetry/fixtures/session.jsonl) run through JIT
discovery over the example monorepo.

The fixture is written against a placeholder root, /home/dev/acme, as Claude Code writes absolute
`file_path`s; the tests rewrite it to the path of a private copy of examples/monorepo (or replay it with
`--from-root`). Expected figures are computed here from the files themselves, not copied from the code.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.cli.main import main
from jitctx.project import Project
from jitctx.telemetry.replay import Size, replay
from jitctx.telemetry.transcript import TranscriptError, read_transcript

FIXTURE = Path(__file__).parent / "fixtures" / "session.jsonl"
PLACEHOLDER = "/home/dev/acme"
SESSION_ID = "3f0c9a52-6d1e-4b8a-9c47-2e5d1f8b7a10"

STARTUP = [("CLAUDE.md", "session_start"), ("docs/conventions.md", "include"), ("AGENTS.md", "session_start")]

# turn, channel, first line, tool calls, touched paths, hits, loads (path, reason) in order
TURNS: list[tuple[int, str, int, int, int, int, list[tuple[str, str]]]] = [
    (1, "main", 4, 1, 1, 1, [("src/ui/CLAUDE.md", "path_glob_match")]),  # Read src/ui/README.md
    # Glob in src/ui (the dir alone does not match src/ui/**/*.tsx), then Read Footer.tsx: one response
    # written as two lines sharing message.id, so one turn
    (2, "main", 6, 2, 2, 1, [(".claude/rules/components.md", "path_glob_match")]),
    (3, "main", 10, 1, 1, 0, []),  # Edit Footer.tsx: everything on its chain is loaded
    (4, "main", 12, 1, 0, 0, []),  # Task: touches no path
    (
        5,
        "subagent",
        14,
        1,
        1,
        1,  # the sub-agent's channel starts empty: its first Read walks the whole chain
        [
            ("CLAUDE.md", "nested_traversal"),
            ("docs/conventions.md", "include"),
            ("AGENTS.md", "nested_traversal"),
            ("src/ui/CLAUDE.md", "path_glob_match"),
            (".claude/rules/components.md", "path_glob_match"),
        ],
    ),
    (6, "subagent", 16, 1, 1, 0, []),  # Edit Badge.tsx
    (7, "subagent", 18, 0, 0, 0, []),  # its answer
    # Bash `python tools/gen.py > src/api/client.ts`: the redirect target (not the script) is touched
    (
        8,
        "main",
        21,
        1,
        1,
        1,
        [("src/api/AGENTS.md", "nested_traversal"), (".claude/rules/api-handlers.md", "path_glob_match")],
    ),
    (9, "main", 23, 1, 1, 1, [(".claude/rules/python.md", "path_glob_match")]),  # Read tools/gen.py
    (10, "main", 25, 1, 1, 1, [("website/CLAUDE.md", "nested_traversal")]),  # Grep in website/
    (11, "main", 27, 2, 2, 0, []),  # Write docs/guide.md (no rule on its chain), Read ~/.npmrc (outside)
    (12, "main", 30, 1, 1, 0, []),  # Edit website/index.md
    (13, "main", 33, 0, 0, 0, []),  # the final answer
]
MALFORMED = [20]  # a line cut short mid-write

# Full load: every instruction file of the project, and what they import.
FULL_LOAD = [
    "CLAUDE.md",
    "AGENTS.md",
    "docs/summary/CLAUDE.md",
    "src/api/AGENTS.md",
    "src/ui/CLAUDE.md",
    "website/CLAUDE.md",
    ".claude/rules/api-handlers.md",
    ".claude/rules/components.md",
    ".claude/rules/python.md",
    "docs/conventions.md",  # imported by CLAUDE.md
]


def body(root: Path, rel: str) -> str:
    """The text an agent receives: the file without its YAML frontmatter."""
    text = (root / rel).read_text(encoding="utf-8")
    if text.startswith("---\n"):
        return text[text.index("\n---\n", 4) + len("\n---\n") :]
    return text


def size(root: Path, files: list[str] | set[str]) -> Size:
    texts = [body(root, rel) for rel in files]
    assert all(text.isascii() for text in texts)  # so the token estimate is bytes / 4, rounded up
    return Size(sum(len(t.encode()) for t in texts), sum(math.ceil(len(t) / 4) for t in texts))


def rewrite(target: Path, root: Path, *, cwd: str | None = None) -> Path:
    text = FIXTURE.read_text(encoding="utf-8")
    if cwd is not None:
        text = text.replace(f'"cwd":"{PLACEHOLDER}"', f'"cwd":"{PLACEHOLDER}/{cwd}"')
    target.write_text(text.replace(PLACEHOLDER, str(root)), encoding="utf-8")
    return target


@pytest.fixture
def transcript(example_copy: Path, tmp_path: Path) -> Path:
    return rewrite(tmp_path / "session.jsonl", example_copy)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    code = main(["replay", "--json", *argv])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


# -- the transcript as read ----------------------------------------------------------------------------


def test_reading_groups_split_responses_and_counts_malformed_lines() -> None:
    parsed = read_transcript(FIXTURE)
    assert parsed.session_id == SESSION_ID
    assert parsed.cwd == PLACEHOLDER
    assert parsed.lines == 33
    assert list(parsed.malformed) == MALFORMED
    assert [(t.number, t.channel, t.line, len(t.calls)) for t in parsed.turns] == [
        (n, "main" if channel == "main" else "a7f3c2e1", line, calls) for n, channel, line, calls, *_ in TURNS
    ]
    assert [c.name for c in parsed.turns[1].calls] == ["Glob", "Read"]


# -- the replay ---------------------------------------------------------------------------------------


def test_loads_per_turn(example_copy: Path, transcript: Path) -> None:
    result = replay(read_transcript(transcript), Project(example_copy))
    assert [(load.path, load.reason) for load in result.startup] == STARTUP
    got = [
        (t.turn.number, t.kind, t.turn.line, len(t.turn.calls), t.discoveries, t.hits) for t in result.turns
    ]
    assert got == [row[:6] for row in TURNS]
    assert [[(load.path, load.reason) for load in t.loads] for t in result.turns] == [row[6] for row in TURNS]
    assert all(load.turn == t.turn.number for t in result.turns for load in t.loads)
    assert result.count() == (13, 13, 12, 6)  # hit rate 6 / 12: every touched path is in the denominator


def test_subagent_channel_is_counted_apart(example_copy: Path, transcript: Path) -> None:
    result = replay(read_transcript(transcript), Project(example_copy))
    assert result.count("subagent") == (3, 2, 2, 1)
    assert result.count("main") == (10, 11, 10, 5)
    assert {load.channel for load in result.turns[4].loads} == {"subagent"}


def test_bytes_per_turn_against_full_load(example_copy: Path, transcript: Path) -> None:
    result = replay(read_transcript(transcript), Project(example_copy))
    full = size(example_copy, FULL_LOAD)
    assert (result.full_load, result.full_load_files) == (full, len(FULL_LOAD))

    held: dict[str, set[str]] = {"main": {path for path, _ in STARTUP}, "subagent": set()}
    sent_total = Size(0, 0)
    for expected, got in zip(TURNS, result.turns, strict=True):
        channel, loads = expected[1], expected[6]
        sent = size(example_copy, held[channel])  # the request carried what was held before the calls ran
        held[channel] |= {path for path, _ in loads}
        assert (got.sent, got.held) == (sent, size(example_copy, held[channel])), f"turn {expected[0]}"
        sent_total = Size(sent_total.bytes + sent.bytes, sent_total.tokens + sent.tokens)
    assert result.jit_total == sent_total
    assert result.full_total == Size(full.bytes * len(TURNS), full.tokens * len(TURNS))
    assert result.jit_total.bytes < result.full_total.bytes


def test_cwd_inside_the_project_is_the_sessions_cwd(example_copy: Path, tmp_path: Path) -> None:
    path = rewrite(tmp_path / "ui.jsonl", example_copy, cwd="src/ui")
    result = replay(read_transcript(path), Project(example_copy))
    assert result.cwd == "src/ui"
    # The cwd marker src/ui/ loads the scoped src/ui/CLAUDE.md at start, so reading the README finds it held.
    assert ("src/ui/CLAUDE.md", "session_start") in [(x.path, x.reason) for x in result.startup]
    assert (result.turns[0].discoveries, result.turns[0].hits) == (1, 0)


def test_cwd_outside_the_project_starts_at_the_root(example_copy: Path) -> None:
    result = replay(read_transcript(FIXTURE), Project(example_copy))  # recorded in /home/dev/acme
    assert result.cwd == "."
    # Absolute paths under /home/dev/acme are outside this project and miss; the one relative path, the
    # Bash redirect of turn 8, is taken from the session's cwd, the root.
    assert result.count() == (13, 13, 12, 1)
    assert [t.turn.number for t in result.turns if t.hits] == [8]


# -- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("", "is empty"),
        ("\n\n", "is empty"),
        ("not json\n[1, 2]\n", "is not JSONL"),
        ('{"kind": "discovery", "v": 1}\n', "no Claude Code transcript lines"),
        ('{\n  "type": "assistant"\n}\n', "is not JSONL"),  # pretty-printed JSON is not JSONL
        (b"\x7fELF\x02\x01\x00\xff\xfe", "is not JSONL"),
    ],
)
def test_unreadable_transcripts_are_errors(tmp_path: Path, content: str | bytes | None, message: str) -> None:
    path = tmp_path / "t.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(TranscriptError, match=message):
        read_transcript(path)


def test_a_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match="cannot read"):
        read_transcript(tmp_path)


def test_bad_lines_inside_a_transcript_are_skipped(tmp_path: Path) -> None:
    lines = [
        '{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","name":"Read","input":{"file_path":"a"}}]}}',
        '{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","name":"Read","input":"a"}]}}',
        '{"type":"assistant","message":"text"}',
        '{"type":"assistant","message":{"content":"plain text answer"}}',
        "[]",
        "{",
        '{"type":"user","message":{"content":[{"type":"tool_result","content":"x"}]}}',
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    parsed = read_transcript(path)
    assert parsed.malformed == (2, 3, 5, 6)
    assert [len(t.calls) for t in parsed.turns] == [1, 0]
    assert parsed.session_id == "t"  # no sessionId on any line: the file name


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=40),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(
                        st.sampled_from(
                            [
                                "type",
                                "message",
                                "content",
                                "name",
                                "input",
                                "id",
                                "isSidechain",
                                "cwd",
                                "sessionId",
                            ]
                        ),
                        inner,
                        max_size=4,
                    )
                ),
                max_leaves=12,
            ).map(json.dumps),
        ),
        max_size=8,
    )
)
def test_any_text_is_read_or_refused_never_raised(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str]
) -> None:
    path = tmp_path_factory.mktemp("free") / "t.jsonl"
    path.write_text("\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines), encoding="utf-8")
    try:
        parsed = read_transcript(path)
    except TranscriptError:
        return
    assert len(parsed.malformed) <= parsed.lines
    assert all(isinstance(call.input, dict) for turn in parsed.turns for call in turn.calls)


# -- the command --------------------------------------------------------------------------------------


def test_cli_json(example_copy: Path, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, document, err = run_json(capsys, "--root", str(example_copy), str(transcript))
    assert code == 0
    assert document["errors"] == []
    (report,) = document["transcripts"]
    assert report["session_id"] == SESSION_ID
    assert report["malformed_lines"] == MALFORMED
    assert (report["discoveries"], report["hits"], report["hit_rate"]) == (12, 6, 0.5)
    assert report["by_channel"]["subagent"] == {"turns": 3, "tool_calls": 2, "discoveries": 2, "hits": 1}
    assert [t["loaded"] for t in report["per_turn"]] == [[p for p, _ in row[6]] for row in TURNS]
    full = size(example_copy, FULL_LOAD)
    assert report["full_load"] == {"files": len(FULL_LOAD), "bytes": full.bytes, "tokens": full.tokens}
    jit = sum(t["jit"]["bytes"] for t in report["per_turn"])
    assert report["totals"]["jit"]["bytes"] == jit
    assert report["totals"]["full_load"]["bytes"] == full.bytes * len(TURNS)
    assert report["totals"]["ratio"] == round(jit / (full.bytes * len(TURNS)), 4)
    assert document["totals"]["hit_rate"] == 0.5
    assert "1 malformed line skipped (line 20)" in err


def test_cli_human_output(example_copy: Path, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--root", str(example_copy), str(transcript)]) == 0
    out = capsys.readouterr().out
    assert "hit rate    50.0% (6 of 12 touched paths loaded something)" in out
    assert "1 malformed line skipped (line 20)" in out
    full = size(example_copy, FULL_LOAD)
    assert f"full load   10 files, {full.bytes:,} bytes" in out
    row = next(line for line in out.splitlines() if line.split()[:2] == ["5", "subagent"])
    assert "CLAUDE.md (nested_traversal)" in row


def test_cli_from_root_replays_a_transcript_recorded_elsewhere(
    example_copy: Path, transcript: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, rewritten, _ = run_json(capsys, "--root", str(example_copy), str(transcript))
    _, rebased, _ = run_json(capsys, "--root", str(example_copy), "--from-root", PLACEHOLDER, str(FIXTURE))
    for key in ("per_turn", "startup", "loads", "totals", "full_load"):
        assert rebased["transcripts"][0][key] == rewritten["transcripts"][0][key]


def test_cli_root_defaults_to_the_recorded_cwd(
    example_copy: Path,
    transcript: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, document, _ = run_json(capsys, str(transcript))
    assert code == 0
    assert document["transcripts"][0]["root"] == os.path.realpath(example_copy)
    assert document["transcripts"][0]["hits"] == 6


def test_cli_missing_transcript_exits_2_and_still_reports_the_others(
    example_copy: Path, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "gone.jsonl"
    code, document, err = run_json(capsys, "--root", str(example_copy), str(missing), str(transcript))
    assert code == 2
    assert document["errors"] == [{"transcript": str(missing), "error": f"{missing}: no such file"}]
    assert len(document["transcripts"]) == 1
    assert f"jitctx: error: {missing}: no such file" in err
    assert "Traceback" not in err


def test_cli_bad_root_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--root", str(tmp_path / "nope"), str(FIXTURE)]) == 2
    assert "is not an existing directory" in capsys.readouterr().err


def test_cli_record_feeds_stats(
    example_copy: Path, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    argv = ["replay", "--record", "--state-dir", str(state), "--root", str(example_copy), str(transcript)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["stats", "--json", "--state-dir", str(state), "--session", f"replay:{SESSION_ID}"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["sessions"], stats["discoveries"], stats["hits"]) == (1, 12, 6)
    # The replayed writes go into the records too: one of the five came before its rules.
    writes = stats["writes"]
    assert (writes["total"], writes["before_rules"], writes["before_rules_sessions"], writes["held"]) == (
        5,
        1,
        1,
        0,
    )
    (row,) = writes["before_rules_files"]
    assert (row["path"], row["late"]) == (
        "src/api/client.ts",
        ["src/api/AGENTS.md", ".claude/rules/api-handlers.md"],
    )
    startup = size(example_copy, [path for path, _ in STARTUP])
    jit_loads = [load for row in TURNS for load in row[6]]
    assert stats["loads"] == len(STARTUP) + len(jit_loads)
    assert stats["load_bytes"] == startup.bytes + sum(size(example_copy, [p]).bytes for p, _ in jit_loads)
    records = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.endswith("}")]
    stamps = [r["timestamp"] for r in records if r.get("type") == "assistant"]
    assert (stats["window"]["first_ts"], stats["window"]["last_ts"]) == (
        stamps[0],
        stamps[-2],
    )  # the transcript's times


def test_cli_record_names_the_profile_and_the_bytes_of_each_moment(
    example_copy: Path, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    argv = ["replay", "--record", "--state-dir", str(state), "--root", str(example_copy), str(transcript)]
    assert main(argv) == 0
    lines = b"".join(path.read_bytes() for path in sorted((state / "events").glob("*.jsonl")))
    records = [json.loads(line) for line in lines.splitlines()]
    assert {(r["agent"], r["source"]) for r in records} == {("jitctx", "replay")}
    # The main channel only grows here (no file is deleted), one load at a time.
    main_channel = [r for r in records if r["channel"] == "main"]
    held = 0
    for record in main_channel:
        held += sum(item["bytes"] for item in record["loaded"])
        assert record["cumulative_bytes"] == held


def test_cli_record_twice_records_the_session_once(
    example_copy: Path, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    argv = ["replay", "--record", "--state-dir", str(state), "--root", str(example_copy), str(transcript)]
    assert main(argv) == 0
    assert main(argv) == 0
    assert "is in the log already; not recorded again" in capsys.readouterr().err
    assert main(["stats", "--json", "--state-dir", str(state)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["sessions"], stats["discoveries"]) == (1, 12)


def test_cli_record_into_a_state_dir_that_is_a_file_is_an_error(
    example_copy: Path, transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    state.write_text("not a directory")
    argv = ["replay", "--record", "--state-dir", str(state), "--root", str(example_copy), str(transcript)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "is not a directory" in err and "recorded in" not in err
    assert state.read_text() == "not a directory"


def test_cli_warns_when_the_recorded_cwd_is_not_here(
    example_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--root", str(example_copy), str(FIXTURE)]) == 0
    assert f"add --from-root {PLACEHOLDER}" in capsys.readouterr().err


def test_rebase_moves_only_paths_under_the_old_root() -> None:
    from jitctx.cli.cmd_replay import rebase

    moved = rebase(read_transcript(FIXTURE), PLACEHOLDER, "/srv/acme")
    assert moved.cwd == "/srv/acme"
    assert moved.turns[0].calls[0].input == {"file_path": "/srv/acme/src/ui/README.md"}
    assert moved.turns[10].calls[1].input == {"file_path": "/home/dev/.npmrc"}  # outside: untouched
    sibling = rebase(moved, "/srv/acm", "/x")  # a prefix of a name is not a parent directory
    assert sibling.turns[0].calls[0].input == {"file_path": "/srv/acme/src/ui/README.md"}


def test_cli_as_a_subprocess(example_copy: Path, transcript: Path, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "jitctx", "replay", "--json", "--root", str(example_copy), str(transcript)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["transcripts"][0]["hit_rate"] == 0.5

    missing = [sys.executable, "-m", "jitctx", "replay", str(tmp_path / "gone.jsonl")]
    done = subprocess.run(missing, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert "no such file" in done.stderr and "Traceback" not in done.stderr
