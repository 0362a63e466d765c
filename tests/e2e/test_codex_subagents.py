"""The real Codex's sub-agents (`[features] multi_agent_v2 = true`: the `collaboration` tools) with jitctx's
hooks, against a scripted model: a sub-agent is a channel of its own, started by SubagentStart.

The scripted main thread calls `collaboration.spawn_agent` (Codex 0.171.0 runs it only when the Responses
item names its namespace) and `wait_agent`; the sub-agent's task reaches it as an `agent_message`, not a
user message, so `SubAgentModel` picks the sub-agent's script by that message's text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from jitctx.clients.codex.evidence import HOOK_WINDOW_NS
from tests.e2e import clients as cl
from tests.e2e import fake_api
from tests.e2e.clients import Clients
from tests.e2e.evidence import deliveries
from tests.e2e.fake_api import Call, FakeModel, Script
from tests.e2e.harness import FILES, MARKERS, CodexHarness, Outcome, jitctx

pytestmark = pytest.mark.e2e

COLLABORATION = frozenset({"spawn_agent", "wait_agent"})  # the namespace's tools the scripts call
PINNED = "docs/pinned.md"
TASK = "JX-SUBTASK: look at the users."  # the sub-agent's task, which routes its requests


class SubAgentModel(FakeModel):
    """The fake, routing a sub-agent's requests by the task its parent sent (`agent_message`)."""

    def _script_for(self, body: Mapping[str, Any]) -> Script | None:
        if not fake_api.is_side_request(body):
            for item in body.get("input") or []:
                if isinstance(item, dict) and item.get("type") == "agent_message":
                    text = json.dumps(item.get("content"))
                    for script in self.scripts:
                        if script.match is not None and script.match in text:
                            return script
        return super()._script_for(body)


@pytest.fixture
def collaboration_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake's Responses items for `spawn_agent` and `wait_agent` name their namespace, as the real
    model's do (without it Codex answers `unsupported call: spawn_agent`)."""
    send = fake_api.send_sse

    def with_namespace(
        handler: Any, events: Sequence[tuple[str, Mapping[str, Any]]], *, done: bool = False
    ) -> None:
        for _, event in events:
            item = event.get("item")
            if (
                isinstance(item, dict)
                and item.get("type") == "function_call"
                and item.get("name") in COLLABORATION
            ):
                item["namespace"] = "collaboration"
        send(handler, events, done=done)

    monkeypatch.setattr(fake_api, "send_sse", with_namespace)


# The e2e fixture with a pinned file (`[pin] paths`), which every agent keeps.
PINNED_FILES = {
    **FILES,
    ".jitctx.toml": f'[pin]\npaths = ["{PINNED}"]\n',
    PINNED: "# Pinned\n\nJX-PINNED: every agent keeps this.\n",
}


class SubAgentHarness(CodexHarness):
    files = PINNED_FILES
    markers = (*MARKERS, "JX-PINNED")
    fake = SubAgentModel
    config = "features.multi_agent_v2 = true"


@pytest.fixture
def harness(clients: Clients, tmp_path: Path, collaboration_calls: None) -> SubAgentHarness:
    return SubAgentHarness(clients, tmp_path)


def spawn(fork: str) -> Call:
    return Call("spawn_agent", {"task_name": "reader", "message": TASK, "fork_turns": fork})


def run_with_a_sub_agent(harness: SubAgentHarness, fork: str) -> Outcome:
    """The main thread spawns a sub-agent that reads src/api/users.ts, waits for it, then reads
    tools/gen.py itself."""
    main = Script(
        [
            [spawn(fork)],
            [Call("wait_agent", {"timeout_ms": 30000})],
            [Call("shell", {"command": "cat tools/gen.py"})],
        ]
    )
    sub = Script(
        [[Call("shell", {"command": "cat src/api/users.ts"})]], name="sub", match=TASK, final="SUB-DONE"
    )
    outcome = harness.run("Ask a helper about the users.", [main, sub])
    assert outcome.model.model_requests("sub"), outcome.diagnose()
    return outcome


def test_a_sub_agent_is_a_channel_of_its_own(harness: SubAgentHarness) -> None:
    """`fork_turns: "none"`: the sub-agent loads the root AGENTS.md itself (not sent again), gets at its
    start what jitctx gives a session's start (the root CLAUDE.md and the pinned file, once each), and
    src/api's rules after its own read, once; the main thread gets none of the sub-agent's rules, and its
    own after its own read."""
    outcome = run_with_a_sub_agent(harness, "none")
    first = outcome.model.model_requests("sub")[0]  # SubagentStart's answer is there before any tool call
    for marker in ("JX-ROOT-CLAUDE", "JX-PINNED"):
        assert [d.route for d in deliveries(first, marker)] == ["hook"], outcome.diagnose(first)
    for marker, route in [("JX-ROOT-AGENTS", "client"), ("JX-ROOT-CLAUDE", "hook"), ("JX-PINNED", "hook"),
                          ("JX-API-AGENTS", "hook"), ("JX-RULE-API", "hook")]:  # fmt: skip
        outcome.expect(marker, route, script="sub")
    outcome.expect("JX-TOOLS-CLAUDE", times=0, script="sub")
    for marker, route in [("JX-ROOT-AGENTS", "client"), ("JX-ROOT-CLAUDE", "hook"), ("JX-PINNED", "hook"),
                          ("JX-TOOLS-CLAUDE", "hook"), ("JX-RULE-PYTHON", "hook")]:  # fmt: skip
        outcome.expect(marker, route)
    outcome.expect("JX-API-AGENTS", times=0)
    outcome.expect("JX-RULE-API", times=0)
    # The drift report reads the main thread's rollout, written by this release: nothing came twice.
    done = jitctx(cl.codex_env(harness.home, harness.state_dir), "stats", "--drift", "--json")
    assert done.returncode == 0, done.stderr
    drift = json.loads(done.stdout)["drift"]
    assert drift["read_by_client"] == [{"client": "codex", "sessions": 1}], drift
    assert [(r["client"], r["twice"], r["never_arrived"]) for r in drift["releases"]] == [("codex", [], [])]


def test_a_forked_sub_agent_gets_nothing_the_parent_already_had(harness: SubAgentHarness) -> None:
    """`fork_turns: "all"` (Codex's default): the sub-agent's conversation starts as a copy of its
    parent's, root AGENTS.md, CLAUDE.md and pinned file included; nothing of it should come again."""
    # Codex records no hook's start: a context in its records counts for files whose ctime is older than
    # the hook's timeout (`codex.evidence.HOOK_WINDOW_NS`), as a fixture that was not just written is.
    time.sleep(HOOK_WINDOW_NS / 1e9 + 0.5)
    outcome = run_with_a_sub_agent(harness, "all")
    outcome.expect("JX-ROOT-AGENTS", "client", script="sub")
    outcome.expect("JX-API-AGENTS", "hook", script="sub")
    body = outcome.last("sub")
    for marker in ("JX-ROOT-CLAUDE", "JX-PINNED"):
        assert [d.route for d in deliveries(body, marker)] == ["hook"], outcome.diagnose(body)
