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

NEEDS_SESSION = pytest.mark.xfail(
    reason="discovery/session.py Session.discover lets UnicodeEncodeError/OSError out of _discover_path; "
    "it should note the path as not usable, as it does for a NUL"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "repo", {".git/HEAD": "x\n", "GEMINI.md": "# root\n", "src/api/GEMINI.md": "# api guide\n"}
    )


@NEEDS_SESSION
def test_the_good_paths_still_load(repo: Path) -> None:
    session = Session(Project(repo), cwd=str(repo), use_git=False)
    session.startup()
    bad, good = session.discover_many(["src/\ud800.ts", "src/api/new.ts"])
    assert bad.note and not bad.hit
    assert [load.file.display for load in good.loaded] == ["src/api/GEMINI.md"]


@NEEDS_SESSION
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
