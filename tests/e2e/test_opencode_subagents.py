"""The real OpenCode running a sub-agent (its `task` tool), with jitctx's plugin.

Seen in 1.18.33: `task` starts a child session (`session.created` names its parent in `info.parentID`);
the child's model requests run `experimental.chat.system.transform`, and its tool calls
`tool.execute.before/after`, with the child's session id; its system prompt is built as a session's is
(the root AGENTS.md in it), its own `read` attaches nested files as in any session, and the parent reads
only the child's final text (the `task` result). So the child needs its own start from jitctx (the
root CLAUDE.md that the AGENTS.md hides, the pinned file) and its own touches; the parent none of the
child's files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import holds
from tests.e2e.opencode_harness import PINNED, OpenCodeHarness, expect

pytestmark = pytest.mark.e2e

TASK = "OCSUB-TASK: look at the footer and the users."


def read(harness: OpenCodeHarness, rel: str) -> Call:
    return Call("read", {"filePath": str(harness.root / rel)})


def bash(command: str) -> Call:
    return Call("bash", {"command": command, "description": "e2e"})


def test_a_sub_agent_gets_its_own_start_and_its_own_files_once(
    clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The parent delegates, then reads src/api/users.ts with a shell; the child reads src/ui/Footer.tsx
    and src/api/users.ts with a shell. The child holds the root AGENTS.md from its own system prompt, the
    root CLAUDE.md and the pinned file from jitctx's start for it, src/ui/CLAUDE.md from its own read, and
    the src/ui/**/*.tsx rule, src/api/AGENTS.md and the src/api/** rule from jitctx, once each. The
    parent holds none of src/ui's files, and src/api's once, from its own shell read."""
    opencode = OpenCodeHarness(clients, tmp_path, hold=holds(request), files=PINNED)
    task = Call("task", {"description": "inspect", "prompt": TASK, "subagent_type": "general"})
    main = Script([[task], [bash("cat src/api/users.ts")]])
    sub = Script(
        [[read(opencode, "src/ui/Footer.tsx")], [bash("cat src/api/users.ts")]], name="sub", match=TASK
    )
    outcome = opencode.run("Delegate, then look at the users.", [main, sub])
    for script in ("sub", "main"):
        expect(outcome, "JX-ROOT-AGENTS", "client", script=script)
        expect(outcome, "JX-ROOT-CLAUDE", "hook", script=script)
        expect(outcome, "JX-PINNED", "hook", script=script)
        expect(outcome, "JX-API-AGENTS", "hook", script=script)
        expect(outcome, "JX-RULE-API", "hook", script=script)
    expect(outcome, "JX-UI-CLAUDE", "client", script="sub")
    expect(outcome, "JX-RULE-COMPONENTS", "hook", script="sub")
    for marker in ("JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        expect(outcome, marker, times=0)
    # Every request of the child carries its start once (the system prompt is built for each).
    for body in outcome.model.model_requests("sub"):
        expect(outcome, "JX-PINNED", "hook", body=body, which="a request of the child")
    # jitctx's records name the child as a sub-agent of the parent's session, in a channel of its own.
    results = [str(m.get("content")) for m in outcome.last()["messages"] if m.get("role") == "tool"]
    child = next(found.group(1) for text in results if (found := re.search(r'<task id="([^"]+)"', text)))
    records = [json.loads(line) for f in (opencode.state_dir / "events").glob("*.jsonl") for line in f.open()]
    assert {r["session_id"] for r in records} == {outcome.session_id}, records
    by_child = [r for r in records if r.get("agent_id") == child]
    assert [r["kind"] for r in by_child] == ["startup", "discovery", "discovery"], records
    assert {r["channel"] for r in by_child} == {"subagent"}, by_child


def test_a_sub_agent_compacted_starts_again_in_a_fresh_channel(
    clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The child's second reply reaches the model's window and OpenCode compacts the child session:
    what jitctx had added to its tool outputs is gone. The child goes on as a fresh sub-agent channel:
    its requests after the compaction hold the root CLAUDE.md and the pinned file once (its start, again),
    and its next shell read of src/api/users.ts brings src/api's files once more, once."""
    opencode = OpenCodeHarness(clients, tmp_path, hold=holds(request), files=PINNED)
    task = Call("task", {"description": "inspect", "prompt": TASK, "subagent_type": "general"})
    steps = [[bash("cat src/api/users.ts")], [read(opencode, "src/ui/Footer.tsx")]]
    sub = Script(steps, name="sub", match=TASK, tokens={1: 95_000})
    after = Script([[bash("cat src/api/users.ts")]], name="after", match="What did we do so far?")
    limit = {"context": 100_000, "output": 8_000}
    outcome = opencode.run("Delegate.", [Script([[task]]), sub, after], limit=limit)
    bodies = outcome.model.model_requests("after")
    assert len(bodies) == 2, f"the child did not compact, or not once\n{outcome.diagnose()}"
    for number, body in enumerate(bodies, 1):
        which = f"the child's request {number} after its compaction"
        for marker in ("JX-ROOT-CLAUDE", "JX-PINNED"):
            expect(outcome, marker, "hook", body=body, which=which)
        expect(outcome, "JX-ROOT-AGENTS", "client", body=body, which=which)
    for marker in ("JX-API-AGENTS", "JX-RULE-API"):
        expect(outcome, marker, "hook", script="after")
    for marker in ("JX-API-AGENTS", "JX-RULE-API", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        expect(outcome, marker, times=0)  # the parent's
    records = [json.loads(line) for f in (opencode.state_dir / "events").glob("*.jsonl") for line in f.open()]
    agents = [r.get("agent_id") for r in records if r["kind"] == "startup"]
    assert agents[0] is None and len(agents) == 3 and agents[2] == f"{agents[1]}#1", records
