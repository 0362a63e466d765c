"""The real Codex 0.171.0 compacting its context by itself (`model_auto_compact_token_limit`, crossed by
the prompt size the scripted model reports at one step): after `PreCompact`, `PostCompact` and
`SessionStart` (source `compact`), the next request holds what jitctx had sent — the root CLAUDE.md, the
pinned file, the nested files and rules of the session's reads — once each, from jitctx's answer to that
SessionStart; the root AGENTS.md once, from Codex itself."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from tests.e2e.clients import Clients
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import FILES, MARKERS, CodexHarness

pytestmark = pytest.mark.e2e

PINNED = "docs/pinned.md"


class CompactingCodex(CodexHarness):
    files = MappingProxyType(
        {**FILES, ".jitctx.toml": f'[pin]\npaths = ["{PINNED}"]\n', PINNED: "# Pinned\n\nJX-PINNED: kept.\n"}
    )
    markers = (*MARKERS, "JX-PINNED")
    # The reply to one step reports a prompt over this: Codex compacts once, before its next request.
    config = "model_auto_compact_token_limit = 5000"


@pytest.fixture
def codex(clients: Clients, tmp_path: Path) -> CompactingCodex:
    return CompactingCodex(clients, tmp_path)


def test_after_compaction_the_next_request_holds_what_jitctx_had_sent_once(codex: CompactingCodex) -> None:
    steps = [
        [Call("shell", {"command": "cat src/api/users.ts"})],
        [Call("shell", {"command": "cat tools/gen.py"})],
        [Call("shell", {"command": "echo done"})],
    ]
    outcome = codex.run("Look at the users, then the tools.", [Script(steps, tokens={1: 20_000})])
    last = outcome.last()
    text = str(last)
    assert "Another language model started to solve this problem" in text, outcome.diagnose(last)
    calls = [item.get("call_id") for item in last.get("input", []) if item.get("type") == "function_call"]
    assert "call_main_s0_0" not in calls, "the first call is still in the conversation: no compaction"
    outcome.expect("JX-ROOT-AGENTS", "client")
    for marker in (
        "JX-ROOT-CLAUDE",
        "JX-PINNED",
        "JX-API-AGENTS",
        "JX-RULE-API",
        "JX-TOOLS-CLAUDE",
        "JX-RULE-PYTHON",
    ):
        outcome.expect(marker, "hook")
    outcome.expect("JX-UI-CLAUDE", times=0)
