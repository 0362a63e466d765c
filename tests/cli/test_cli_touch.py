"""`jitctx touch`: the JSON contract, sessions across calls, and the example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))


def touch(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["touch", *args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_seed_sequence_on_the_example(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    root = str(example_copy)
    doc = touch(capsys, "--root", root, "src/ui/README.md", "src/ui/Footer.tsx", "src/ui/Badge.tsx")
    assert doc["session"] == "ephemeral"
    assert [x["path"] for x in doc["startup"]["loaded"]] == ["CLAUDE.md", "docs/conventions.md", "AGENTS.md"]
    assert doc["startup"]["loaded"][1]["reason"] == "include"
    readme, footer, badge = doc["steps"]
    assert [(x["path"], x["reason"]) for x in readme["loaded"]] == [("src/ui/CLAUDE.md", "path_glob_match")]
    assert readme["scope_skipped"] >= 1
    assert [(x["path"], x["reason"]) for x in footer["loaded"]] == [
        (".claude/rules/components.md", "path_glob_match")
    ]
    assert badge["hit"] is False and badge["loaded"] == []
    assert set(footer) >= {"trigger", "hit", "loaded", "scope_skipped", "elapsed_ms"}
    assert footer["loaded"][0]["bytes"] > 0


def test_a_session_spans_calls(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    root = str(example_copy)
    first = touch(capsys, "--root", root, "--session", "abc", "src/api/users.ts")
    assert first["session"] == "abc" and first["startup"] is not None
    assert {x["path"] for x in first["steps"][0]["loaded"]} == {
        "src/api/AGENTS.md",
        ".claude/rules/api-handlers.md",
    }
    second = touch(capsys, "--root", root, "--session", "abc", "src/api/users.ts", "tools/gen.py")
    assert second["startup"] is None
    assert second["steps"][0]["hit"] is False
    assert [x["path"] for x in second["steps"][1]["loaded"]] == [".claude/rules/python.md"]


def test_outside_path_is_a_miss_with_a_note(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    doc = touch(capsys, "--root", str(example_copy), "/etc/hostname")
    step = doc["steps"][0]
    assert step["hit"] is False and "outside the project" in step["note"]


def test_human_output(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    assert main(["touch", "--root", str(example_copy), "src/ui/Footer.tsx"]) == 0
    out = capsys.readouterr().out
    assert "src/ui/CLAUDE.md" in out and "path_glob_match" in out


def test_paths_are_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["touch"])
    assert exited.value.code == 2


def test_an_unusable_state_dir_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    code = main(
        ["touch", "--root", str(example_copy), "--session", "s", "--state-dir", str(blocker / "state"), "x"]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot keep session state" in err and "--state-dir" in err and "Traceback" not in err


def test_a_named_session_is_recorded(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    touch(capsys, "--root", str(example_copy), "--session", "rec", "src/ui/Footer.tsx", "website/index.md")
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["discoveries"] == 2 and stats["sessions"] == 1


def test_a_deleted_file_is_shown_as_dropped(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    root = str(example_copy)
    touch(capsys, "--root", root, "--session", "d", "src/api/users.ts")
    (example_copy / "src/api/AGENTS.md").unlink()
    assert main(["touch", "--root", root, "--session", "d", "src/api/users.ts"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "src/api/AGENTS.md" in line)
    assert "dropped" in row and "no longer apply" in row


def test_an_edited_file_is_shown_as_updated(capsys: pytest.CaptureFixture[str], example_copy: Path) -> None:
    root = str(example_copy)
    touch(capsys, "--root", root, "--session", "u", "src/api/users.ts")
    rule = example_copy / "src/api/AGENTS.md"
    rule.write_text(rule.read_text() + "\nOne more rule.\n")
    step = touch(capsys, "--root", root, "--session", "u", "src/api/users.ts")["steps"][0]
    assert [(x["path"], x["updated"]) for x in step["loaded"]] == [("src/api/AGENTS.md", True)]


def events(state: Path) -> list[dict[str, Any]]:
    lines = b"".join(path.read_bytes() for path in sorted((state / "events").glob("*.jsonl")))
    return [json.loads(line) for line in lines.splitlines()]


def test_each_record_carries_the_bytes_held_at_its_moment_and_its_agent(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    # The README's sequence: a record that showed the bytes held after the last touch would put every
    # discovery at the session's final size, and a curve of cumulative bytes would be flat.
    root = str(example_copy)
    touch(capsys, "--root", root, "--session", "t1", "src/ui/README.md", "src/ui/Footer.tsx", "tools/gen.py")
    records = events(tmp_path / "state")
    assert [r["kind"] for r in records] == ["startup", "discovery", "discovery", "discovery"]
    held, expected = 0, []
    for record in records:
        held += sum(item["bytes"] for item in record["loaded"])
        expected.append(held)
    assert [r["cumulative_bytes"] for r in records] == expected
    assert expected == sorted(set(expected)) and all(r["loaded"] for r in records)
    assert [r["agent"] for r in records] == ["jitctx"] * 4

    # A later call resumes the session: its records go on from what the session held.
    touch(capsys, "--root", root, "--session", "t1", "src/api/users.ts", "src/ui/Footer.tsx")
    later = events(tmp_path / "state")[4:]
    assert [r["kind"] for r in later] == ["discovery", "discovery"]
    grown = held + sum(item["bytes"] for item in later[0]["loaded"])
    assert [r["cumulative_bytes"] for r in later] == [grown, grown]
    assert later[0]["hit"] and not later[1]["hit"]
    assert {r["agent"] for r in later} == {"jitctx"}


def test_the_recorded_agent_is_the_profile_that_ran(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    touch(
        capsys,
        "--root",
        str(example_copy),
        "--agent",
        "codex",
        "--without-hook",
        "--session",
        "c",
        "src/api/users.ts",
    )
    assert {r["agent"] for r in events(tmp_path / "state")} == {"codex"}


def test_without_a_session_nothing_is_recorded(
    capsys: pytest.CaptureFixture[str], example_copy: Path, tmp_path: Path
) -> None:
    touch(capsys, "--root", str(example_copy), "src/ui/Footer.tsx")
    assert not (tmp_path / "state" / "events").exists()
