"""`[pin] paths` with the real Claude Code: the pinned file reaches the model at the session's start, again
after a compaction, and in a sub-agent — once each time, from jitctx's hook."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import FILES, MARKERS, ClaudeHarness

PINNED = "docs/pinned.md"
PIN = "JX-PINNED"
TASK = "SUBAGENT-TASK: report what src/api/users.ts exports."


class PinnedClaude(ClaudeHarness):
    files = MappingProxyType(
        {
            **FILES,
            ".jitctx.toml": f'[pin]\npaths = ["{PINNED}"]\n',
            PINNED: f"# Pinned\n\n{PIN}: always.\n",
            "docs/README.md": "# Docs\n",
        }
    )
    markers = (*MARKERS, PIN)


@pytest.fixture
def claude(clients: cl.Clients, tmp_path: Path) -> PinnedClaude:
    return PinnedClaude(clients, tmp_path)


def test_the_pinned_file_is_there_from_the_start_once(claude: PinnedClaude) -> None:
    outcome = claude.run("Look around.", [Script([[Call("Bash", {"command": "cat docs/README.md"})]])])
    outcome.expect(PIN, "hook")  # and a touch of its folder adds no second copy


def test_the_pinned_file_is_there_again_after_compaction_once(claude: PinnedClaude) -> None:
    cat = Call("Bash", {"command": "cat src/api/users.ts"})
    first = claude.run("Show the users.", [Script([[cat]])])
    assert first.session_id, first.diagnose()
    claude.run("/compact", [Script([], name="compact")], "--resume", first.session_id)
    after = claude.run("Again.", [Script([[cat]], name="after")], "--resume", first.session_id)
    assert "toolu_main_s0_0" not in str(after.last("after")), "the conversation was not compacted"
    after.expect(PIN, "hook", script="after")


def test_a_sub_agent_gets_the_pinned_file_once(claude: PinnedClaude) -> None:
    spawn = Call("Agent", {"description": "Inspect", "prompt": TASK, "subagent_type": "general-purpose"})
    sub = Script([[Call("Bash", {"command": "cat src/api/users.ts"})]], name="sub", match=TASK)
    outcome = claude.run("Delegate.", [Script([[spawn]]), sub])
    outcome.expect(PIN, "hook", script="sub")
    outcome.expect(PIN, "hook")
