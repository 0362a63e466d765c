"""A tree 2,000 directories deep cost a hook call seconds, and lint/provenance crashed on it.

Discovery now searches at most `MAX_DEPTH` levels below the root (each chain directory costs an lstat per
candidate of a path of up to 4,000 characters) and says so; `Project.all_instruction_files` walks without
recursion (os.walk recurses once per level in Python 3.11) and reports where it stopped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from jitctx.discovery.session import Session
from jitctx.project import Project
from jitctx.walk import MAX_DEPTH, TOO_DEEP

DEPTH = 2000


@pytest.fixture(scope="module")
def deep() -> Iterator[tuple[Path, str]]:
    # Not under pytest's temp dir: its cleanup (shutil.rmtree) recurses once per level and would crash
    # the session at the end of a later run if a tree were ever left behind; `rm -rf` removes it here.
    root = Path(tempfile.mkdtemp(prefix="jitctx-deep-")) / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "GEMINI.md").write_text("# root\n")
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(DEPTH):  # relative to a directory descriptor: the full path nears PATH_MAX
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(os.open("f.py", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    try:
        yield root, str(root) + "/d" * DEPTH + "/f.py"
    finally:
        subprocess.run(["rm", "-rf", str(root.parent)], check=False)


def test_a_touch_deep_down_is_answered_quickly(deep: tuple[Path, str], tmp_path: Path) -> None:
    root, path = deep
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "h")}
    event = {"hook_event_name": "PostToolUse", "session_id": "d", "cwd": str(root), "tool_name": "Edit",
             "tool_input": {"file_path": path}}  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git"],
        input=json.dumps(event).encode(), capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert time.monotonic() - started < 1.0


def test_lint_survives_a_deep_tree(deep: tuple[Path, str]) -> None:
    root, _ = deep
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "lint", "--json", "--root", str(root)],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "JITCTX_HOME": "/nonexistent-home"},
    )  # fmt: skip
    assert "internal error" not in done.stderr and done.returncode in (0, 1)


def test_the_project_walk_does_not_recurse(deep: tuple[Path, str]) -> None:
    root, _ = deep
    files, skips = Project(root).all_instruction_files()
    assert [file.display for file in files] == ["GEMINI.md"]
    assert [skip.path for skip in skips] == ["/".join(["d"] * MAX_DEPTH)]
    assert TOO_DEEP in skips[0].why


def test_a_deep_touch_searches_the_top_levels_only(deep: tuple[Path, str]) -> None:
    root, path = deep
    session = Session(Project(root), cwd=str(root), use_git=False)
    session.startup()
    started = time.monotonic()
    found = session.discover(path)
    assert time.monotonic() - started < 1.0
    assert found.note == f"only the top {MAX_DEPTH} of its {DEPTH:,} directory levels were searched"
    assert any(TOO_DEEP in warning for warning in found.warnings)
