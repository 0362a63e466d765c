"""`jitctx stats --drift` over a real Claude Code session: what the report reads from the transcript agrees
with what the scripted model received.

The session writes src/api/new.ts, then reads src/api/users.ts. Claude Code 2.1.197 loads nothing after
a Write, so jitctx sends the src/api/** rule; after the Read it loads the same rule itself, and the rule
reaches the model twice: the report must name it for that release (run with
JITCTX_E2E_CLAUDE_PREFIX pointing at a 2.1.197 install). Newer releases load the rule after the Write
themselves; there the report must still read the session, and whatever it reports must be in the
request bodies.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.evidence import deliveries
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import FILE_OF, ClaudeHarness, Outcome, holds, jitctx

pytestmark = pytest.mark.e2e

MARKER_OF = {path: marker for marker, path in FILE_OF.items()}
ROUTE_OF = {"client": "client", "jitctx": "hook"}  # the report's routes as tests/e2e/evidence names them


@pytest.fixture
def claude(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> ClaudeHarness:
    return ClaudeHarness(clients, tmp_path, hold=holds(request))


def write_then_read(claude: ClaudeHarness) -> Outcome:
    new, users = claude.root / "src/api/new.ts", claude.root / "src/api/users.ts"
    steps = [
        [Call("Write", {"file_path": str(new), "content": "export const created = true;\n"})],
        [Call("Read", {"file_path": str(users)})],
    ]
    return claude.run("Add an API module, then look at the users.", [Script(steps)])


def drift_of(claude: ClaudeHarness, outcome: Outcome) -> dict[str, Any]:
    env = cl.base_env(claude.home, claude.state_dir)
    done = jitctx(env, "stats", "--drift", "--json", "--session", str(outcome.session_id))
    assert done.returncode == 0, done.stderr
    drift: dict[str, Any] = json.loads(done.stdout)["drift"]
    return drift


@pytest.mark.hold_off
def test_the_drift_report_agrees_with_what_the_model_received(claude: ClaudeHarness) -> None:
    outcome = write_then_read(claude)
    assert outcome.session_id is not None
    drift = drift_of(claude, outcome)
    body = outcome.last()
    assert (drift["sessions"], drift["read"], drift["not_found"]) == (1, 1, []), drift
    releases = {entry["release"]: entry for entry in drift["releases"]}
    assert releases and all(entry["client"] == "claude-code" for entry in releases.values()), drift
    assert outcome.model.requests, "the session reached the model"
    for entry in releases.values():
        for twice in entry["twice"]:
            found = deliveries(body, MARKER_OF[twice["path"]])
            # Reported twice: the last request holds the text that often, by the routes reported.
            assert len(found) >= twice["count"] >= 2, (twice, found, outcome.diagnose(body))
            assert {ROUTE_OF[route] for route in twice["routes"]} <= {d.route for d in found}, (twice, found)
        for gone in entry["never_arrived"]:
            found = deliveries(body, MARKER_OF[gone["path"]])
            assert "client" not in {d.route for d in found}, (gone, found, outcome.diagnose(body))
    api = deliveries(body, "JX-RULE-API")
    reported = [
        t for entry in releases.values() for t in entry["twice"] if t["path"] == ".claude/rules/api.md"
    ]
    assert bool(reported) == (len(api) > 1), (reported, api, outcome.diagnose(body))
    if claude.clients.claude_version.startswith("2.1.197"):
        assert [t["count"] for t in releases["2.1.197"]["twice"] if t["path"] == ".claude/rules/api.md"] == [
            2
        ]
        [rule] = [t for t in releases["2.1.197"]["twice"] if t["path"] == ".claude/rules/api.md"]
        assert rule["routes"] == ["client", "jitctx"] and rule["file_path"] == os.path.realpath(
            claude.root / ".claude/rules/api.md"
        )
