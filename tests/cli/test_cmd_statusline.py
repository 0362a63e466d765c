"""`jitctx statusline` (one line for Claude Code's status line: the instruction files in the session's
context now) and `jitctx log --session` (the same list as a table), over sessions the real hook engine
recorded in-process; and the status line as the real process Claude Code starts after every message."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli import cmd_statusline
from jitctx.cli.main import main
from jitctx.reports.in_context import state_path
from tests.recorded_session import Agent, recorded

LINE = "jitctx 4 files · 68 B · latest .cursor/rules/react.mdc (touched src/ui/Footer.tsx)"


def status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str
) -> tuple[str, str]:
    """`jitctx statusline ARGS` in-process with `stdin`: (stdout, stderr); it always exits 0."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    capsys.readouterr()
    assert main(["statusline", *args]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def claude_input(agent: Agent, session: str | None = None) -> str:
    """What Claude Code 2.1.332 gives a status line command on stdin (the fields jitctx reads, and some)."""
    return json.dumps(
        {
            "session_id": session or agent.session,
            "transcript_path": str(agent.root / "t.jsonl"),
            "cwd": str(agent.root),
            "model": {"id": "claude-x", "display_name": "Claude"},
            "workspace": {"current_dir": str(agent.root), "project_dir": str(agent.root), "added_dirs": []},
            "version": "2.1.332",
        }
    )


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Agent:
    recorded_agent = recorded(tmp_path)
    monkeypatch.setenv("JITCTX_STATE_DIR", str(recorded_agent.state))
    return recorded_agent


def test_the_line_of_a_recorded_session(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, err = status(capsys, monkeypatch, claude_input(agent))
    assert out == LINE + "\n" and err == ""


def test_after_a_compaction_everything_came_again(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent.compacts()
    out, _ = status(capsys, monkeypatch, claude_input(agent))
    assert out == "jitctx 4 files · 68 B · latest CLAUDE.md (after compaction)\n"
    agent.reads("src/api/users.ts")
    out, _ = status(capsys, monkeypatch, claude_input(agent))
    assert out == "jitctx 5 files · 90 B · latest src/api/CLAUDE.md (touched src/api/users.ts)\n"


def test_a_clear_leaves_the_start_files(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent.start("clear")
    out, _ = status(capsys, monkeypatch, claude_input(agent))
    assert out == "jitctx 2 files · 26 B · latest AGENTS.md (session start)\n"


@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        ("", "jitctx · no session"),
        ("not json", "jitctx · no session"),
        ('{"session_id": 7}', "jitctx · no session"),
        ('["s-1"]', "jitctx · no session"),
        ('{"session_id": ' + "[" * 100_000, "jitctx · no session"),  # nested too deep for json
        ('{"session_id": "s-1", "pad": "' + "x" * 2_000_000 + '"}', "jitctx · no session"),  # over 1 MiB
        ('{"session_id": "' + "[" * 10_000 + '"}', "jitctx · no instruction files in context yet"),
        ('{"session_id": "no-such-session"}', "jitctx · no instruction files in context yet"),
    ],
)
def test_anything_else_is_a_neutral_line(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, line: str
) -> None:
    out, err = status(capsys, monkeypatch, stdin)
    assert out == line + "\n" and err == ""


def test_a_session_that_has_started_with_nothing_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "empty"
    (root / ".git").mkdir(parents=True)
    agent = Agent(root, tmp_path / "state", tmp_path / "home")
    agent.start()
    assert Path(state_path(str(agent.state), "claude-code.s-1")).exists()
    out, _ = status(capsys, monkeypatch, claude_input(agent), "--state-dir", str(agent.state))
    assert out == "jitctx · no instruction files in context yet\n"


def test_a_state_it_cannot_read_is_a_neutral_line(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Path(state_path(str(agent.state), "claude-code.s-1")).write_bytes(b'{"version": 3, "channels": 1}')
    out, err = status(capsys, monkeypatch, claude_input(agent))
    assert out == "jitctx · session state unreadable\n" and err == ""


def test_any_error_is_a_neutral_line(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cmd_statusline, "in_context", broken)
    out, err = status(capsys, monkeypatch, claude_input(agent))
    assert out == "jitctx · status unavailable\n" and err == ""
    out, _ = status(capsys, monkeypatch, claude_input(agent), "--json")
    assert json.loads(out) == {
        "schema_version": 1,
        "problem": "RuntimeError: boom",
        "line": "jitctx · status unavailable",
    }


def test_json_lists_every_file(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = status(capsys, monkeypatch, claude_input(agent), "--json")
    document = json.loads(out)
    assert document["line"] == LINE and document["key"] == "claude-code.s-1" and document["count"] == 4
    assert [(f["path"], f["by"], f["why"]) for f in document["files"]] == [
        ("CLAUDE.md", "client", "session start"),
        ("AGENTS.md", "jitctx", "session start"),
        ("src/ui/CLAUDE.md", "client", "touched src/ui/Footer.tsx"),
        (".cursor/rules/react.mdc", "jitctx", "touched src/ui/Footer.tsx"),
    ]
    assert document["latest"]["path"] == ".cursor/rules/react.mdc"
    assert document["bytes_carried"] == sum(f["bytes"] for f in document["files"]) == 68
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("jitctx").joinpath("schemas", "statusline.json").read_text())
    jsonschema.validate(document, schema)
    logged = json.loads(log(capsys, "--session", "s-1", "--json"))
    jsonschema.validate({"schema_version": 1, "line": "", **logged["in_context"]}, schema)
    # The same list: the status line reads the end of the log, log --session as much as it takes.
    assert logged["in_context"] == {k: v for k, v in document.items() if k not in ("schema_version", "line")}


def test_another_agents_session_by_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Codex session's state is `codex.<id>`: found without --agent, and with --agent codex only."""
    agent = recorded(tmp_path)
    codex = Agent(agent.root, agent.state, agent.home, session="c-1", client="codex")
    codex.start()
    stdin = json.dumps({"session_id": "c-1"})
    state = ["--state-dir", str(agent.state)]
    out, _ = status(capsys, monkeypatch, stdin, *state)
    assert out.startswith("jitctx ") and "file" in out
    assert status(capsys, monkeypatch, stdin, *state, "--agent", "codex")[0] == out
    out, _ = status(capsys, monkeypatch, stdin, *state, "--agent", "claude-code")
    assert out == "jitctx · no instruction files in context yet\n"


def test_as_the_process_claude_code_runs(agent: Agent) -> None:
    """A real `jitctx statusline` process: the line on stdout, nothing on stderr, exit 0, also for input
    it cannot read."""
    env = {**os.environ, "JITCTX_STATE_DIR": str(agent.state)}
    for stdin, line in ((claude_input(agent), LINE), ("{", "jitctx · no session")):
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "statusline"],
            input=stdin.encode(),
            capture_output=True,
            env=env,
            timeout=60,
        )
        assert (done.returncode, done.stdout.decode(), done.stderr) == (0, line + "\n", b"")


def test_the_process_imports_no_engine(agent: Agent) -> None:
    """It runs after every message: none of the modules that make a hook's engine answer slow to start."""
    env = {**os.environ, "JITCTX_STATE_DIR": str(agent.state)}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "jitctx", "statusline"],
        input=claude_input(agent).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.stdout.decode() == LINE + "\n"
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.decode().splitlines()
        if line.startswith("import time:")
    }
    never = {"argparse", "dataclasses", "pathlib", "jitctx.discovery.session", "jitctx.project",
             "jitctx.discovery.state", "jitctx.model", "jitctx.telemetry.events",
             "jitctx.cli.common"}  # fmt: skip
    assert not modules & never, sorted(modules & never)


# -- jitctx log --session -------------------------------------------------------------------------------


def log(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["log", *args]) == 0
    out: str = capsys.readouterr().out
    return out


def test_log_session_shows_the_same_list(agent: Agent, capsys: pytest.CaptureFixture[str]) -> None:
    out = log(capsys, "--session", "s-1")
    now = out[out.index("in context now:") :].splitlines()
    assert now[0] == "in context now: session s-1 (claude-code.s-1); 4 files, 68 B"
    rows = [line.split() for line in now[2:]]
    assert rows[0] == ["file", "bytes", "arrived", "(UTC)", "why", "brought", "by"]
    assert [(row[0], row[1], row[-1]) for row in rows[1:]] == [
        ("CLAUDE.md", "7", "client"),
        ("AGENTS.md", "19", "jitctx"),
        ("src/ui/CLAUDE.md", "24", "client"),
        (".cursor/rules/react.mdc", "18", "jitctx"),
    ]
    assert "touched src/ui/Footer.tsx" in now[-1]
    assert "in context now" not in log(capsys)  # the plain timeline is as it was


def test_log_session_without_an_id_is_the_latest_session(
    agent: Agent, capsys: pytest.CaptureFixture[str]
) -> None:
    Agent(agent.root, agent.state, agent.home, session="s-22").start()  # an id that begins with s-2
    Agent(agent.root, agent.state, agent.home, session="s-2").start()
    out = log(capsys, "--session")
    assert "in context now: session s-2 (claude-code.s-2); 2 files" in out
    assert out.splitlines()[0].endswith("; session s-2")
    timeline = json.loads(log(capsys, "--session", "--json"))["loads"]
    assert {load["session_id"] for load in timeline} == {"s-2"}  # that very session, not s-22 too


def test_log_session_json_after_a_compaction(agent: Agent, capsys: pytest.CaptureFixture[str]) -> None:
    agent.compacts()
    document = json.loads(log(capsys, "--session", "s-1", "--json"))
    now = document["in_context"]
    assert now["count"] == 4 and now["compacted_at"] is not None and now["problem"] is None
    assert {f["why"] for f in now["files"]} == {"after compaction"}
    assert all(f["ts"] >= now["compacted_at"] for f in now["files"])
    # --since narrows the timeline, not what the context holds
    later = json.loads(log(capsys, "--session", "s-1", "--since", "2099-01-01", "--json"))
    assert later["loads"] == [] and later["in_context"]["count"] == 4


def test_log_session_says_why_there_is_no_list(agent: Agent, capsys: pytest.CaptureFixture[str]) -> None:
    Agent(agent.root, agent.state, agent.home, session="s-2").start()
    out = log(capsys, "--session", "s-")
    assert "in context now: 2 sessions start with 's-' (s-1, s-2): give more of the id" in out
    os.unlink(state_path(str(agent.state), "claude-code.s-1"))
    document = json.loads(log(capsys, "--session", "s-1", "--json"))
    assert document["in_context"]["count"] == 0 and "no saved state" in document["in_context"]["problem"]
