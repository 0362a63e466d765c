"""`jitctx replay` against what Claude Code really loaded: the transcript's own attachment records and API
usage. The fixture is a real Claude Code 2.1.332 transcript (tests/e2e's scripted model: Read
src/ui/Footer.tsx, then Read src/api/users.ts and tools/gen.py in one response), with the recorded paths
rewritten to /home/dev/acme and the lines that hold only the client's own prompt text left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.project import Project
from jitctx.telemetry.replay import replay
from jitctx.telemetry.replay_host import Usage
from jitctx.telemetry.transcript import read_transcript
from tests.conftest import write_tree
from tests.e2e.harness import FILES  # the fixture repository the transcript was recorded in

FIXTURE = Path(__file__).parent / "fixtures" / "claude-2.1.332-attachments.jsonl"
OLD_ROOT = "/home/dev/acme"
# Claude Code's own loads, in order: (turn after which, path, reason)
HOST = [
    (0, "CLAUDE.md", "session_start"),
    (1, "src/ui/CLAUDE.md", "nested_traversal"),
    (1, ".claude/rules/components.md", "path_glob_match"),
    (2, ".claude/rules/api.md", "path_glob_match"),
    (2, "tools/CLAUDE.md", "nested_traversal"),
    (2, ".claude/rules/python.md", "path_glob_match"),
]


def body(path: str) -> str:
    """The text Claude Code attaches: a rule without its frontmatter, CLAUDE.md as on disk."""
    text = FILES[path]
    return text.split("---\n\n", 1)[1] if text.startswith("---") else text


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "acme", FILES)


def run_json(root: Path, *paths: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["replay", "--root", str(root), "--from-root", OLD_ROOT, "--json", *paths]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_the_transcript_says_what_claude_code_attached_and_when() -> None:
    transcript = read_transcript(FIXTURE)
    assert transcript.host_recorded
    found = [(f.after_turn, f.path.removeprefix(OLD_ROOT + "/"), f.reason) for f in transcript.host_files]
    assert found == HOST
    rule = transcript.host_files[2]
    assert rule.globs == ("src/ui/**/*.tsx",) and rule.memory_type == "Project"
    assert rule.text == body(".claude/rules/components.md")
    # three responses; the second is written as two lines sharing message.id: one turn, usage once
    assert [len(t.calls) for t in transcript.turns] == [1, 2, 0]
    assert [t.usage for t in transcript.turns] == [Usage(100, 0, 0, 10)] * 3


def test_replay_compares_with_what_claude_code_loaded(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (report,) = run_json(root, str(FIXTURE), capsys=capsys)["transcripts"]
    host = report["host"]
    assert [(x["turn"], x["path"], x["reason"]) for x in host["loads"]] == HOST
    assert all(x["inside"] and x["channel"] == "main" for x in host["loads"])
    assert host["only_jit"] == ["AGENTS.md", "src/api/AGENTS.md"]  # Claude Code reads no AGENTS.md
    assert host["only_host"] == []
    # what Claude Code's files weighed in each turn's request: those attached before the turn
    sizes = {path: len(body(path).encode()) for _, path, _ in HOST}
    expected = [sum(sizes[path] for turn, path, _ in HOST if turn < number) for number in (1, 2, 3)]
    # the client strips the final newline of a CLAUDE.md it loads at start
    expected = [value - 1 for value in expected]
    assert [t["host"]["bytes"] for t in report["per_turn"]] == expected
    assert host["total"]["bytes"] == sum(expected)
    assert report["api_usage"] == {
        "prompt_tokens": 300,
        "input_tokens": 300,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 30,
    }
    assert report["per_turn"][0]["api_usage"]["output_tokens"] == 10


def test_the_human_report_names_what_only_one_side_loaded(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--root", str(root), "--from-root", OLD_ROOT, str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "claude code bytes" in out
    assert "claude code loaded 6 project files itself (1 at start)" in out
    assert "only jitctx:      AGENTS.md, src/api/AGENTS.md" in out
    assert "api usage   300 prompt tokens" in out and "30 output, over 3 responses" in out


def line(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, "sessionId": "s", "cwd": OLD_ROOT, **fields})


def nested(path: str, text: str, *, replaces: str | None = None, sidechain: bool = False) -> str:
    attachment: dict[str, Any] = {
        "type": "nested_memory",
        "path": path,
        "content": {"path": path, "type": "Project", "content": text},
    }
    if replaces:
        attachment["replacesPath"] = replaces
    return line(
        "attachment", attachment=attachment, isSidechain=sidechain, agentId="a1" if sidechain else None
    )


def assistant(message_id: str, *, sidechain: bool = False, **usage: int) -> str:
    message: dict[str, Any] = {"id": message_id, "role": "assistant", "content": []}
    if usage:
        message["usage"] = usage
    return line("assistant", message=message, isSidechain=sidechain, agentId="a1" if sidechain else None)


def test_a_file_sent_again_replaces_its_text_and_a_subagent_has_its_own(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "acme", {"src/CLAUDE.md": "new text\n", "CLAUDE.md": "root\n"})
    transcript_path = tmp_path / "t.jsonl"
    transcript_path.write_text(
        "\n".join(
            [
                assistant("m1", input_tokens=5, cache_read_input_tokens=1000, output_tokens=3),
                nested(f"{root}/src/CLAUDE.md", "old text, longer\n"),
                assistant("m2"),
                nested(f"{root}/src/CLAUDE.md", "new text\n", replaces=f"{root}/src/CLAUDE.md"),
                assistant("m3"),
                assistant("s1", sidechain=True),
                nested(f"{root}/CLAUDE.md", "root\n", sidechain=True),
                assistant("s2", sidechain=True),
                nested("/home/dev/.claude/CLAUDE.md", "mine\n"),
            ]
        )
        + "\n"
    )
    result = replay(read_transcript(transcript_path), Project(str(root), home=None))
    assert result.host is not None
    sent = [t.host_sent.bytes if t.host_sent is not None else None for t in result.turns]
    # m1: nothing yet; m2: the old text; m3: the new text only; s1: nothing in its channel; s2: root
    assert sent == [0, len("old text, longer\n"), len("new text\n"), 0, len("root\n")]
    assert [(x.path, x.channel, x.turn) for x in result.host.loads] == [
        ("src/CLAUDE.md", "main", 1),
        ("src/CLAUDE.md", "main", 2),
        ("CLAUDE.md", "subagent", 4),
        ("/home/dev/.claude/CLAUDE.md", "main", 3),
    ]
    assert not result.host.loads[-1].inside  # a user-level file: listed, left out of the comparison
    assert "/home/dev/.claude/CLAUDE.md" not in result.host.only_host
    assert result.usage == Usage(5, 0, 1000, 3)
    assert result.usage.prompt == 1005


def test_a_transcript_without_attachments_has_no_host_side(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "acme", {"CLAUDE.md": "root\n"})
    transcript_path = tmp_path / "t.jsonl"
    transcript_path.write_text(assistant("m1") + "\n")
    result = replay(read_transcript(transcript_path), Project(str(root), home=None))
    assert result.host is None and result.host_total is None and result.usage is None
    assert all(t.host_sent is None for t in result.turns)
