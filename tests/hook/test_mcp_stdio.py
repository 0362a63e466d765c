"""`jitctx mcp` end to end: the MCP SDK's own client spawns the server over stdio and calls every tool.

One server process for the whole conversation: starting one costs seconds (the SDK's import), and one
conversation exercises what matters: listing, each tool, errors that leave the server alive.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.discovery.explain import explain
from jitctx.project import Project
from jitctx.reports.explain import to_json
from jitctx.telemetry.scan import stats_from_log

pytest.importorskip("mcp")


def dump(result: Any) -> dict[str, Any]:
    """A tool result with camelCase keys (SDK 1.x and 2.x name the attributes differently)."""
    data: dict[str, Any] = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return data


async def conversation(root: Path, state: Path, home: Path, errlog: Any) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "jitctx", "mcp", "--root", str(root), "--state-dir", str(state)],
        # The SDK passes the child only a few variables; PYTHONPATH matters when jitctx is not installed.
        env={"JITCTX_HOME": str(home), **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}},
        cwd=str(root.parent),
    )
    seen: dict[str, Any] = {}
    async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        seen["tools"] = {tool.name: tool.model_dump(by_alias=True) for tool in listed.tools}

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            return dump(await session.call_tool(name, arguments))

        seen["first"] = await call("context_for_paths", {"paths": ["src/ui/README.md"], "session_id": "e2e"})
        seen["again"] = await call("context_for_paths", {"paths": ["src/ui/README.md"], "session_id": "e2e"})
        seen["outside"] = await call(
            "context_for_paths", {"paths": ["../elsewhere.md", "/etc/passwd", "src/\0"], "session_id": "e2e"}
        )
        seen["bad_cwd"] = await call("context_for_paths", {"paths": ["x"], "cwd": "/"})
        seen["bad_type"] = await call("context_for_paths", {"paths": "src/ui"})
        seen["alive"] = await call("context_for_paths", {"paths": ["tools/gen.py"], "session_id": "e2e"})
        seen["explain"] = await call("explain", {"path": "src/ui/Footer.tsx"})
        # Claude Code's mcp_tool hooks: every field an argument, objects as JSON text, absent ones "".
        batch = [
            {"tool_name": "Bash", "tool_input": {"command": "nl -ba src/api/users.ts"}, "tool_use_id": "t1"}
        ]
        event = {
            "hook_event_name": "PostToolBatch",
            "session_id": "hooked",
            "transcript_path": "",
            "cwd": str(root),
            "prompt": "",
            "tool_calls": json.dumps(batch),
        }
        seen["hook"] = await call("hook_event", event)
        seen["hook_again"] = await call("hook_event", event)
        seen["hook_bad"] = await call("hook_event", {**event, "tool_calls": "{not json"})
        seen["stats"] = await call("stats", {})
    return seen


def test_every_tool_over_stdio(example_copy: Path, tmp_path: Path) -> None:
    import anyio

    state, home = tmp_path / "state", tmp_path / "home"
    home.mkdir()
    with open(tmp_path / "server.log", "w+") as errlog:
        seen = anyio.run(conversation, example_copy, state, home, errlog)

    tools = seen["tools"]
    assert set(tools) == {"context_for_paths", "explain", "stats", "hook_event"}
    assert tools["context_for_paths"]["inputSchema"]["required"] == ["paths"]
    assert all(tool["description"] for tool in tools.values())

    first = seen["first"]
    assert not first.get("isError")
    loaded = [
        (f["path"], f["reason"]) for f in first["structuredContent"]["files"] if f["reason"] != "include"
    ]
    assert loaded == [
        ("CLAUDE.md", "session_start"),
        ("AGENTS.md", "session_start"),
        ("src/ui/CLAUDE.md", "path_glob_match"),
    ]
    text = first["content"][0]["text"]
    assert "Instructions from: src/ui/CLAUDE.md" in text and "Every component takes a `width` prop" in text

    again = seen["again"]
    assert again["structuredContent"]["files"] == [] and not again.get("isError")

    outside = seen["outside"]
    assert not outside.get("isError")
    notes = [t.get("note", "") for t in outside["structuredContent"]["touched"]]
    assert "outside the project" in notes[0] and "outside the project" in notes[1]
    assert "NUL byte" in notes[2]

    assert seen["bad_cwd"]["isError"] is True
    assert "outside the project" in seen["bad_cwd"]["content"][0]["text"]
    assert seen["bad_type"]["isError"] is True  # rejected by the SDK's argument validation

    alive = seen["alive"]  # the errors above left the server and the session working
    assert [f["path"] for f in alive["structuredContent"]["files"]] == [".claude/rules/python.md"]

    project = Project(example_copy, home=str(home))
    expected = to_json(explain(project, "src/ui/Footer.tsx", cwd=str(example_copy)), project)
    assert seen["explain"]["structuredContent"] == expected

    stats = seen["stats"]["structuredContent"]
    # first, again, outside (2: the NUL path is no discovery), alive, and the hook session's hit and
    # miss (its broken event is none); explain records nothing
    assert (stats["discoveries"], stats["hits"], stats["sessions"]) == (7, 3, 2)
    expected_stats = {
        "events_dir": str(state / "events"),
        **stats_from_log(state / "events").to_json(),
        "skills_unused": [],  # as `jitctx stats --json`: no skill was used in the window
    }
    assert stats == json.loads(json.dumps(expected_stats))  # tuples arrive as lists
    assert "discoveries 7" in seen["stats"]["content"][0]["text"]

    # The hook answer is the tool's text, as a command hook prints it: hook JSON Claude Code parses.
    hooked = json.loads(seen["hook"]["content"][0]["text"])
    assert hooked["hookSpecificOutput"]["hookEventName"] == "PostToolBatch"
    assert "Contents of src/api/AGENTS.md" in hooked["hookSpecificOutput"]["additionalContext"]
    assert json.loads(seen["hook_again"]["content"][0]["text"]) == {}  # each file once per session
    assert json.loads(seen["hook_bad"]["content"][0]["text"]) == {}  # a broken event: {} and a log line
    assert "tool_calls is not JSON" in (state / "hook.log").read_text(encoding="utf-8")
