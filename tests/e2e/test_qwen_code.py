"""The real Qwen Code (`qwen -p ... --yolo --auth-type openai`) with jitctx's hooks (`jitctx install
qwen-code`, project scope), against a scripted model (Chat Completions).

Qwen Code 0.24.4 loads by itself, at start only: QWEN.md and AGENTS.md from the cwd up to the `.git` root
(and, past it, the folder above the root), `.qwen/QWEN.local.md` and the unscoped `.qwen/rules`; after its
own file tools it adds the `.qwen/rules` files whose `paths:` match. It never loads a context file below
the cwd, nor CLAUDE.md, nor `.claude/rules`. So the root QWEN.md and AGENTS.md, the unscoped
`.qwen/rules` and a scoped one after its file tools must arrive from the client only, and everything else
(a scoped `.qwen/rules` file after a shell read too) from jitctx's hooks only, once. Each test asserts,
on the last request a thread's model received, how often each marker arrived and by which route.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import holds
from tests.e2e.qwen_code_harness import PINNED, QwenHarness, QwenOutcome, qwen_deliveries

pytestmark = pytest.mark.e2e


@pytest.fixture
def qwen(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> QwenHarness:
    return QwenHarness(clients, tmp_path, hold=holds(request))


def read(harness: QwenHarness, rel: str) -> Call:
    return Call("read_file", {"file_path": str(harness.root / rel)})


def shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": "e2e"})


def expect_root(outcome: QwenOutcome, script: str = "main") -> None:
    """What every thread holds from the start: the client's own root files once, the root CLAUDE.md once
    from jitctx, and nothing of the folder above the project from jitctx."""
    for marker in ("JX-ROOT-QWEN", "JX-ROOT-AGENTS", "JX-QRULE-ALWAYS"):
        outcome.expect(marker, "client", script=script)
    outcome.expect("JX-ROOT-CLAUDE", "hook", script=script)
    outcome.expect("JX-OUTSIDE-CLAUDE", times=0, script=script)
    outcome.expect("JX-OUTSIDE-QWEN", "client", script=script)  # the client's own walk past the root


def test_the_hooks_are_installed_with_second_timeouts(qwen: QwenHarness) -> None:
    settings = json.loads((qwen.root / ".qwen/settings.json").read_text())
    hooks = settings["hooks"]
    events = {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "InstructionsLoaded"}
    assert set(hooks) == events, hooks
    handlers = [h for groups in hooks.values() for group in groups for h in group["hooks"]]
    assert all("jitctx hook qwen-code" in h["command"] for h in handlers), handlers
    assert all(1 <= h["timeout"] < 1000 for h in handlers), "timeouts are in seconds"


def test_startup_client_loads_its_own_files_and_jitctx_the_rest(qwen: QwenHarness) -> None:
    """(e) At start Qwen Code loads the root QWEN.md, AGENTS.md and the unscoped .qwen rule itself; jitctx
    adds the root CLAUDE.md, and nothing scoped to a subdirectory arrives before it is touched."""
    outcome = qwen.run("Say hello.", [Script([])])
    expect_root(outcome)
    for marker in ("JX-UI-QWEN", "JX-UI-CLAUDE", "JX-API-AGENTS", "JX-RULE-COMPONENTS", "JX-QRULE-API"):
        outcome.expect(marker, times=0)


def test_a_read_file_brings_the_nested_files_and_the_scoped_rule_once(qwen: QwenHarness) -> None:
    """(a, d) read_file src/ui/Footer.tsx: Qwen Code loads nothing of src/ui/, so its QWEN.md, its
    CLAUDE.md and the src/ui/**/*.tsx rule of .claude/rules come from jitctx, once."""
    outcome = qwen.run("Read the footer.", [Script([[read(qwen, "src/ui/Footer.tsx")]])])
    for marker in ("JX-UI-QWEN", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "hook")
    expect_root(outcome)
    outcome.expect("JX-API-AGENTS", times=0)


def test_b_a_shell_read_brings_the_nested_files_from_jitctx(qwen: QwenHarness) -> None:
    """(b) run_shell_command `cat src/api/users.ts`: src/api/QWEN.md, src/api/AGENTS.md and the src/api/**
    rule come from jitctx, once; so does the src/api/** `.qwen/rules` file, which the client adds after
    its own file tools only."""
    outcome = qwen.run("Show the users.", [Script([[shell("cat src/api/users.ts")]])])
    for marker in ("JX-API-QWEN", "JX-API-AGENTS", "JX-RULE-API", "JX-QRULE-API"):
        outcome.expect(marker, "hook")
    expect_root(outcome)


@pytest.mark.hold_off
def test_c_write_file_creating_a_file_brings_the_rules_once(qwen: QwenHarness) -> None:
    """(c) write_file creates tools/made.py: tools/CLAUDE.md and the **/*.py rule arrive once, from
    jitctx."""
    target = qwen.root / "tools/made.py"
    write = Call("write_file", {"file_path": str(target), "content": "X = 1\n"})
    outcome = qwen.run("Add a tool.", [Script([[write]])])
    assert target.read_text() == "X = 1\n", outcome.diagnose()
    outcome.expect("JX-TOOLS-CLAUDE", "hook")
    outcome.expect("JX-RULE-PYTHON", "hook")
    expect_root(outcome)


def test_d_nothing_arrives_twice_in_a_multi_step_session(qwen: QwenHarness) -> None:
    """(d) read_file src/api/users.ts, `cat src/api/users.ts`, then read_file src/ui/Footer.tsx and
    src/ui/Header.tsx: every file arrives once in the whole conversation, by the route that owns it (the
    client's own src/api/** rule after its first read_file, jitctx's files after the first touch)."""
    steps = [
        [read(qwen, "src/api/users.ts")],
        [shell("cat src/api/users.ts")],
        [read(qwen, "src/ui/Footer.tsx")],
        [read(qwen, "src/ui/Header.tsx")],
    ]
    outcome = qwen.run("Look around.", [Script(steps)])
    assert len(outcome.model.model_requests()) == len(steps) + 1, outcome.diagnose()
    outcome.expect("JX-QRULE-API", "client")
    for marker in ("JX-API-QWEN", "JX-API-AGENTS", "JX-RULE-API", "JX-UI-QWEN", "JX-UI-CLAUDE"):
        outcome.expect(marker, "hook")
    outcome.expect("JX-RULE-COMPONENTS", "hook")
    expect_root(outcome)


def test_a_sub_agent_gets_what_applies_in_its_own_context(
    clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A foreground `agent` call reads src/api/users.ts: the sub-agent's own system prompt holds the
    client's root files; its read brings the root CLAUDE.md and the pinned file (which the SubagentStart
    answer could not carry) and the src/api files from jitctx, once; the main thread gets none of the
    sub-agent's, and the pinned file once, at its own start."""
    qwen = QwenHarness(clients, tmp_path, hold=holds(request), files=PINNED)
    task = "SUBTASK: read the users"
    agent = Call(
        "agent",
        {
            "description": "users",
            "prompt": task,
            "subagent_type": "general-purpose",
            "run_in_background": False,
        },
    )
    sub = Script([[read(qwen, "src/api/users.ts")], [shell("echo done")]], name="sub", match=task)
    outcome = qwen.run("Delegate.", [Script([[agent]]), sub])
    expect_root(outcome, script="sub")
    for marker in ("JX-API-QWEN", "JX-API-AGENTS", "JX-RULE-API"):
        outcome.expect(marker, "hook", script="sub")
        outcome.expect(marker, times=0)
    outcome.expect("JX-QRULE-API", "client", script="sub")
    for script in ("sub", "main"):
        outcome.expect("JX-PINNED", "hook", script=script)
    # In the result of the sub-agent's first call, its read.
    holding = [m.get("tool_call_id") for m in outcome.last("sub")["messages"] if "JX-PINNED" in str(m)]
    assert holding == ["call_sub_s0_0"], holding
    assert [str(d) for d in qwen_deliveries(outcome.last(), "JX-PINNED")] == ["hook(SessionStart)"]
    expect_root(outcome)


def test_e_every_resume_gets_the_start_files_and_nothing_twice(qwen: QwenHarness) -> None:
    """(e) `cat src/api/users.ts`, then `-c` twice: each resumed run holds the first run's tool results
    (the src/api files once, from jitctx's first answer) and, since the system prompt is rebuilt on every
    run, the root CLAUDE.md once more from jitctx's SessionStart answer."""
    first = qwen.run("First.", [Script([[shell("cat src/api/users.ts")]])])
    assert first.session_id, first.diagnose()
    for name in ("again", "later"):
        resumed = qwen.run("Go on.", [Script([], name=name)], "-c")
        assert resumed.session_id == first.session_id, resumed.diagnose()
        assert "call_main_s0_0" in json.dumps(resumed.last(name)), "the resumed request lacks the first run"
        for marker in ("JX-API-QWEN", "JX-API-AGENTS", "JX-RULE-API"):
            resumed.expect(marker, "hook", script=name)
        expect_root(resumed, script=name)
