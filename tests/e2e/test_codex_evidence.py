"""The real Codex's rollout as evidence: what it shows reached the model is not sent again, even when
jitctx's own record of the session is gone."""

from __future__ import annotations

import time

import pytest

from jitctx.clients.codex.evidence import HOOK_WINDOW_NS
from jitctx.telemetry.store import read_records
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import CodexHarness

pytestmark = pytest.mark.e2e


def test_a_session_whose_state_is_lost_sends_nothing_the_rollout_shows(codex: CodexHarness) -> None:
    """Codex starts in src/api: it loads the root's and src/api's AGENTS.md itself, and jitctx's
    SessionStart sends the root CLAUDE.md and the src/api/** rule (the cwd matches it). The model then
    deletes jitctx's session state, and reads src/api/users.ts from the root (a `workdir`, which Codex
    reports as the cwd): to jitctx this is a session first seen now, in the root, where Codex would hold
    the root's AGENTS.md alone. The rollout shows Codex's own load of src/api/AGENTS.md (its world_state
    and instructions message) and jitctx's earlier answer, so nothing arrives twice."""
    # jitctx's answer proves a file only when the file is older than the hook's timeout (Codex does not
    # record when a hook ran): the fixture's files must be that old when the session starts.
    time.sleep(HOOK_WINDOW_NS / 1e9 + 0.5)
    sessions = codex.state_dir / "sessions"
    lose_state = Call("shell", {"command": f"rm -r '{sessions}'", "workdir": str(codex.root)})
    read = Call("shell", {"command": "cat src/api/users.ts", "workdir": str(codex.root)})
    outcome = codex.run("Show the users.", [Script([[lose_state], [read]])], cwd=codex.root / "src/api")
    # The state was lost in between: the read started the session anew (a second startup record).
    starts = [r for r in read_records(codex.state_dir / "events") if r.get("kind") == "startup"]
    assert len(starts) == 2, outcome.diagnose()
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-API-AGENTS", "client")
    outcome.expect("JX-ROOT-CLAUDE", "hook")
    outcome.expect("JX-RULE-API", "hook")
    outcome.expect("JX-UI-CLAUDE", times=0)
