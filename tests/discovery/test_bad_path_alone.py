"""One bad path in a tool call must not cost the other paths of that call their answer.

A path Python cannot hand to the OS (a lone surrogate such as `\\ud800`, from a JSON escape in the hook's
payload) raised out of `Session.discover`, and the whole call was answered with `{}`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jitctx.discovery.session import Session
from jitctx.project import Project
from tests.conftest import write_tree


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "repo", {".git/HEAD": "x\n", "GEMINI.md": "# root\n", "src/api/GEMINI.md": "# api guide\n"}
    )


def test_the_good_paths_still_load(repo: Path) -> None:
    session = Session(Project(repo), cwd=str(repo), use_git=False)
    session.startup()
    bad, good = session.discover_many(["src/\ud800.ts", "src/api/new.ts"])
    assert bad.note and not bad.hit
    assert [load.file.display for load in good.loaded] == ["src/api/GEMINI.md"]


def test_the_hook_answers_for_the_good_paths(repo: Path, tmp_path: Path) -> None:
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "home")}
    start = {"hook_event_name": "SessionStart", "session_id": "b", "cwd": str(repo), "source": "startup"}
    touch = {
        "hook_event_name": "PostToolUse", "session_id": "b", "cwd": str(repo), "tool_name": "Bash",
        "tool_input": {"command": "touch src/\ud800.ts src/api/new.ts"},
    }  # fmt: skip
    answers = []
    for event in (start, touch):
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
            input=json.dumps(event).encode(), capture_output=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        answers.append(done.stdout.decode())
    assert "# api guide" in answers[1]


@pytest.mark.parametrize("bad", ["src/" + "x" * 300 + ".ts", "src/" + "d/" * 3000 + "f.ts", "src/\ud800/"])
def test_a_name_the_os_refuses_is_a_note(repo: Path, bad: str) -> None:
    session = Session(Project(repo), cwd=str(repo), use_git=False)
    session.startup()
    first, good = session.discover_many([bad, "src/api/new.ts"])
    assert not first.hit
    assert [load.file.display for load in good.loaded] == ["src/api/GEMINI.md"]


def test_an_error_from_the_os_is_noted_not_raised(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session(Project(repo), cwd=str(repo), use_git=False)
    session.startup()
    real_expanduser = os.path.expanduser

    def expanduser(path: str) -> str:  # any OS call on the way may raise; this one comes first
        if "boom" in path:
            raise PermissionError(13, "Permission denied")
        return real_expanduser(path)

    monkeypatch.setattr(os.path, "expanduser", expanduser)
    bad, good = session.discover_many(["src/boom.ts", "src/api/new.ts"])
    assert bad.note is not None and "Permission denied" in bad.note and not bad.hit
    assert [load.file.display for load in good.loaded] == ["src/api/GEMINI.md"]
