"""Writes before their rules, made visible (DESIGN §2.11): `jitctx stats` counts them and the holds,
`jitctx log` shows each on its own line, over an event log written by real in-process hook calls in two
projects, one with holding on and one with it off."""

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
from jitctx.hook.engine import HookEnv
from jitctx.hook.pipeline import run_hook
from tests.conftest import write_tree

UI = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "CLAUDE.md": "# Root\n",
    "src/ui/CLAUDE.md": "# UI\nUse design tokens.\n",
    ".claude/rules/ui.md": '---\npaths: ["src/ui/**/*.tsx"]\n---\nComponents are functions.\n',
    "src/ui/Old.tsx": "export const Old = 1\n",
    "docs/notes.txt": "x\n",
}
LATE = {"src/ui/CLAUDE.md", ".claude/rules/ui.md"}


class Hook:
    """The claude-code hook in-process, its state in the test's own dir."""

    def __init__(self, state: Path, home: Path) -> None:
        self.state, self.home = state, home

    def __call__(self, root: Path, session: str, name: str, **fields: Any) -> dict[str, Any]:
        event = {"session_id": session, "cwd": str(root), "hook_event_name": name, **fields}
        env = HookEnv(state_dir=self.state, home=str(self.home), use_git=False)
        return run_hook("claude-code", json.dumps(event), env)

    def start(self, root: Path, session: str) -> None:
        self(root, session, "SessionStart", source="startup")

    def before_write(self, root: Path, session: str, rel: str) -> dict[str, Any]:
        call = {"file_path": str(root / rel), "content": "x"}
        return self(root, session, "PreToolUse", tool_name="Write", tool_input=call)

    def wrote(self, root: Path, session: str, rel: str) -> dict[str, Any]:
        (root / rel).write_text("x\n")
        calls = [{"tool_name": "Write", "tool_input": {"file_path": str(root / rel)}}]
        return self(root, session, "PostToolBatch", tool_calls=calls)


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log of two sessions. Holding off: a write into src/ui before its rules, and a write no rule
    governs. Holding on: the same write held once with its rules, then made again."""
    state = tmp_path / "state"
    monkeypatch.setenv("JITCTX_STATE_DIR", str(state))
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    hook = Hook(state, tmp_path / "home")
    off = write_tree(tmp_path / "off", {**UI, ".jitctx.toml": "[hold]\nwrites = false\n"})
    hook.start(off, "s-off")
    assert hook.before_write(off, "s-off", "src/ui/New.tsx") == {}  # not held: holding is off
    assert "Use design tokens." in json.dumps(hook.wrote(off, "s-off", "src/ui/New.tsx"))  # after it
    hook.wrote(off, "s-off", "docs/more.txt")
    on = write_tree(tmp_path / "on", UI)
    hook.start(on, "s-on")
    deny = hook.before_write(on, "s-on", "src/ui/New.tsx")
    assert deny["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert hook.before_write(on, "s-on", "src/ui/New.tsx") == {}  # the write made again passes
    hook.wrote(on, "s-on", "src/ui/New.tsx")
    return state


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    out: str = capsys.readouterr().out
    return out


def test_stats_json_counts_writes_before_their_rules_and_holds(
    state: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(run(capsys, "stats", "--json"))
    writes = document["writes"]
    assert (writes["total"], writes["before_rules"], writes["before_rules_sessions"], writes["held"]) == (
        3,
        1,
        1,
        1,
    )
    (row,) = writes["before_rules_files"]
    assert (row["path"], row["writes"], row["sessions"]) == ("src/ui/New.tsx", 1, 1)
    assert row["project"] == str((tmp_path / "off").resolve()) and set(row["late"]) == LATE
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("jitctx").joinpath("schemas", "stats.json").read_text(encoding="utf-8")
    jsonschema.validate(document, json.loads(text))


def test_stats_json_of_one_session_at_a_time(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    on = json.loads(run(capsys, "stats", "--json", "--session", "s-on"))["writes"]
    assert (on["total"], on["before_rules"], on["held"], on["before_rules_files"]) == (1, 0, 1, [])
    off = json.loads(run(capsys, "stats", "--json", "--session", "s-off"))["writes"]
    assert (off["total"], off["before_rules"], off["held"]) == (2, 1, 0)


def test_stats_text_has_a_writes_section(state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "stats")
    row = next(line for line in out.splitlines() if line.startswith("writes before their rules"))
    assert row.split()[4:] == (
        "33.3% 1 / 3 writes, in 1 session; 1 write held back until its rules were sent".split()
    )
    lines = out.splitlines()
    head = next(n for n, line in enumerate(lines) if line.startswith("written before its rules"))
    assert lines[head].split() == [
        "written",
        "before",
        "its",
        "rules",
        "project",
        "writes",
        "sessions",
        "late",
    ]
    cells = lines[head + 1].split(None, 4)
    assert cells[:4] == ["src/ui/New.tsx", "off", "1", "1"]
    assert {name.strip() for name in cells[4].split(",")} == LATE


def test_stats_text_says_when_no_write_was_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hook = Hook(tmp_path / "state", tmp_path / "home")
    root = write_tree(tmp_path / "p", UI)
    hook.start(root, "s")
    out = run(capsys, "stats", "--state-dir", str(tmp_path / "state"))
    row = next(line for line in out.splitlines() if line.startswith("writes before their rules"))
    assert row.split()[4:] == ["n/a", "no", "write", "recorded"]
    assert "written before its rules" not in out


def test_log_shows_the_write_before_its_rules_and_the_held_write(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = run(capsys, "log").splitlines()
    rows = [line for line in lines if line[:4].isdigit()]
    (line,) = [row for row in rows if "write before its rules" in row]
    assert line.split()[2:4] == ["s-off", "off"]
    cells = line.split("write before its rules", 1)[1].split(None, 1)
    assert cells[0] == "src/ui/New.tsx"
    assert cells[1].startswith("late: ") and set(cells[1].removeprefix("late: ").split(", ")) == LATE
    held = [row for row in rows if "(held write)" in row]
    assert len(held) == 2 and all(line.split()[2:4] == ["s-on", "on"] for line in held)
    assert {line.split("(held write)")[1].split()[0] for line in held} == LATE
    assert all(line.split()[-1] == "src/ui/New.tsx" for line in held)  # the write they were sent for
    assert lines[-1].endswith("; 1 write before its rules; 1 write held back until its rules were sent")


def test_log_json_passes_the_writes_and_the_hold_through(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(run(capsys, "log", "--json"))
    writes = [(w["session_id"], w["path"], w["rules_before"], set(w["late"])) for w in document["writes"]]
    assert writes == [
        ("s-off", "src/ui/New.tsx", False, LATE),
        ("s-off", "docs/more.txt", True, set()),
        ("s-on", "src/ui/New.tsx", True, set()),
    ]
    held = {load["path"] for load in document["loads"] if load["held"]}
    assert held == LATE
    assert all(load["session_id"] == "s-on" for load in document["loads"] if load["held"])
    records = json.loads(run(capsys, "log", "--raw", "--json"))["records"]  # as stored
    assert sum(1 for r in records if r.get("held") is True) == 1
    stored = [(w["path"], w["rules_before"]) for r in records for w in r.get("writes", [])]
    assert stored == [(w[1], w[2]) for w in writes]
    jsonschema = pytest.importorskip("jsonschema")
    text = resources.files("jitctx").joinpath("schemas", "log.json").read_text(encoding="utf-8")
    jsonschema.validate(document, json.loads(text))


def test_stats_as_a_subprocess(state: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "stats", "--json", "--state-dir", str(state)],
        capture_output=True,
        text=True,
        env={**os.environ, "JITCTX_STATE_DIR": str(state)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    writes = json.loads(done.stdout)["writes"]
    assert (writes["total"], writes["before_rules"], writes["held"]) == (3, 1, 1)
