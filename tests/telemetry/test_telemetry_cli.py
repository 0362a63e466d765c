"""`jitctx log` and `jitctx stats`: in-process and as a real subprocess, over a log of a real session."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.cli.state_paths import default_state_dir
from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.telemetry.events import (
    event_from_discovery,
    event_from_instructions_loaded,
    event_from_skill,
    event_from_startup,
    held_bytes,
)
from jitctx.telemetry.store import EventStore
from tests.conftest import write_tree

T0 = datetime(2026, 8, 8, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state dir whose log holds one real session (startup, a hit, a miss) and one host-only session."""
    root = write_tree(
        tmp_path / "proj",
        {
            "CLAUDE.md": "root rules\n",
            "src/ui/CLAUDE.md": "ui rules\n",
            ".claude/rules/py.md": "---\npaths: ['src/**/*.py']\n---\ntyped\n",
            "src/ui/Footer.tsx": "",
            "docs/a.md": "",
            "src/m.py": "",
        },
    )
    session = Session(Project(root, managed_files=()), cwd=root, use_git=False, session_id="sess-main")
    store = EventStore(tmp_path / "state/events")
    store.append(event_from_startup(session.startup(), session_id="sess-main", ts=T0))
    for step, path in enumerate(["src/ui/Footer.tsx", "docs/a.md", "src/m.py"], start=1):
        discovery = session.discover(path)
        store.append(
            event_from_discovery(
                discovery,
                session_id="sess-main",
                root=session.project.root,
                cumulative_bytes=held_bytes(session.blocks()),
                ts=T0 + timedelta(seconds=step),
            )
        )
    payload = {
        "session_id": "host-only",
        "hook_event_name": "InstructionsLoaded",
        "cwd": str(root),
        "file_path": f"{root}/CLAUDE.md",
        "memory_type": "Project",
        "load_reason": "session_start",
        "globs": [],
    }
    store.append(
        event_from_instructions_loaded(
            payload, source="claude-code", file_bytes=11, ts=T0 - timedelta(days=3)
        )
    )
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0
    document: dict[str, Any] = json.loads(out)
    return document


# -- log ---------------------------------------------------------------------------------------------


def test_log_timeline(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    code, out, _ = run(capsys, "log")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("window  2026-08-05 12:00:00 to 2026-08-08 12:00:03 UTC; 2 files, 5 lines")
    rows = [line.split() for line in lines if line.startswith("2026-")]
    assert rows == [
        ["2026-08-05", "12:00:00", "host-onl", "proj", "session_start", "CLAUDE.md"],
        ["2026-08-08", "12:00:00", "sess-mai", "proj", "session_start", "CLAUDE.md"],
        [
            "2026-08-08",
            "12:00:01",
            "sess-mai",
            "proj",
            "nested_traversal",
            "src/ui/CLAUDE.md",
            "src/ui/Footer.tsx",
        ],
        [
            "2026-08-08",
            "12:00:03",
            "sess-mai",
            "proj",
            "path_glob_match",
            ".claude/rules/py.md",
            "src/**/*.py",
            "src/m.py",
        ],
    ]
    assert lines[-1] == "4 loads; 3 discoveries (2 hits) in 2 sessions"


def test_log_json_and_filters(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    doc = as_json(capsys, "log", "--session", "sess", "--since", "2026-08-08")
    assert doc["events_dir"] == str(state / "events")
    assert (doc["discoveries"], doc["hits"], doc["sessions"]) == (3, 2, 1)
    assert [(x["reason"], x["path"], x["trigger"]) for x in doc["loads"]] == [
        ("session_start", "CLAUDE.md", None),
        ("nested_traversal", "src/ui/CLAUDE.md", "src/ui/Footer.tsx"),
        ("path_glob_match", ".claude/rules/py.md", "src/m.py"),
    ]
    assert doc["loads"][2]["globs"] == ["src/**/*.py"] and doc["loads"][1]["bytes"] == len(b"ui rules\n")
    assert doc["window"]["since"] == "2026-08-08T00:00:00.000Z" and doc["window"]["session"] == "sess"


def test_log_raw(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    code, out, _ = run(capsys, "log", "--raw")
    stored = sorted(line for f in (state / "events").iterdir() for line in f.read_text().splitlines())
    assert code == 0 and sorted(out.splitlines()) == stored
    doc = as_json(capsys, "log", "--raw", "--session", "host")
    assert [r["kind"] for r in doc["records"]] == ["load"]


def test_log_reports_corrupt_lines(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    with open(state / "events/2026-08-08.jsonl", "a") as handle:
        handle.write('{"v":1,"kind":"disc\n{"v":7,"kind":"discovery","ts":"x","session_id":"s"}\n')
    code, out, err = run(capsys, "log")
    assert code == 0 and "4 loads" in out
    assert "skipped 1 unreadable line in" in err and "2026-08-08.jsonl@" in err
    assert "skipped 1 record of a newer schema version" in err


def test_log_clear_refuses_without_a_terminal(
    capsys: pytest.CaptureFixture[str], state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    code, out, err = run(capsys, "log", "--clear")
    assert code == 2 and out == "" and "--yes" in err
    assert len(list((state / "events").iterdir())) == 2


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answer", "left"), [("y\n", 0), ("n\n", 2), ("\n", 2)])
def test_log_clear_asks_at_a_terminal(
    capsys: pytest.CaptureFixture[str], state: Path, monkeypatch: pytest.MonkeyPatch, answer: str, left: int
) -> None:
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    code, _, err = run(capsys, "log", "--clear")
    assert code == 0 and "delete 2 event files" in err
    assert len(list((state / "events").iterdir())) == left


def test_log_clear_yes(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    doc = as_json(capsys, "log", "--clear", "--yes")
    assert doc["cleared_files"] == 2 and doc["cleared_bytes"] > 0
    assert as_json(capsys, "log", "--clear", "--yes")["cleared_files"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["log", "--clear", "--since", "1d"], "does not combine"),
        (["log", "--yes"], "only goes with --clear"),
        (["log", "--since", "last week"], "--since 'last week'"),
        (["stats", "--since", "7x"], "--since '7x'"),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], state: Path, args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and message in err


def test_empty_log_says_how_to_fill_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "stats", "--state-dir", str(tmp_path / "nothing"))
    assert code == 0 and out.startswith("window  no records") and "no events recorded" in err


@pytest.mark.parametrize("command", ["stats", "log"])
def test_empty_log_names_every_way_to_fill_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    # `touch` without --session and `replay` without --record write nothing: the hint names what does.
    code, _, err = run(capsys, command, "--state-dir", str(tmp_path / "nothing"))
    assert code == 0 and "no events recorded" in err
    for way in ("jitctx install claude-code", "jitctx touch --session NAME", "replay --record", "jitctx mcp"):
        assert way in err


def test_the_touch_named_in_the_hint_fills_the_log(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JITCTX_HOME", str(tmp_path / "home"))
    root = write_tree(tmp_path / "proj", {"CLAUDE.md": "root rules\n", "src/a.py": ""})
    state = str(tmp_path / "state")
    assert main(["touch", "--root", str(root), "--state-dir", state, "--session", "NAME", "src/a.py"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "stats", "--state-dir", state, "--json")
    assert code == 0 and "no events recorded" not in err
    assert json.loads(out)["discoveries"] == 1


# -- stats -------------------------------------------------------------------------------------------


def test_stats_table(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    code, out, _ = run(capsys, "stats")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("window  2026-08-05 12:00:00 to 2026-08-08 12:00:03 UTC")
    table = {line[:28].strip(): line[28:].split("  ")[0].strip() for line in lines[2:11]}
    assert table["sessions"] == "2" and table["discoveries"] == "3"
    assert table["hit rate"] == "66.7%" and table["waste rate"] == "50.0%"
    assert "1 predate the log, 1 with discoveries" in out
    assert "most bytes carried: CLAUDE.md" in out and "--by-file" in out


def test_stats_by_file(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    code, out, _ = run(capsys, "stats", "--by-file")
    board = out[out.index("file ") :].splitlines()
    assert code == 0 and [row.split()[0] for row in board[1:]] == [
        "CLAUDE.md",
        "src/ui/CLAUDE.md",
        ".claude/rules/py.md",
    ]


def test_stats_json(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    doc = as_json(capsys, "stats", "--session", "sess-main")
    assert (doc["sessions"], doc["discoveries"], doc["hits"], doc["sessions_predating_log"]) == (1, 3, 2, 0)
    assert doc["window"]["files"] == 2 and doc["window"]["session"] == "sess-main"
    assert doc["scope_skipped"] == 2 and doc["rules_scanned"] == 4
    assert doc["mean_bytes_per_load"] == (len(b"ui rules\n") + len(b"typed\n")) / 2
    assert doc["by_channel"] == [{"channel": "main", "discoveries": 3, "hits": 2, "loads": 3}]
    assert doc["series"][0]["points"][0] == {
        "ts": "2026-08-08T12:00:00.000Z",
        "cumulative_bytes": len(b"root rules\n"),
    }


def test_stats_html(capsys: pytest.CaptureFixture[str], state: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.html"
    code, out, err = run(capsys, "stats", "--html", str(target), "--json")
    assert code == 0 and json.loads(out)["discoveries"] == 3 and f"wrote {target}" in err
    page = target.read_text()
    assert "<svg" in page and "src/ui/CLAUDE.md" in page.replace("<wbr>", "")
    code, _, err = run(capsys, "stats", "--html", str(tmp_path / "missing/dir/x.html"))
    assert code == 2 and "cannot write --html" in err


def with_skills(state: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The state's project with three skills (one the model cannot call), and uses of one of them."""
    root = as_json(capsys, "stats", "--session", "sess-main")["series"][0]["project"]
    write_tree(
        Path(root),
        {
            ".claude/skills/commit/SKILL.md": "---\nname: commit\ndescription: Commit\n---\n",
            ".claude/skills/review/SKILL.md": "---\nname: review\ndescription: Review\n---\n",
            ".claude/skills/manual/SKILL.md": "---\nname: manual\ndescription: M\n"
            "disable-model-invocation: true\n---\n",
        },
    )
    store = EventStore(state / "events")
    for n, sid in enumerate(["sess-main", "sess-main", "sess-other"]):
        path = ".claude/skills/commit/SKILL.md"
        store.append(
            event_from_skill("commit", session_id=sid, root=root, path=path, ts=T0 + timedelta(seconds=n))
        )
    return str(root)


def test_stats_shows_the_skills_used_and_those_never_called(
    capsys: pytest.CaptureFixture[str], state: Path
) -> None:
    code, out, _ = run(capsys, "stats")
    assert code == 0 and "skills used" not in out  # no skill record: no table, and no "unused" guess
    assert as_json(capsys, "stats")["skills_unused"] == []
    root = with_skills(state, capsys)
    code, out, _ = run(capsys, "stats")
    table = out[out.index("skills used") :].splitlines()
    assert table[1].split() == ["commit", "proj", "3", "2", ".claude/skills/commit/SKILL.md"]
    assert table[2] == "never called in the window: review (proj)"  # `manual` is only ever typed
    doc = as_json(capsys, "stats")
    assert doc["by_skill"] == [
        {
            "skill": "commit",
            "uses": 3,
            "sessions": 2,
            "project": root,
            "path": ".claude/skills/commit/SKILL.md",
        }
    ]
    assert doc["skills_unused"] == [
        {"project": root, "skill": "review", "path": ".claude/skills/review/SKILL.md"}
    ]
    assert doc["sessions"] == 3 and doc["discoveries"] == 3  # a skill use is no discovery


def test_stats_json_with_skills_matches_its_schema(capsys: pytest.CaptureFixture[str], state: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    with_skills(state, capsys)
    schema = json.loads(
        resources.files("jitctx").joinpath("schemas", "stats.json").read_text(encoding="utf-8")
    )
    doc = as_json(capsys, "stats")
    assert doc["by_skill"] and doc["skills_unused"]
    jsonschema.validate(doc, schema)
    for key in ("by_skill", "skills_unused"):
        assert key in schema["required"]
        assert set(doc[key][0]) == set(schema["properties"][key]["items"]["required"])


def test_stats_html_lists_the_skills(capsys: pytest.CaptureFixture[str], state: Path, tmp_path: Path) -> None:
    with_skills(state, capsys)
    target = tmp_path / "skills.html"
    assert run(capsys, "stats", "--html", str(target))[0] == 0
    page = target.read_text().replace("<wbr>", "")
    section = page[page.index("<h2>Skills used</h2>") : page.index("<h2>By reason</h2>")]
    assert ".claude/skills/commit/SKILL.md" in section and "Never called in the window" in section
    assert "review" in section and "manual" not in section


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("log", "stats"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "examples:" in out and f"jitctx {command} --since" in out and "--state-dir" in out


def test_as_a_subprocess(state: Path) -> None:
    env = {**os.environ, "JITCTX_STATE_DIR": str(state)}
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "stats", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["discoveries"] == 3
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "log", "--clear"],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2 and "--yes" in done.stderr and done.stdout == ""


# -- where the state lives ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"JITCTX_STATE_DIR": "/s/jit", "XDG_STATE_HOME": "/x"}, "/s/jit"),
        ({"XDG_STATE_HOME": "/x"}, "/x/jitctx"),
        ({"XDG_STATE_HOME": "relative/ignored"}, "{home}/.local/state/jitctx"),
        ({}, "{home}/.local/state/jitctx"),
    ],
)
def test_default_state_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], expected: str
) -> None:
    for name in ("JITCTX_STATE_DIR", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_state_dir() == Path(expected.format(home=tmp_path))


def test_control_characters_in_names_are_not_sent_to_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    evil = "/p/\x1b]0;pwned\x07CLAUDE\n.md"
    payload = {
        "session_id": "s\x1b[2J",
        "cwd": "/p",
        "file_path": evil,
        "memory_type": "Project",
        "load_reason": "include",
        "globs": [],
    }
    EventStore(tmp_path / "events").append(
        event_from_instructions_loaded(payload, source="claude-code", file_bytes=3, ts=T0)
    )
    for command in (["log"], ["stats", "--by-file"]):
        code, out, _ = run(capsys, *command, "--state-dir", str(tmp_path))
        assert code == 0 and "\x1b" not in out and "\x07" not in out
        assert "\\x1b]0;pwned\\x07CLAUDE\\x0a.md" in out


@pytest.mark.parametrize("command", ["log", "stats"])
def test_a_state_dir_that_is_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    state = tmp_path / "state"
    state.write_text("x")
    assert main([command, "--state-dir", str(state)]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_a_session_that_matches_nothing_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    (state / "events").mkdir(parents=True)
    record = {
        "v": 1,
        "kind": "discovery",
        "ts": "2026-08-08T00:00:00.000Z",
        "session_id": "abc",
        "loaded": [],
    }
    (state / "events" / "2026-08-08.jsonl").write_text(json.dumps(record) + "\n")
    for command in ("log", "stats"):
        assert main([command, "--state-dir", str(state), "--session", "zzz"]) == 0
        assert "no session id starts with 'zzz'" in capsys.readouterr().err
        assert main([command, "--state-dir", str(state), "--session", "ab"]) == 0
        assert "no session id starts" not in capsys.readouterr().err


def test_an_empty_since_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--state-dir", str(tmp_path), "--since", " "]) == 2
    assert "--since is empty" in capsys.readouterr().err


def test_html_needs_a_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--state-dir", str(tmp_path), "--html", "-"]) == 2
    assert "--html takes the name of the file" in capsys.readouterr().err
    assert not (Path.cwd() / "-").exists()


@pytest.mark.parametrize(
    ("number", "noun", "shown"),
    [
        (1, "file", "1 file"),
        (0, "file", "0 files"),
        (1204, "discovery", "1,204 discoveries"),
        (1, "hit", "1 hit"),
    ],
)
def test_counts_read_as_english(number: int, noun: str, shown: str) -> None:
    from jitctx.cli.common import count

    assert count(number, noun) == shown


def test_a_whole_session_id_wins_over_longer_ids_it_begins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    (state / "events").mkdir(parents=True)
    lines = []
    for sid, count in (("r", 2), ("replay:t-1", 3)):
        for n in range(count):
            record = {"v": 1, "kind": "discovery", "ts": f"2026-08-08T00:00:0{n}.000Z", "session_id": sid}
            lines.append(json.dumps(record | {"loaded": []}))
    (state / "events" / "2026-08-08.jsonl").write_text("\n".join(lines) + "\n")

    def figures(session: str) -> tuple[int, int, int]:
        assert main(["stats", "--json", "--state-dir", str(state), "--session", session]) == 0
        stats = json.loads(capsys.readouterr().out)
        assert main(["log", "--raw", "--json", "--state-dir", str(state), "--session", session]) == 0
        raw = json.loads(capsys.readouterr().out)
        return stats["sessions"], stats["discoveries"], len(raw["records"])

    assert figures("r") == (1, 2, 2)  # the session called "r", not every id starting with r
    assert figures("re") == (1, 3, 3)
    assert figures("replay:t-1") == (1, 3, 3)
