"""GitHub Copilot CLI's compaction (`preCompact`) and sub-agents (`subagentStart`, and a sub-agent's own
hook events), as jitctx reads and answers them.

The payloads in ../payloads/copilot_cli/ are those Copilot CLI 1.0.102 sent in live runs against the
scripted model (pre_compact, subagent_*), moved into the captured project of the other payloads (the
sub-agent's view names src/ui/Footer.tsx there)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jitctx.cli.main import main
from jitctx.clients.kit.hook_command import is_fail_safe
from jitctx.hook.event import COMPACT, PROMPT, SUBAGENT, TOOLS, HookError
from tests.clients.test_copilot_cli import COPILOT, answer, captured, project

PARENT = "a34764ec-c9b6-4734-ace9-87969d719ff3"  # the main agent's session, in every captured payload
CHILD = "27ce2628-9909-4ed9-8cb8-de811f39b837"  # the sub-agent's id (and its events' sessionId)
ROOT_OWN = ("root agents rules", "root claude rules", "repo copilot rules")  # the client's own at start
UI = ("ui claude rules", "ui agents rules", "component rules")
PINNED = "pinned rules"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = project(tmp_path)
    (root / ".jitctx.toml").write_text('[pin]\npaths = ["docs/pinned.md"]\n', encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs/pinned.md").write_text(f"{PINNED}\n", encoding="utf-8")
    return root


def hook(tmp_path: Path, root: Path, name: str, **fields: Any) -> str:
    """jitctx's answer to the captured payload `name`, with `fields` changed (None: left out)."""
    payload = {**captured(name, root), **fields}
    return answer(tmp_path, {key: value for key, value in payload.items() if value is not None})


def count(text: str, answer: str) -> int:
    """How often a file's text (one line in the fixture) is a line of the answer."""
    return answer.splitlines().count(text)


def nothing_touched(tmp_path: Path, root: Path, **fields: Any) -> str:
    return hook(tmp_path, root, "post_tool_use_bash", toolArgs={"command": "true"}, **fields)


# -- the dialect ---------------------------------------------------------------------------------------


def test_pre_compact_is_a_compaction_of_the_main_thread(root: Path) -> None:
    event = COPILOT.parse(captured("pre_compact", root))
    assert (event.name, event.kind, event.session_id, event.channel) == (
        "preCompact",
        COMPACT,
        PARENT,
        "main",
    )
    manual = COPILOT.parse({**captured("pre_compact", root), "trigger": "manual", "customInstructions": "x"})
    assert manual.kind == COMPACT


def test_subagent_start_opens_a_channel_named_by_the_agent_in_the_parents_session(root: Path) -> None:
    event = COPILOT.parse(captured("subagent_start", root))
    assert (event.name, event.kind, event.session_id, event.channel) == (
        "subagentStart", SUBAGENT, PARENT, CHILD,
    )  # fmt: skip
    assert event.agent_type == "general-purpose"


def test_a_sub_agents_events_go_to_its_parents_session_in_its_channel(root: Path) -> None:
    """A sub-agent's tool and prompt events carry its own id as `sessionId`: jitctx files them under
    `parentAgentId`, in the channel `agentId`, where its start went."""
    assert captured("subagent_post_tool_use_view", root)["sessionId"] == CHILD
    view = COPILOT.parse(captured("subagent_post_tool_use_view", root))
    assert (view.kind, view.session_id, view.channel) == (TOOLS, PARENT, CHILD)
    prompt = COPILOT.parse(captured("subagent_user_prompt_submitted", root))
    assert (prompt.kind, prompt.session_id, prompt.channel) == (PROMPT, PARENT, CHILD)
    main_view = COPILOT.parse(captured("post_tool_use_view", root))
    assert (main_view.session_id, main_view.channel) == (PARENT, "main")


@pytest.mark.parametrize(
    "fields",
    [
        # subagentStop and a sub-agent's agentStop carry its ids too, and how it stopped.
        {"response": "done", "stopReason": "end_turn", "stop_hook_active": False},
        {"stopReason": "end_turn", "stop_hook_active": False, "agentName": None},
    ],
)
def test_a_sub_agents_stop_is_not_taken_for_its_start(root: Path, fields: dict[str, Any]) -> None:
    assert COPILOT.parse(captured("subagent_start", root)).kind == SUBAGENT
    payload = {**captured("subagent_start", root), **fields}
    with pytest.raises(HookError, match="not a Copilot CLI"):
        COPILOT.parse({key: value for key, value in payload.items() if value is not None})


# -- compaction ----------------------------------------------------------------------------------------


def test_after_pre_compact_the_next_call_brings_back_what_the_session_held_once(
    tmp_path: Path, root: Path
) -> None:
    """preCompact's answer reaches no model: it is `{}`, and the next tool call, even one that touches
    nothing, carries what jitctx sent (CLAUDE.local.md, the pinned file, src/api's files) and what the
    client loaded after its view (its reminder goes with the compaction), but not the root's files the
    client builds into its system prompt again. The call after that carries nothing."""
    start = hook(tmp_path, root, "session_start")
    assert "root local rules" in start and PINNED in start
    assert "api agents rules" in hook(tmp_path, root, "post_tool_use_bash")
    assert hook(tmp_path, root, "post_tool_use_view") == ""  # the client loads src/ui's files itself
    assert hook(tmp_path, root, "pre_compact") == ""
    again = nothing_touched(tmp_path, root)
    for text in ("root local rules", PINNED, "api agents rules", "ts rules", *UI):
        assert count(text, again) == 1, (text, again)
    for text in ROOT_OWN:
        assert text not in again
    assert nothing_touched(tmp_path, root) == ""


def test_a_compaction_before_anything_was_sent_leaves_nothing_owed(tmp_path: Path, root: Path) -> None:
    """A preCompact in a session jitctx has not saved marks nothing: the start sends its files once, and
    only a later compaction makes the next call send them again."""
    assert hook(tmp_path, root, "pre_compact") == ""
    assert "root local rules" in hook(tmp_path, root, "session_start")
    assert nothing_touched(tmp_path, root) == ""
    assert hook(tmp_path, root, "pre_compact") == ""
    assert count("root local rules", nothing_touched(tmp_path, root)) == 1


def test_the_hook_process_does_not_answer_the_call_after_a_compaction_in_its_fast_lane(
    tmp_path: Path, root: Path
) -> None:
    """Through `jitctx hook copilot-cli` (the fast lane first): the call that touches nothing after
    preCompact is the engine's, and carries the session's files."""
    env = {**os.environ, "JITCTX_STATE_DIR": str(tmp_path / "state"), "JITCTX_HOME": str(tmp_path / "h")}

    def run(name: str, **fields: Any) -> dict[str, Any]:
        payload = {**captured(name, root), **fields}
        done = subprocess.run(
            [sys.executable, "-m", "jitctx", "hook", "copilot-cli"], input=json.dumps(payload).encode(),
            capture_output=True, env=env, timeout=60, check=True,
        )  # fmt: skip
        document: dict[str, Any] = json.loads(done.stdout)
        return document

    run("session_start")
    assert run("post_tool_use_bash", toolArgs={"command": "true"}) == {}
    assert run("pre_compact") == {}
    again = run("post_tool_use_bash", toolArgs={"command": "true"})
    assert "root local rules" in again.get("additionalContext", ""), again


# -- sub-agents ----------------------------------------------------------------------------------------


def test_a_general_purpose_sub_agent_gets_what_the_client_does_not_give_it(
    tmp_path: Path, root: Path
) -> None:
    """1.0.102 gives a general-purpose sub-agent the root's files in its system prompt: its start brings
    CLAUDE.local.md and the pinned file only, once; the same sub-agent's start again brings nothing."""
    hook(tmp_path, root, "session_start")
    sub = hook(tmp_path, root, "subagent_start")
    assert count("root local rules", sub) == 1 and count(PINNED, sub) == 1
    for text in ROOT_OWN:
        assert text not in sub
    assert hook(tmp_path, root, "subagent_start") == ""


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param({"agentType": "explore", "agentName": "explore"}, id="explore"),
        pytest.param({"agentType": "task", "agentName": "task"}, id="task"),
        pytest.param({"agentType": "my-reviewer", "agentName": "my-reviewer"}, id="custom"),
        pytest.param({"agentType": None, "agentName": None}, id="no-type"),
        pytest.param({"agentType": None, "agentName": "explore"}, id="name-only"),
    ],
)
def test_a_sub_agent_the_client_gives_no_files_gets_the_root_files_too(
    tmp_path: Path, root: Path, kind: dict[str, Any]
) -> None:
    """explore and task sub-agents start without the repository's files (1.0.102), custom agents unless
    they ask for them; a start that names no type is sent them too (a possible duplicate beats a lost
    rule)."""
    hook(tmp_path, root, "session_start")
    sub = hook(tmp_path, root, "subagent_start", **kind)
    for text in (*ROOT_OWN, "root local rules", PINNED):
        assert count(text, sub) == 1, (text, sub)


def test_a_sub_agents_view_is_its_own_and_leaves_the_main_thread_as_it_was(
    tmp_path: Path, root: Path
) -> None:
    """The sub-agent's view of Footer.tsx: the client loads src/ui's files into the sub-agent's context,
    so jitctx sends nothing. The main thread has not had them: its shell read of the same file brings
    them from jitctx."""
    hook(tmp_path, root, "session_start")
    hook(tmp_path, root, "subagent_start", agentType="explore")
    assert hook(tmp_path, root, "subagent_post_tool_use_view") == ""
    assert hook(tmp_path, root, "subagent_user_prompt_submitted") == ""
    main_read = hook(tmp_path, root, "post_tool_use_bash", toolArgs={"command": "cat src/ui/Footer.tsx"})
    for text in ("ui claude rules", "ui agents rules", "component rules"):
        assert count(text, main_read) == 1, (text, main_read)


def test_a_sub_agent_first_seen_at_its_tool_call_starts_there(tmp_path: Path, root: Path) -> None:
    """Without its subagentStart (an install from before it was written), a sub-agent's first tool call
    brings what its start would have: CLAUDE.local.md and the pinned file, recorded in the parent's
    session as the sub-agent's."""
    hook(tmp_path, root, "session_start")
    first = hook(tmp_path, root, "subagent_post_tool_use_view")
    assert count("root local rules", first) == 1 and count(PINNED, first) == 1
    assert hook(tmp_path, root, "subagent_post_tool_use_view") == ""
    records = [
        json.loads(line)
        for path in (tmp_path / "state" / "events").glob("*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    assert {r["session_id"] for r in records} == {PARENT}
    assert {(r["channel"], r.get("agent_id")) for r in records} == {("main", None), ("subagent", CHILD)}


def test_a_compaction_of_a_sub_agent_leaves_the_main_thread_alone(tmp_path: Path, root: Path) -> None:
    """A preCompact that names a sub-agent is that sub-agent's: the main thread owes nothing after it,
    and its own compaction still makes the next call send again."""
    hook(tmp_path, root, "session_start")
    assert hook(tmp_path, root, "pre_compact", agentId=CHILD, parentAgentId=PARENT) == ""
    assert nothing_touched(tmp_path, root) == ""
    assert hook(tmp_path, root, "pre_compact") == ""
    assert count("root local rules", nothing_touched(tmp_path, root)) == 1


# -- install -------------------------------------------------------------------------------------------


def test_install_writes_the_compaction_and_sub_agent_entries_in_the_fail_safe_form(
    tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JITCTX_STATE_DIR", str(tmp_path / "state"))
    assert main(["install", "copilot-cli", "--root", str(root), "--warm"]) == 0
    settings = json.loads((root / ".github/copilot/settings.json").read_text(encoding="utf-8"))
    for event in ("preCompact", "subagentStart"):
        [group] = settings["hooks"][event]
        assert "matcher" not in group
        [handler] = group["hooks"]
        assert is_fail_safe(handler["command"]) and "hook copilot-cli --warm" in handler["command"]
    capsys.readouterr()
    main(["doctor", "--root", str(root), "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    [hooks] = [c for c in checks if (c["client"], c["check"]) == ("copilot-cli", "hooks (project)")]
    assert hooks["status"] == "ok", hooks
    # An install from before these entries: doctor names them.
    del settings["hooks"]["preCompact"], settings["hooks"]["subagentStart"]
    (root / ".github/copilot/settings.json").write_text(json.dumps(settings), encoding="utf-8")
    main(["doctor", "--root", str(root), "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    [hooks] = [c for c in checks if (c["client"], c["check"]) == ("copilot-cli", "hooks (project)")]
    assert hooks["status"] == "problem" and "preCompact, subagentStart" in hooks["detail"], hooks
    assert main(["uninstall", "copilot-cli", "--root", str(root)]) == 0
    assert not (root / ".github/copilot").exists()
