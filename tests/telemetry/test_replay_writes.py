"""`jitctx replay` on writes before their rules (DESIGN §2.11): for each file a call of the transcript
wrote, the instruction files that apply to it and reached the model only after it, as replayed (JIT
discovery sends them with the turn's tool results; no write is held back). Over the recorded session
(tests/telemetry/fixtures/session.jsonl, on a copy of examples/monorepo) and small transcripts of
their own."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.project import Project
from jitctx.telemetry.replay import replay
from jitctx.telemetry.transcript import read_transcript

FIXTURE = Path(__file__).parent / "fixtures" / "session.jsonl"
PLACEHOLDER = "/home/dev/acme"
SESSION_ID = "3f0c9a52-6d1e-4b8a-9c47-2e5d1f8b7a10"
CLAUDE_CODE_WRITES = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})

# The fixture's writes: (turn, channel, tool, file, the files that came late)
WRITES = [
    (3, "main", "Edit", "src/ui/Footer.tsx", ()),  # its chain was loaded by the reads before it
    (6, "subagent", "Edit", "src/ui/Badge.tsx", ()),  # the sub-agent's own read loaded its chain
    # `python tools/gen.py > src/api/client.ts`: nothing had touched src/api before the redirect
    (8, "main", "Bash", "src/api/client.ts", ("src/api/AGENTS.md", ".claude/rules/api-handlers.md")),
    (11, "main", "Write", "docs/guide.md", ()),  # the root CLAUDE.md, there from the start
    (12, "main", "Edit", "website/index.md", ()),  # website/CLAUDE.md came with the Grep of turn 10
]


@pytest.fixture
def transcript(example_copy: Path, tmp_path: Path) -> Path:
    target = tmp_path / "session.jsonl"
    target.write_text(FIXTURE.read_text(encoding="utf-8").replace(PLACEHOLDER, str(example_copy)))
    return target


def assistant(number: int, root: Path, *calls: tuple[str, dict[str, Any]]) -> str:
    content = [
        {"type": "tool_use", "id": f"t{number}.{n}", "name": name, "input": tool_input}
        for n, (name, tool_input) in enumerate(calls)
    ]
    record = {"type": "assistant", "sessionId": "w", "cwd": str(root), "message": {"id": f"m{number}"}}
    record["message"]["content"] = content
    return json.dumps(record)


def test_the_recorded_sessions_writes(example_copy: Path, transcript: Path) -> None:
    result = replay(read_transcript(transcript), Project(example_copy), write_tools=CLAUDE_CODE_WRITES)
    assert result.writes is not None
    assert [(w.turn, w.channel, w.tool, w.path, w.late) for w in result.writes] == WRITES
    assert [w.rules_before for w in result.writes] == [True, True, False, True, True]
    assert [len(t.writes) for t in result.turns] == [
        sum(1 for w in WRITES if w[0] == n) for n in range(1, 14)
    ]


def test_rules_an_earlier_call_of_the_same_turn_loaded_came_after_the_write(
    example_copy: Path, tmp_path: Path
) -> None:
    """One response reads, then writes: the read's rules reach the model with the tool results, after
    the write. A rule that does not apply to the written file is not counted as late for it."""
    root = example_copy
    lines = [
        assistant(
            1,
            root,
            ("Read", {"file_path": str(root / "tools/gen.py")}),  # python.md: not a rule of a .tsx
            ("Read", {"file_path": str(root / "src/ui/README.md")}),  # src/ui/CLAUDE.md
            ("Write", {"file_path": str(root / "src/ui/New.tsx"), "content": "x"}),  # + components.md
        ),
        assistant(2, root, ("Edit", {"file_path": str(root / "src/ui/Badge.tsx")})),  # all there now
        assistant(3, root, ("MultiEdit", {"file_path": str(root / "docs/notes.md")})),
        assistant(4, root, ("Read", {"file_path": str(root / "src/api/users.ts")})),  # a read: no write
    ]
    path = tmp_path / "w.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = replay(read_transcript(path), Project(root), write_tools=CLAUDE_CODE_WRITES)
    assert result.writes is not None
    assert [(w.turn, w.path, w.late) for w in result.writes] == [
        (1, "src/ui/New.tsx", ("src/ui/CLAUDE.md", ".claude/rules/components.md")),
        (2, "src/ui/Badge.tsx", ()),
        (3, "docs/notes.md", ()),
    ]


def test_a_replay_not_told_which_tools_write_counts_no_writes(example_copy: Path, transcript: Path) -> None:
    result = replay(read_transcript(transcript), Project(example_copy))
    assert result.writes is None
    assert all(t.writes == () for t in result.turns)


def test_cli_json_and_schema(
    example_copy: Path, transcript: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--json", "--root", str(example_copy), str(transcript)]) == 0
    document = json.loads(capsys.readouterr().out)
    (report,) = document["transcripts"]
    writes = report["writes"]
    assert (writes["total"], writes["before_rules"], writes["before_rules_files"]) == (
        5,
        1,
        ["src/api/client.ts"],
    )
    assert [
        (w["turn"], w["channel"], w["tool"], w["path"], tuple(w["late"])) for w in writes["per_write"]
    ] == WRITES
    assert [w["rules_before"] for w in writes["per_write"]] == [True, True, False, True, True]
    assert document["totals"]["writes"] == {"total": 5, "before_rules": 1}
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("jitctx").joinpath("schemas", "replay.json").read_text(encoding="utf-8")
    jsonschema.validate(document, json.loads(text))


def test_cli_text(example_copy: Path, transcript: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--root", str(example_copy), str(transcript)]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("writes "))
    assert lines[at] == (
        "writes      5 file writes; 1 before its rules, as replayed (rules sent after each call, "
        "no write held back)"
    )
    assert lines[at + 1] == (
        "  turn 8 (main): src/api/client.ts (Bash), late: src/api/AGENTS.md, .claude/rules/api-handlers.md"
    )
