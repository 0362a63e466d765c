"""One record writer: the same events give the same records, whichever path answers them.

The same Claude Code events go through the process hook, the warm daemon and the MCP server's
`hook_event` tool, each with a state dir of its own; the same paths go through `jitctx touch --session`
and the MCP `context_for_paths` tool. Each path's records must be the same, but for the time stamp and
the elapsed time (the fast lane, when it answers, writes the record the engine would).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.kit.mcp_transport import JSON_FIELDS
from jitctx.hook.transports.mcp.tools import McpTools
from jitctx.project import Project
from tests.conftest import EXAMPLE, git_init, settle

VARYING = ("ts", "elapsed_ms")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    return settle(git_init(root))


def events(root: Path, session: str) -> list[dict[str, Any]]:
    def tool(name: str, **tool_input: Any) -> dict[str, Any]:
        return {"session_id": session, "transcript_path": str(root / "none.jsonl"), "cwd": str(root),
                "hook_event_name": "PostToolUse", "tool_name": name, "tool_input": tool_input,
                "tool_use_id": f"toolu_{name}"}  # fmt: skip

    return [
        {"session_id": session, "cwd": str(root), "hook_event_name": "SessionStart", "source": "startup"},
        tool("Read", file_path=str(root / "src/ui/Footer.tsx")),
        tool("Bash", command=f"cat {root / 'tools/gen.py'}"),
        tool("Read", file_path=str(root / "src/ui/Footer.tsx")),
        tool("Bash", command=f"cat {root / 'src/api/users.ts'} | head -3"),
    ]


def records(state: Path, session: str) -> list[dict[str, Any]]:
    lines = [
        line for path in sorted((state / "events").glob("*.jsonl")) for line in path.read_text().splitlines()
    ]
    found = [json.loads(line) for line in lines]
    return [{k: v for k, v in r.items() if k not in VARYING} for r in found if r.get("session_id") == session]


def environment(state: Path, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "JITCTX_STATE_DIR": str(state), "JITCTX_HOME": str(tmp_path / "home"),
            "JITCTX_WARM_IDLE": "8"}  # fmt: skip


def through_processes(root: Path, state: Path, env: dict[str, str], *extra: str) -> None:
    for event in events(root, "same"):
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git", *extra],
            input=json.dumps(event).encode(), capture_output=True, env=env, timeout=30, check=True,
        )  # fmt: skip
        assert json.loads(done.stdout) is not None


def wait_for_daemon(state: Path) -> int:
    deadline = time.monotonic() + 15
    while not (list((state / "warm").glob("*.sock")) and list((state / "warm").glob("*.pid"))):
        assert time.monotonic() < deadline, "the warm daemon did not start"
        time.sleep(0.05)
    time.sleep(0.3)  # it writes its pid before it listens
    return int(next((state / "warm").glob("*.pid")).read_text())


def test_process_hook_warm_daemon_and_mcp_write_the_same_records(project: Path, tmp_path: Path) -> None:
    process, warm, mcp = tmp_path / "process", tmp_path / "warm", tmp_path / "mcp"
    through_processes(project, process, environment(process, tmp_path))
    warm_env = environment(warm, tmp_path)
    warm_up = {
        "session_id": "warm-up",
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "hi",
    }
    subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "claude-code", "--no-git", "--warm"],
        input=json.dumps(warm_up).encode(), capture_output=True, env=warm_env, timeout=30, check=True,
    )  # fmt: skip
    pid = wait_for_daemon(warm)
    try:
        through_processes(project, warm, warm_env, "--warm")
    finally:
        os.kill(pid, signal.SIGTERM)
    tools = McpTools(
        Project(project), cwd=str(project), state_dir=mcp, use_git=False, home=str(tmp_path / "home")
    )
    for event in events(project, "same"):
        fields = {key: json.dumps(value) if key in JSON_FIELDS else value for key, value in event.items()}
        tools.hook_event(fields)
    expected = records(process, "same")
    assert [r["kind"] for r in expected] == ["startup", "discovery", "discovery", "discovery", "discovery"]
    assert {r["agent"] for r in expected} == {"claude-code"}
    assert records(warm, "same") == expected
    assert records(mcp, "same") == expected


def test_touch_and_the_mcp_context_tool_write_the_same_records(project: Path, tmp_path: Path) -> None:
    touch_state, mcp_state = tmp_path / "touch", tmp_path / "mcp"
    paths = ["src/ui/README.md", "src/ui/Footer.tsx", "tools/gen.py"]
    env = environment(touch_state, tmp_path)
    command = [
        sys.executable,
        "-m",
        "jitctx",
        "touch",
        "--root",
        str(project),
        "--no-git",
        "--session",
        "same",
    ]
    done = subprocess.run([*command, *paths], capture_output=True, env=env, timeout=60, text=True)
    assert done.returncode == 0, done.stderr
    tools = McpTools(Project(project), cwd=str(project), state_dir=mcp_state, use_git=False)
    for path in paths:
        assert not tools.context_for_paths([path], session_id="same").error
    expected = records(touch_state, "same")
    assert [r["kind"] for r in expected] == ["startup", "discovery", "discovery", "discovery"]
    assert len({r["cumulative_bytes"] for r in expected}) == len(expected)  # each at its own moment
    assert records(mcp_state, "same") == expected
