"""The real Qwen Code compacting its context in one headless run, with jitctx's hooks.

Qwen Code 0.24.4 compacts before a request once the last reported prompt (`usage.prompt_tokens`) nears
its window (`model.generationConfig.contextWindowSize`, here 100,000: the threshold is 67,000): it fires
PreCompact (its answer goes to the summarizer only), asks for a summary (a request without tools, whose
reply must report a large prompt too, or the compaction counts as inflating and is dropped), fires
PostCompact (answer ignored), then SessionStart with source `compact`, without waiting for it. The new
history is the summary, the files read recently, and the call whose result was pending; everything the
hooks added to earlier tool results is gone. The SessionStart answer replaces the session-start block of
the system prompt, but only from the second request after the compaction (the first was built before
the hook answered); the client's own files stay in the system prompt throughout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.qwen_code_harness import PINNED, QwenHarness, qwen_deliveries

pytestmark = pytest.mark.e2e

# The window the project's settings give the model, and a prompt size over its threshold.
WINDOW = {"model": {"generationConfig": {"contextWindowSize": 100_000}}}
NEAR_FULL = 90_000
SUMMARY = "<state_snapshot>"  # the frame of the summary the fake gives, kept in the history after
# What jitctx sent during the session, before the compaction (src/ui's after read_file, src/api's after
# a shell read, which the client follows with no rule of its own).
SENT_DURING = (
    "JX-UI-QWEN",
    "JX-UI-CLAUDE",
    "JX-RULE-COMPONENTS",
    "JX-API-QWEN",
    "JX-API-AGENTS",
    "JX-RULE-API",
    "JX-QRULE-API",
)
# What jitctx sent at start (its SessionStart answer, the block the compact answer replaces).
SENT_AT_START = ("JX-ROOT-CLAUDE", "JX-PINNED")
# What Qwen Code holds itself, in its system prompt, before and after.
CLIENT_OWN = ("JX-ROOT-QWEN", "JX-ROOT-AGENTS", "JX-QRULE-ALWAYS")


def read(harness: QwenHarness, rel: str) -> Call:
    return Call("read_file", {"file_path": str(harness.root / rel)})


def shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": "e2e"})


def compacted(body: dict[str, Any]) -> bool:
    return SUMMARY in json.dumps(body.get("messages") or [])


def test_the_requests_after_compaction_hold_what_jitctx_had_sent_once(
    clients: cl.Clients, tmp_path: Path
) -> None:
    """read_file src/ui/Footer.tsx and `cat src/api/users.ts` bring src/ui's and src/api's files from
    jitctx; the reply to the third call (a read in src/ui, which touches nothing new) reports a prompt
    over the threshold, and the client compacts before it sends that call's result. Once the SessionStart
    hook answered (the client does not wait for it), the system prompt's session-start block is jitctx's
    compact answer:
    the root CLAUDE.md, the pinned file and every file sent during the session, once each; the client's
    own files once, from the client."""
    qwen = QwenHarness(clients, tmp_path, files=PINNED, settings=WINDOW)
    steps = [
        [read(qwen, "src/ui/Footer.tsx")],
        [shell("cat src/api/users.ts")],
        [read(qwen, "src/ui/Header.tsx")],
        [shell("sleep 2; echo after")],  # time for the SessionStart hook the client does not wait for
        [shell("echo later")],
    ]
    outcome = qwen.run("Look around.", [Script(steps, tokens={2: NEAR_FULL})], side_tokens=NEAR_FULL)
    bodies = outcome.model.model_requests()
    after = [body for body in bodies if compacted(body)]
    assert len(after) >= 3, f"the client did not compact, or stopped early\n{outcome.diagnose()}"
    before = [body for body in bodies if not compacted(body)][-1]
    for marker in (*SENT_DURING, *SENT_AT_START):
        outcome.expect_in(before, marker, "hook", which="the last request before the compaction")
    first = after[0]
    # The first request after the compaction was built before the SessionStart answer came: it still
    # has the start block (the root CLAUDE.md, the pinned file), and nothing of what came during the
    # session, which only the summary could carry.
    which = "the first request after the compaction"
    for marker in SENT_AT_START:
        outcome.expect_in(first, marker, "hook", which=which)
    for marker in SENT_DURING:
        outcome.expect_in(first, marker, times=0, which=which)
    # The hook runs without the client waiting for it: its answer is in the requests built after it came
    # (the second, when the hook answers before the client builds it). Never twice, in any of them.
    for body in after[1:-1]:
        for marker in (*SENT_DURING, *SENT_AT_START):
            assert len(qwen_deliveries(body, marker)) <= 1, outcome.diagnose(body)
    which, body = "the last request", after[-1]
    for marker in (*SENT_DURING, *SENT_AT_START):
        outcome.expect_in(body, marker, "hook", which=which)
    for marker in CLIENT_OWN:
        outcome.expect_in(body, marker, "client", which=which)
    assert [str(d) for d in qwen_deliveries(body, "JX-ROOT-CLAUDE")] == ["hook(SessionStart)"]


@pytest.mark.xfail(
    strict=True,
    reason="the call whose result was pending when the client compacted stays in the new history with "
    "jitctx's answer to it, and the compact answer sends those files again (engine: leave out what the "
    "answers to the calls of the chat_compression record's trailing functionCall sent)",
)
def test_what_came_with_the_call_pending_at_the_compaction_is_not_sent_twice(
    clients: cl.Clients, tmp_path: Path
) -> None:
    """The reply to the third call, a read of tools/gen.py (tools/CLAUDE.md and the **/*.py rule come
    with its result), reports a prompt over the threshold: the client compacts before it sends that
    result, and keeps the call and its result (jitctx's answer included) after the summary."""
    qwen = QwenHarness(clients, tmp_path, files=PINNED, settings=WINDOW)
    steps = [
        [read(qwen, "src/ui/Footer.tsx")],
        [shell("cat src/api/users.ts")],
        [read(qwen, "tools/gen.py")],
        [shell("echo after")],
        [shell("echo later")],
    ]
    outcome = qwen.run("Look around.", [Script(steps, tokens={2: NEAR_FULL})], side_tokens=NEAR_FULL)
    after = [body for body in outcome.model.model_requests() if compacted(body)]
    assert len(after) >= 3, f"the client did not compact, or stopped early\n{outcome.diagnose()}"
    for marker in ("JX-TOOLS-CLAUDE", "JX-RULE-PYTHON", *SENT_DURING, *SENT_AT_START):
        outcome.expect_in(after[-1], marker, "hook", which="the last request")
