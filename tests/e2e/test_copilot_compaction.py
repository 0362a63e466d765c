"""The real GitHub Copilot CLI compacting its context in one run, with jitctx's hooks (`preCompact`).

Copilot CLI 1.0.102 compacts when its own estimate of the prompt nears `COPILOT_PROVIDER_MAX_PROMPT_TOKENS`:
it runs `preCompact` (whose answer reaches no model), asks the model for a summary in the background, and
goes on with the next tool call; the first request after the compaction holds its system prompt (with
the root's instruction files, built again), one user message with the summary, and the calls made since
the compaction began. Everything the hooks gave before, and its own loads after a `view`, are gone; no
sessionStart or userPromptSubmitted fires again. So the next tool call's postToolUse answer must bring
back what jitctx had sent, once, and nothing the client sends again itself.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import PINNED, CopilotHarness
from tests.e2e.fake_api import Call, Script

pytestmark = pytest.mark.e2e

SUMMARIZED = "Some of the conversation history has been summarized"
# Three files of ~14 KB (the client's view refuses a file over ~20 KB): with the limit below, the second
# view brings the prompt near the limit and the client compacts.
BIG = tuple(f"big{i}.txt" for i in range(3))
LIMIT = {"COPILOT_PROVIDER_MAX_PROMPT_TOKENS": "20000"}


def big_text(seed: int) -> str:
    words = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "kilo")
    rnd = random.Random(seed)
    return " ".join(f"{rnd.choice(words)}{rnd.randint(0, 999)}" for _ in range(1600)) + "\n"


def text_of(body: dict[str, Any]) -> str:
    return json.dumps(body.get("messages") or [])


def test_after_compaction_the_next_tool_call_brings_back_what_jitctx_had_sent_once(
    clients: cl.Clients, tmp_path: Path
) -> None:
    """Before the compaction jitctx sent src/api's AGENTS.md and GEMINI.md, the src/api/** rule
    (`.claude/rules`) and the src/**/*.ts Copilot rule after a shell read, CLAUDE.local.md and the pinned
    file at start; the client loaded src/ui's files and the src/ui/**/*.tsx rule itself after its view
    of Footer.tsx. In the first request after the compaction all of them are there again, each once,
    from jitctx's answer to the first call after `preCompact` (a view of a file in a folder already
    settled: it touches nothing new); the root's files come from the client's rebuilt system prompt
    only."""
    files = {**PINNED, **{name: big_text(i) for i, name in enumerate(BIG)}}
    copilot = CopilotHarness(clients, tmp_path, files=files)
    steps = [
        [Call("bash", {"command": "cat src/api/users.ts", "description": "e2e"})],
        [Call("view", {"path": str(copilot.root / "src/ui/Footer.tsx")})],
    ]
    steps += [[Call("view", {"path": str(copilot.root / name)})] for name in BIG]
    outcome = copilot.run("Read the files.", [Script(steps)], env=LIMIT)
    bodies = outcome.model.model_requests("main")
    after = [body for body in bodies if SUMMARIZED in text_of(body)]
    assert after, f"the client did not compact\n{outcome.diagnose()}"
    first = after[0]
    roles = [message.get("role") for message in first["messages"]]
    assert "tool" in roles, f"no tool result after the compaction: {roles}\n{outcome.diagnose()}"
    which = "the first request after the compaction"
    for marker in ("JX-API-AGENTS", "JX-API-GEMINI", "JX-RULE-API", "JX-COPILOT-TS"):
        outcome.expect_in(first, marker, "hook", which=which)
    for marker in ("JX-ROOT-LOCAL", "JX-PINNED"):
        outcome.expect_in(first, marker, "hook", which=which)
    # The client's own loads after its view went with the compaction: jitctx sends them now.
    for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-UI-GEMINI", "JX-RULE-COMPONENTS"):
        outcome.expect_in(first, marker, "hook", which=which)
    # What the client builds again itself: its system prompt with the root's files.
    for marker in ("JX-COPILOT-REPO", "JX-ROOT-AGENTS", "JX-ROOT-CLAUDE", "JX-ROOT-GEMINI"):
        outcome.expect_in(first, marker, "client", which=which)
    for marker in ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON", "JX-OUTSIDE"):
        outcome.expect_in(first, marker, times=0, which=which)
    # Before the compaction, each had arrived once, from whoever brought it.
    before = [body for body in bodies if SUMMARIZED not in text_of(body)][-1]
    which = "the last request before the compaction"
    outcome.expect_in(before, "JX-API-AGENTS", "hook", which=which)
    outcome.expect_in(before, "JX-UI-AGENTS", "client", which=which)
    # And the last request, after the run's later calls, still holds each once.
    for marker in ("JX-API-AGENTS", "JX-RULE-API", "JX-ROOT-LOCAL", "JX-PINNED", "JX-UI-AGENTS"):
        outcome.expect(marker, "hook")
    outcome.expect("JX-ROOT-AGENTS", "client")
