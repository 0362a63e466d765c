"""The state dir is input: whatever is found there, a hook call finishes, answers, and starts afresh.

A FIFO or a link to /dev/zero where a state file should be used to hang every call; a state file of
another user was read; JSON nested too deeply bricked the session; a regex planted in the quick index was
compiled and spun at 100% CPU. The process cases run the real hook with a timeout.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx import safe_open
from jitctx.discovery import quick
from jitctx.discovery.quick import quick_file_name, state_file_name
from jitctx.discovery.quick_regex import safe_regex
from jitctx.discovery.store import SessionStore
from jitctx.project import Project
from jitctx.scope import compile_scope
from jitctx.telemetry.store import EventStore, read_records
from tests.conftest import settle, write_tree

KEY = "claude-code.s1"  # the store's name for Claude Code's session "s1"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_tree(
        tmp_path / "repo",
        {
            ".git/HEAD": "x\n",
            "GEMINI.md": "# root guide\n",
            "src/api/GEMINI.md": "# api guide\n",
            "src/api/users.ts": "",
            ".claude/rules/py.md": "---\npaths: ['**/*.py']\n---\nPY\n",
        },
    )
    return settle(root)


@pytest.fixture
def hook_env(tmp_path: Path) -> dict[str, str]:
    return {"JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "home")}


def event(root: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {"session_id": "s1", "cwd": str(root), "hook_event_name": name, **fields}


def edit(root: Path, rel: str) -> dict[str, Any]:
    tool_input = {"file_path": str(root / rel), "old_string": "a", "new_string": "b"}
    return event(root, "PostToolUse", tool_name="Edit", tool_input=tool_input)


def hook(hook_env: dict[str, str], payload: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """The hook as a process, with a timeout: (answer, seconds taken)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={**os.environ, **hook_env},
        timeout=15,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer, time.monotonic() - started


def context(answer: dict[str, Any]) -> str:
    return str(answer.get("hookSpecificOutput", {}).get("additionalContext", ""))


def warm(repo: Path, hook_env: dict[str, str]) -> Path:
    """A session that started and touched src/api once; returns the sessions dir."""
    assert "# root guide" in context(hook(hook_env, event(repo, "SessionStart", source="startup"))[0])
    assert "# api guide" in context(hook(hook_env, edit(repo, "src/api/users.ts"))[0])
    return Path(hook_env["JITCTX_STATE_DIR"]) / "sessions"


def today_log(hook_env: dict[str, str]) -> Path:
    return (
        Path(hook_env["JITCTX_STATE_DIR"]) / "events" / (time.strftime("%Y-%m-%d", time.gmtime()) + ".jsonl")
    )


# -- planted files: a FIFO, a link to /dev/zero ------------------------------------------------------------


PLACES = {
    "state": lambda sessions, env: sessions / f"{KEY}.json",
    "quick index": lambda sessions, env: sessions / f"{KEY}.quick.json",
    "lock": lambda sessions, env: sessions / f"{KEY}.lock",
    "event log": lambda sessions, env: today_log(env),
}


@pytest.mark.parametrize("plant", ["fifo", "zero"])
@pytest.mark.parametrize("place", list(PLACES))
def test_a_planted_file_never_blocks_a_call(
    repo: Path, hook_env: dict[str, str], place: str, plant: str
) -> None:
    sessions = warm(repo, hook_env)
    if place != "quick index":
        (sessions / f"{KEY}.quick.json").unlink()  # so that the engine, not the fast lane, answers
    target = PLACES[place](sessions, hook_env)
    target.unlink()
    if plant == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    answer, took = hook(hook_env, edit(repo, "src/api/users.ts"))
    assert took < 10
    if place == "state":  # set aside: a new session, which sends what applies again
        assert "# root guide" in context(answer) and "# api guide" in context(answer)
    else:  # the lock was replaced, the log file skipped: the session held what applies already
        assert answer == {}
    # The next call works normally again: the planted file was replaced or is skipped.
    again, took = hook(hook_env, edit(repo, "src/api/users.ts"))
    assert took < 10 and again == {}


def test_the_log_reader_skips_a_fifo(tmp_path: Path) -> None:
    events = tmp_path / "events"
    events.mkdir()
    os.mkfifo(events / "2026-01-01.jsonl")
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "stats", "--json", "--state-dir", str(tmp_path)],
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert list(read_records(events)) == []


# -- ownership, size, depth --------------------------------------------------------------------------------


@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_a_state_file_of_another_user_is_not_read(repo: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(repo), "s", use_git=False) as opened:
        opened.session.startup()
    os.chown(store.path_for("s"), 4242, 4242)
    with store.open(Project(repo), "s", use_git=False) as opened:
        assert opened.new
        assert any("belongs to another user (uid 4242)" in w for w in opened.warnings)
        opened.session.startup()
    assert store.path_for("s").stat().st_uid == 0  # the next save replaced it with one of ours


def test_another_users_state_is_refused_by_uid(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(repo), "s", use_git=False) as opened:
        opened.session.startup()
    monkeypatch.setattr(os, "getuid", lambda: 4242)  # now every existing file is someone else's
    with store.open(Project(repo), "s", use_git=False) as opened:
        assert opened.new
        assert any("belongs to another user" in w for w in opened.warnings)


def test_a_huge_state_file_starts_a_new_session(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(repo), "s", use_git=False) as opened:
        opened.session.startup()
    monkeypatch.setattr(safe_open, "MAX_STATE_BYTES", 100)
    with store.open(Project(repo), "s", use_git=False) as opened:
        assert opened.new and any("larger than 100 bytes" in w for w in opened.warnings)


def test_deeply_nested_state_starts_a_new_session(repo: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    store.directory.mkdir(parents=True)
    store.path_for("s").write_text('{"version": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for _ in range(2):  # and stays usable: the save replaced the bad file
        with store.open(Project(repo), "s", use_git=False) as opened:
            opened.session.startup()
    assert json.loads(store.path_for("s").read_text())["root"] == str(repo)


def test_the_state_dir_is_private(repo: Path, tmp_path: Path) -> None:
    state = tmp_path / "new" / "state"
    with SessionStore(state / "sessions").open(Project(repo), "s", use_git=False) as opened:
        opened.session.startup()
    EventStore(tmp_path / "other" / "events").append({"v": 1, "kind": "x", "ts": "2026-01-01T00:00:00Z"})
    for folder in (state, state / "sessions", tmp_path / "other", tmp_path / "other" / "events"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


# -- the quick index's regexes -----------------------------------------------------------------------------


def test_a_planted_catastrophic_regex_is_never_run(repo: Path, hook_env: dict[str, str]) -> None:
    sessions = warm(repo, hook_env)
    long_name = "src/api/" + "a" * 60 + ".ts"
    (repo / long_name).write_text("")
    settle(repo)
    hook(hook_env, edit(repo, long_name))  # the engine scans it; the fast lane could answer next
    index_path = sessions / f"{KEY}.quick.json"
    index = json.loads(index_path.read_text())
    assert index["rules"], "the py rule is in the index"
    for rule in index["rules"]:
        rule[2] = [""]  # no prefix to filter on
        rule[3] = "(?:.+)+!"  # exponential backtracking on a 70-character path
    index_path.write_text(json.dumps(index))
    answer, took = hook(hook_env, edit(repo, long_name))
    assert took < 10 and answer == {}


GLOBS = [
    "src/ui/**", "**/*.py", "docs/{a,b}/*.md", "src/[a-z]?.ts", "*.py", "!x", "a/**/b/**/c", "[!a]x",
    "weird(x)+.md", "src/ui/", "**", "*", "?", "a/[^x]b", "{a,b}/**/*.{ts,tsx}", "/abs/x", "x/**/",
    "é/文档/*.md", "a b/c", "**/.github/**",
]  # fmt: skip


@pytest.mark.parametrize("dialect", ["bun", "gitignore", "copilot"])
def test_every_scope_we_compile_is_accepted(dialect: str) -> None:
    for glob in GLOBS:
        assert safe_regex(compile_scope((glob,), dialect)), (dialect, glob)
    assert safe_regex(compile_scope(tuple(GLOBS), dialect))


@pytest.mark.parametrize(
    "regex",
    [
        "(a+)+$", "(a|a)*b", "(.*a){20}", "(?:x+x+)+y", r"(a)\1", "(?P<n>a)(?P=n)", "(?i)a", "a{100000}",
        "(?:.*)*", "((a?)+)", "a**", "a*+", "(?>a+)", "[a", "(a", "a)", r"\d+", "(?:ab)+", "^*", "(?=a)*",
        "x" * 70_000, 5, None,
    ],
)  # fmt: skip
def test_regexes_outside_our_grammar_are_refused(regex: object) -> None:
    assert not safe_regex(regex)


# -- file names --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("session_id", ["x", "claude-code.x", "a.b"])
def test_no_session_id_names_the_quick_index_of_another(session_id: str) -> None:
    names = {state_file_name(other) for other in (f"{session_id}.quick", f"id-{'0' * 32}", ".tmp-x", ".x")}
    assert quick_file_name(session_id) not in names
    assert state_file_name(f"{session_id}.quick") != f"{session_id}.quick.json"
    assert not any(name.startswith(".") for name in names)


def test_sessions_x_and_x_quick_keep_apart(repo: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state" / "sessions")
    with store.open(Project(repo), "x", use_git=False) as opened:
        opened.session.startup()
    quick_index = (store.directory / quick_file_name("x")).read_text()
    with store.open(Project(repo), "x.quick", use_git=False) as opened:
        opened.session.startup()
    assert (store.directory / quick_file_name("x")).read_text() == quick_index
    assert json.loads(quick_index)["v"] == quick.QUICK_VERSION
