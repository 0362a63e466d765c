"""Codex's sub-agents (0.171.0, `[features] multi_agent_v2 = true`) as jitctx reads and answers them:
SubagentStart starts a channel of its own in the parent's session, whose start leaves to Codex what the
sub-agent loads itself; the sub-agent's tool events (`agent_id`) land in that channel.

The payloads in ../payloads/codex/ are those Codex 0.171.0 sent in a live run against the scripted model
(the parent's session id, the sub-agent's thread id as `agent_id`, its own rollout as `transcript_path`),
moved into the test's project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients import all_clients
from jitctx.clients.codex import hooks
from jitctx.clients.codex.trust import codex_hash
from jitctx.clients.kit.checks import Handler
from jitctx.hook.event import BEFORE_TOOL, SUBAGENT, TOOLS, HookError
from jitctx.hook.pipeline import respond
from tests.clients.codex.rollout_records import PAYLOADS, write_project

CODEX = all_clients.get("codex")
PARENT = "01a23d4c-4f81-74a3-b393-e6b319cb3e5c"
AGENT = "01a23d4c-5050-78f1-a2b9-6f48c4e38622"
FILES = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".jitctx.toml": '[pin]\npaths = ["docs/pinned.md"]\n',
    "AGENTS.md": "root agents rules\n",
    "CLAUDE.md": "root claude rules\n",
    "docs/pinned.md": "pinned rules\n",
    "src/api/AGENTS.md": "api agents rules\n",
    "src/api/users.ts": "u\n",
    "tools/CLAUDE.md": "tools claude rules\n",
    "tools/gen.py": "x = 1\n",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_project(tmp_path / "proj", FILES)


def captured(name: str, root: Path, **fields: Any) -> dict[str, Any]:
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    home = root.parent / "home"
    text = text.replace("$ROOT", str(root)).replace("$HOME", str(home)).replace("$SESSION", PARENT)
    payload: dict[str, Any] = {**json.loads(text), **fields}
    return {key: value for key, value in payload.items() if value is not None}


def answer(tmp_path: Path, payload: dict[str, Any]) -> str:
    found = respond(CODEX, json.dumps(payload), state_dir=str(tmp_path / "state"), use_git=False)
    return str(found["hookSpecificOutput"]["additionalContext"]) if found else ""


def reads(command: str) -> dict[str, Any]:
    return {"tool_input": {"command": command}}


def lines(text: str, answer: str) -> int:
    return answer.splitlines().count(text)


def test_subagent_start_is_a_sub_agents_start_in_its_parents_session(root: Path) -> None:
    event = CODEX.parse(captured("subagent_start", root))
    assert (event.kind, event.session_id, event.channel) == (SUBAGENT, PARENT, AGENT)
    tool = CODEX.parse(captured("subagent_post_tool_use_bash", root))
    assert (tool.kind, tool.session_id, tool.channel) == (TOOLS, PARENT, AGENT)
    before = CODEX.parse(captured("subagent_pre_tool_use_bash", root))
    assert (before.kind, before.session_id, before.channel) == (BEFORE_TOOL, PARENT, AGENT)
    main = CODEX.parse(captured("post_tool_use_spawn_agent", root))
    assert (main.channel, main.calls[0]["tool_name"]) == ("main", "collaborationspawn_agent")
    with pytest.raises(HookError, match="no 'agent_id'"):
        CODEX.parse(captured("subagent_start", root, agent_id=None))


def test_a_sub_agent_gets_its_own_start_and_its_own_rules(tmp_path: Path, root: Path) -> None:
    """The sub-agent loads AGENTS.md itself, as a session's start does: its start gets the rest (CLAUDE.md,
    the pinned file), once; its read of src/api brings src/api's AGENTS.md to it, and not to the main
    thread, whose own read of tools/ brings tools/CLAUDE.md to it alone."""
    start = answer(tmp_path, _session_start(root))
    assert lines("root claude rules", start) == 1 and lines("pinned rules", start) == 1
    spawned = answer(tmp_path, captured("post_tool_use_spawn_agent", root))
    assert spawned == ""  # the spawn call touches nothing
    sub = answer(tmp_path, captured("subagent_start", root))
    assert lines("root claude rules", sub) == 1 and lines("pinned rules", sub) == 1
    assert "root agents rules" not in sub  # Codex gives the sub-agent AGENTS.md itself
    read = answer(tmp_path, captured("subagent_post_tool_use_bash", root, **reads("cat src/api/users.ts")))
    assert lines("api agents rules", read) == 1 and "pinned rules" not in read
    main = answer(
        tmp_path, captured("post_tool_use_spawn_agent", root, tool_name="Bash", **reads("cat tools/gen.py"))
    )
    assert lines("tools claude rules", main) == 1 and "api agents rules" not in main
    again = answer(tmp_path, captured("subagent_post_tool_use_bash", root, **reads("cat src/api/users.ts")))
    assert again == ""
    assert answer(tmp_path, captured("subagent_start", root)) == ""  # the same sub-agent holds them


def _session_start(root: Path) -> dict[str, Any]:
    payload = captured("subagent_start", root, agent_id=None, agent_type=None, turn_id=None)
    return {**payload, "hook_event_name": "SessionStart", "source": "startup"}


def test_two_sub_agents_each_get_their_start(tmp_path: Path, root: Path) -> None:
    answer(tmp_path, _session_start(root))
    first = answer(tmp_path, captured("subagent_start", root))
    other = answer(
        tmp_path, captured("subagent_start", root, agent_id="01a23d4c-6000-7000-8000-000000000000")
    )
    assert first == other and lines("pinned rules", other) == 1


def test_install_registers_subagent_start_for_every_sub_agent() -> None:
    """Every event install writes is one the dialect reads (the registry checks it too), and Codex's trust
    hash of the new entry is computable, so doctor tells whether it is trusted."""
    entry = next(e for e in hooks.ENTRIES if e.event == "SubagentStart")
    assert entry.matcher is None and entry.event in CODEX.events
    fields = {"type": "command", "command": "jitctx hook codex", "timeout": entry.timeout}
    handler = Handler("SubagentStart", 5, 0, None, "jitctx hook codex", fields)
    assert codex_hash(handler) is not None


def test_subagent_start_as_a_real_process(tmp_path: Path, root: Path) -> None:
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "jitctx", "hook", "codex"],
        input=json.dumps(captured("subagent_start", root)),
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "SubagentStart" and "pinned rules" in output["additionalContext"]
