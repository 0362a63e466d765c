"""`jitctx stats --drift` and doctor's drift line: the event log's sessions joined with the clients' own
transcripts, per client release."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.telemetry.records import append_record, discovery_record, load_entry, startup_record

DUPLICATED = "3d2b1c7e-0000-4000-8000-000000000001"
CLEAN = "3d2b1c7e-0000-4000-8000-000000000002"
GONE = "3d2b1c7e-0000-4000-8000-000000000003"
RULE = "JX-RULE-API: call the API through src/api/client.ts."


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with an API rule and a UI CLAUDE.md, a home and a state dir of its own."""
    root = tmp_path / "proj"
    (root / ".claude/rules").mkdir(parents=True)
    (root / ".claude/rules/api.md").write_text(f"---\npaths: src/api/**\n---\n\n{RULE}\n")
    (root / "src/ui").mkdir(parents=True)
    (root / "src/ui/CLAUDE.md").write_text("UI rules\n")
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.chdir(root)
    return root


def log_session(tmp_path: Path, root: Path, session: str, agent: str, host_loaded: list[str]) -> None:
    """A session's records: its start, a discovery whose rule jitctx sent, one the client served itself."""
    events = tmp_path / "state" / "events"
    head = {"session_id": session, "root": str(root), "agent": agent, "elapsed_ms": 1.0}
    append_record(events, startup_record(**head, cwd=".", signals=[], skipped=0, cumulative_bytes=0))
    sent = load_entry(
        file_path=str(root / ".claude/rules/api.md"),
        memory_type="Project",
        load_reason="path_glob_match",
        globs=["src/api/**"],
        file_bytes=52,
        tokens=13,
    )
    for trigger, loaded, by_host in (("src/api/new.ts", [sent], []), ("src/ui/Badge.tsx", [], host_loaded)):
        record = discovery_record(
            **head,
            trigger_file_path=str(root / trigger),
            hit=True,
            scope_skipped=0,
            cumulative_bytes=52,
            loaded=loaded,
            host_loaded=by_host,
        )
        append_record(events, record)


def attachment(kind: str, **fields: Any) -> str:
    record = {"type": "attachment", "version": "2.1.197", "isSidechain": False,
              "attachment": {"type": kind, **fields}}  # fmt: skip
    return json.dumps(record) + "\n"


def answered(context: str) -> str:
    """jitctx's answer as Claude Code records it: its hook command's success with what it printed, then
    the context the client added."""
    stdout = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": context}}
    )
    ran = {"hookName": "PostToolBatch", "toolUseID": "hook-1", "hookEvent": "PostToolBatch"}
    success = attachment("hook_success", command="jitctx hook claude-code", stdout=stdout, exitCode=0, **ran)
    return success + attachment("hook_additional_context", content=[context], **ran)


def transcript(tmp_path: Path, root: Path, session: str, text: str) -> None:
    folder = tmp_path / "home/.claude/projects" / "".join(c if c.isalnum() else "-" for c in str(root))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{session}.jsonl").write_text(text)


def duplicated_session(tmp_path: Path, root: Path) -> None:
    """The rule sent by jitctx after a Write, then loaded by the client after a Read; the UI file counted
    as the client's load but never shown."""
    log_session(tmp_path, root, DUPLICATED, "claude-code", [str(root / "src/ui/CLAUDE.md")])
    block = f"Contents of .claude/rules/api.md (src/api/** matches src/api/new.ts):\n\n{RULE}"
    transcript(
        tmp_path,
        root,
        DUPLICATED,
        answered(block)
        + attachment("nested_memory", path=str(root / ".claude/rules/api.md"), content={"content": RULE}),
    )


def stats_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["stats", *args, "--json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_the_report_names_the_duplicate_and_the_file_that_never_arrived(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    duplicated_session(tmp_path, env)
    log_session(tmp_path, env, GONE, "claude-code", [])  # its transcript is gone
    log_session(tmp_path, env, CLEAN, "jitctx", [])  # `jitctx touch`: no client, no transcript
    drift = stats_json(capsys, "--drift")["drift"]
    assert (drift["sessions"], drift["read"]) == (2, 1)
    assert drift["not_found"] == [{"client": "claude-code", "sessions": 1}]
    [release] = drift["releases"]
    assert (release["client"], release["release"], release["sessions"]) == ("claude-code", "2.1.197", 1)
    assert release["twice"] == [
        {
            "path": ".claude/rules/api.md",
            "file_path": os.path.realpath(env / ".claude/rules/api.md"),
            "count": 2,
            "sessions": 1,
            "routes": ["client", "jitctx"],
        }
    ]
    assert [gone["path"] for gone in release["never_arrived"]] == ["src/ui/CLAUDE.md"]


def test_the_document_with_drift_matches_the_stats_schema(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    duplicated_session(tmp_path, env)
    text = resources.files("jitctx").joinpath("schemas", "stats.json").read_text(encoding="utf-8")
    validator = jsonschema.Draft202012Validator(json.loads(text))
    document = stats_json(capsys, "--drift")
    assert document["drift"]["releases"] and not list(validator.iter_errors(document))
    assert "drift" not in stats_json(capsys)  # only when asked: it reads the transcripts


def test_a_clean_session_says_so(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log_session(tmp_path, env, CLEAN, "claude-code", [str(env / "src/ui/CLAUDE.md")])
    block = f"Contents of .claude/rules/api.md (src/api/** matches src/api/new.ts):\n\n{RULE}"
    transcript(
        tmp_path,
        env,
        CLEAN,
        answered(block)
        + attachment("nested_memory", path=str(env / "src/ui/CLAUDE.md"), content={"content": "UI rules"}),
    )
    assert main(["stats", "--drift"]) == 0
    out = capsys.readouterr().out
    assert "no drift found in 1 session" in out
    drift = stats_json(capsys, "--drift")["drift"]
    assert drift["releases"][0]["twice"] == [] and drift["releases"][0]["never_arrived"] == []


def test_the_table_for_people(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    duplicated_session(tmp_path, env)
    assert main(["stats", "--drift"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(
        index
        for index, line in enumerate(lines)
        if line.split()[:4] == ["client", "release", "read", "drift"]
    )
    rows = [line.split() for line in lines[header + 1 :] if line.startswith("claude-code")]
    assert rows[0][:7] == ["claude-code", "2.1.197", "1", "twice", ".claude/rules/api.md", "2", "1"]
    assert rows[1][:6] == ["claude-code", "2.1.197", "1", "never", "arrived", "src/ui/CLAUDE.md"]
    # The columns line up: each row's file starts where the header's `file` column does.
    column = lines[header].index("file")
    table_rows = [line for line in lines[header + 1 :] if line.startswith("claude-code")]
    assert [line.index(".claude/") if "twice" in line else line.index("src/") for line in table_rows] == [
        column,
        column,
    ]


def test_as_a_real_process(env: Path, tmp_path: Path) -> None:
    duplicated_session(tmp_path, env)
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "stats", "--drift", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["drift"]["releases"][0]["twice"][0]["path"] == ".claude/rules/api.md"


def doctor_drift(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, str]]]:
    code = main(["doctor", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    return code, [check for check in checks if check["check"] == "drift"]


def test_doctor_warns_per_release_with_drift(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "state").mkdir(mode=0o700, exist_ok=True)
    assert main(["install", "claude-code"]) == 0
    capsys.readouterr()
    code_before, before = doctor_drift(capsys)
    assert [check["status"] for check in before] == ["skip"]  # nothing to read yet
    duplicated_session(tmp_path, env)
    code, [line] = doctor_drift(capsys)
    assert code == code_before  # a warning never changes the exit code
    assert (line["client"], line["status"]) == ("claude-code", "warn")
    assert line["detail"].startswith("2.1.197: 1 file reached the model twice (.claude/rules/api.md x2)")
    assert "src/ui/CLAUDE.md" in line["detail"] and "stats --drift" in line["fix"]


def test_doctor_says_how_many_transcripts_it_read_when_clean(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_session(tmp_path, env, CLEAN, "claude-code", [])
    transcript(tmp_path, env, CLEAN, attachment("nested_memory", path=str(env / "src/ui/CLAUDE.md"),
                                                content={"content": "UI rules"}))  # fmt: skip
    _, [line] = doctor_drift(capsys)
    assert line["status"] == "ok" and line["detail"] == "read 1 transcript of the last 7 days, no drift"
