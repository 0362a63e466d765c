"""The real GitHub Copilot CLI running a sub-agent (its `task` tool), with jitctx's hooks (`subagentStart`).

Copilot CLI 1.0.102 runs a sub-agent in its own context: its requests go to the same model, with the
`task` call's prompt as their first user message (which routes them to the fake's `sub` script), and the
subagentStart hook's answer before that prompt. What the client gives a sub-agent by itself depends on
its type: a general-purpose one has the root's instruction files in its system prompt, as the main agent
does; an explore or task one has none. Every type loads the files above a file after its own `view`.
The sub-agent's hook events carry its own id, and jitctx keeps them in a channel of their own in the
parent's session: what the sub-agent loads is not taken for the main thread's, nor the other way round.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import PINNED, CopilotHarness, CopilotOutcome
from tests.e2e.fake_api import Call, Script

pytestmark = pytest.mark.e2e

MARK = "SUBTASK-MARK"
ROOT_FILES = ("JX-COPILOT-REPO", "JX-ROOT-AGENTS", "JX-ROOT-CLAUDE", "JX-ROOT-GEMINI")
UI_FILES = ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-UI-GEMINI")


def run_sub_agent(copilot: CopilotHarness, agent_type: str, *after: Call) -> CopilotOutcome:
    """The main thread starts a sub-agent of `agent_type` that views src/ui/Footer.tsx, then makes the
    calls `after`."""
    task = Call(
        "task",
        {
            "name": "helper",
            "description": "look at the footer",
            "prompt": f"{MARK}: view src/ui/Footer.tsx and report",
            "agent_type": agent_type,
        },
    )
    main = Script([[task], *([call] for call in after)])
    sub = Script([[Call("view", {"path": str(copilot.root / "src/ui/Footer.tsx")})]], name="sub", match=MARK)
    outcome = copilot.run("Start a helper.", [main, sub])
    assert outcome.model.model_requests("sub"), outcome.diagnose()
    return outcome


@pytest.fixture
def copilot(clients: cl.Clients, tmp_path: Path) -> CopilotHarness:
    return CopilotHarness(clients, tmp_path, files=PINNED)


def records(copilot: CopilotHarness) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in sorted((copilot.state_dir / "events").glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


@pytest.mark.parametrize("agent_type", ["explore", "task"])
def test_a_sub_agent_the_client_gives_no_files_gets_the_start_files_from_jitctx_once(
    copilot: CopilotHarness, agent_type: str
) -> None:
    """An explore or task sub-agent starts without the root's files: jitctx's subagentStart answer brings
    them, with CLAUDE.local.md and the pinned file, each once, before its first request. Its view of
    Footer.tsx makes the client load src/ui's files and the src/ui/**/*.tsx rule into its context, which
    jitctx leaves to it. The main thread then reads Footer.tsx with a shell command (which the client
    does not follow): src/ui's files reach it from jitctx, once, as the sub-agent's loads are its own."""
    outcome = run_sub_agent(copilot, agent_type, Call("bash", {"command": "cat src/ui/Footer.tsx"}))
    first = outcome.model.model_requests("sub")[0]
    for marker in (*ROOT_FILES, "JX-IMPORTED-RELEASE", "JX-ROOT-LOCAL", "JX-PINNED"):
        outcome.expect_in(first, marker, "hook", which="the sub-agent's first request")
        outcome.expect(marker, "hook", script="sub")
    for marker in (*UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "client", script="sub")
    outcome.expect("JX-OUTSIDE", times=0, script="sub")
    # The main thread: its own start, and src/ui's files from jitctx after its shell read.
    for marker in ROOT_FILES:
        outcome.expect(marker, "client")
    for marker in ("JX-ROOT-LOCAL", "JX-PINNED", *UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "hook")


def test_a_general_purpose_sub_agent_has_the_root_files_from_the_client_alone(
    copilot: CopilotHarness,
) -> None:
    """A general-purpose sub-agent has the root's files in its own system prompt: jitctx's subagentStart
    answer brings only what the client does not read (CLAUDE.local.md) and the pinned file, once each.
    jitctx records the sub-agent in the main thread's session, in a channel named by its id."""
    outcome = run_sub_agent(copilot, "general-purpose")
    first = outcome.model.model_requests("sub")[0]
    for marker in ("JX-ROOT-LOCAL", "JX-PINNED"):
        outcome.expect_in(first, marker, "hook", which="the sub-agent's first request")
        outcome.expect(marker, "hook", script="sub")
    for marker in (*ROOT_FILES, "JX-IMPORTED-RELEASE", *UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "client", script="sub")
    for marker in (*UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, times=0)
    sessions = {record["session_id"] for record in records(copilot)}
    assert sessions == {outcome.session_id}, sessions
    starts = [r for r in records(copilot) if r.get("channel") == "subagent"]
    assert starts and all(r.get("agent_id") not in (None, outcome.session_id) for r in starts), starts
