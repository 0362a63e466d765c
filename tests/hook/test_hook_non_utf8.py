"""A file name that is not UTF-8 (a Latin-1 byte, which Linux allows) never costs the agent its answer.

Python hands such a name over as a str with a lone surrogate (os.fsdecode); written out as UTF-8 it would
raise. The hook's answer, the MCP reply and every --json document escape it instead, and the answer stays
valid UTF-8 JSON.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.cmd_hook import serve
from tests.conftest import git

LATIN1 = "caf\udce9.tsx"  # b"caf\xe9.tsx" as os.fsdecode gives it

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux allows any byte in a file name")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose only change is an untracked `src/ui/caf\\xe9.tsx` under a scoped rule."""
    root = tmp_path / "repo"
    # A Cursor rule: Claude Code never loads it, so jitctx sends it at start (a .claude/rules rule it
    # would leave to Claude Code's own load on the first read there).
    (root / ".cursor" / "rules").mkdir(parents=True)
    (root / "src" / "ui").mkdir(parents=True)
    (root / ".cursor" / "rules" / "ui.mdc").write_text("---\nglobs: src/ui/**\n---\nUI rule\n", "utf-8")
    (root / "CLAUDE.md").write_text("# root rules\n", "utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "x")
    (root / "src" / "ui" / os.fsencode(LATIN1).decode("utf-8", "surrogateescape")).write_bytes(b"x")
    return root


def start(root: Path) -> bytes:
    event = {"hook_event_name": "SessionStart", "session_id": "latin1", "cwd": str(root), "source": "startup"}
    return json.dumps(event).encode()


def test_session_start_answers_with_the_name_escaped(repo: Path, hook_env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code"],
        input=start(repo),
        capture_output=True,
        env={**os.environ, **hook_env},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    text = done.stdout.decode("utf-8")  # valid UTF-8, or this raises
    context = json.loads(text)["hookSpecificOutput"]["additionalContext"]
    assert "UI rule" in context
    # Shown readably: a backslash escape of the surrogate, not the raw byte and not a lone surrogate.
    assert "caf\\udce9.tsx" in context
    context.encode("utf-8")


def test_the_in_process_stream_gets_the_same_answer(repo: Path, hook_env: dict[str, str]) -> None:
    out = io.StringIO()
    assert serve("claude-code", stdin=io.BytesIO(start(repo)), stdout=out, use_git=True) == 0
    answer: dict[str, Any] = json.loads(out.getvalue())
    assert "caf\\udce9.tsx" in answer["hookSpecificOutput"]["additionalContext"]
