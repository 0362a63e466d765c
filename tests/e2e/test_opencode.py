"""The real OpenCode (`opencode run`) with jitctx's plugin (`jitctx install opencode`, project scope),
against a scripted model (Chat Completions, through an `@ai-sdk/openai-compatible` provider).

OpenCode loads by itself, seen in 1.18.33: at start, of AGENTS.md, CLAUDE.md and CONTEXT.md the first
name found from the cwd up to the worktree (here the root AGENTS.md; the root CLAUDE.md not), in the
system prompt; after its `read` tool, per directory below the cwd, the first of those three names,
appended to the read's output, once per session. Nothing after write, edit or bash; no `.claude/rules`.
So each of those files must arrive from the client and never from jitctx, and everything else from
jitctx's plugin, once. Each test asserts, on the last request the model received, how often each marker
arrived and by which route.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import Outcome, holds
from tests.e2e.opencode_harness import OpenCodeHarness, deliveries, expect, summary

pytestmark = pytest.mark.e2e


@pytest.fixture
def opencode(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> OpenCodeHarness:
    return OpenCodeHarness(clients, tmp_path, hold=holds(request))


def read(harness: OpenCodeHarness, rel: str) -> Call:
    return Call("read", {"filePath": str(harness.root / rel)})


def bash(command: str) -> Call:
    return Call("bash", {"command": command, "description": "e2e"})


def expect_root(outcome: Outcome) -> None:
    """The root AGENTS.md from OpenCode's system prompt; the root CLAUDE.md, which it leaves out
    when an AGENTS.md is there, from jitctx at session start, once."""
    expect(outcome, "JX-ROOT-AGENTS", "client")
    expect(outcome, "JX-ROOT-CLAUDE", "hook")


def test_a_read_brings_the_nested_file_from_the_client_and_the_rule_from_jitctx(
    opencode: OpenCodeHarness,
) -> None:
    outcome = opencode.run("Read the footer.", [Script([[read(opencode, "src/ui/Footer.tsx")]])])
    expect(outcome, "JX-UI-CLAUDE", "client")
    expect(outcome, "JX-RULE-COMPONENTS", "hook")
    expect_root(outcome)
    expect(outcome, "JX-API-AGENTS", times=0)


def test_b_a_shell_read_brings_everything_from_jitctx(opencode: OpenCodeHarness) -> None:
    """(b) bash `cat src/api/users.ts`: OpenCode attaches nothing after a shell command, so
    src/api/AGENTS.md and the src/api/** rule both come from jitctx, once."""
    outcome = opencode.run("Show the users.", [Script([[bash("cat src/api/users.ts")]])])
    expect(outcome, "JX-API-AGENTS", "hook")
    expect(outcome, "JX-RULE-API", "hook")
    expect_root(outcome)
    expect(outcome, "JX-UI-CLAUDE", times=0)


@pytest.mark.hold_off
def test_c_write_creating_a_file_brings_its_folder_and_rule_once(opencode: OpenCodeHarness) -> None:
    """(c) write creates tools/made.py: OpenCode attaches nothing after a write, so tools/AGENTS.md,
    tools/CLAUDE.md and the **/*.py rule all arrive from jitctx, once."""
    target = opencode.root / "tools/made.py"
    write = Call("write", {"filePath": str(target), "content": "X = 1\n"})
    outcome = opencode.run("Add a tool.", [Script([[write]])])
    assert target.read_text() == "X = 1\n", outcome.diagnose()
    for marker in ("JX-TOOLS-AGENTS", "JX-TOOLS-CLAUDE", "JX-RULE-PYTHON"):
        expect(outcome, marker, "hook")
    expect_root(outcome)


def test_d_nothing_arrives_twice_in_a_multi_step_session(opencode: OpenCodeHarness) -> None:
    """(d) read src/ui/Footer.tsx, read src/ui/Header.tsx (the same folder), then `cat src/ui/Header.tsx`:
    src/ui/CLAUDE.md comes once, from OpenCode's first read; the src/ui/**/*.tsx rule once, from jitctx."""
    steps = [
        [read(opencode, "src/ui/Footer.tsx")],
        [read(opencode, "src/ui/Header.tsx")],
        [bash("cat src/ui/Header.tsx")],
    ]
    outcome = opencode.run("Look around.", [Script(steps)])
    assert len(outcome.model.model_requests()) == len(steps) + 1, outcome.diagnose()
    expect(outcome, "JX-UI-CLAUDE", "client")
    expect(outcome, "JX-RULE-COMPONENTS", "hook")
    expect_root(outcome)


def test_e_in_a_folder_with_two_files_the_client_takes_one_and_jitctx_the_other(
    opencode: OpenCodeHarness,
) -> None:
    """(e) read tools/gen.py: of tools/AGENTS.md and tools/CLAUDE.md OpenCode attaches only the first
    name (AGENTS.md); jitctx sends tools/CLAUDE.md and the **/*.py rule, and not tools/AGENTS.md."""
    outcome = opencode.run("Read the generator.", [Script([[read(opencode, "tools/gen.py")]])])
    expect(outcome, "JX-TOOLS-AGENTS", "client")
    expect(outcome, "JX-TOOLS-CLAUDE", "hook")
    expect(outcome, "JX-RULE-PYTHON", "hook")
    expect_root(outcome)


def test_f_the_root_agents_md_only_ever_comes_from_the_client(opencode: OpenCodeHarness) -> None:
    """(f) Touching the root itself by every route (read, a shell read, write) never makes jitctx send
    the root AGENTS.md, which OpenCode holds in its system prompt; nothing comes from outside the
    project (the fixture's home holds no instruction file)."""
    steps = [
        [read(opencode, "README.md")],
        [bash("cat README.md")],
        [Call("write", {"filePath": str(opencode.root / "NOTES.md"), "content": "notes\n"})],
    ]
    outcome = opencode.run("Look at the root.", [Script(steps)])
    assert (opencode.root / "NOTES.md").exists(), outcome.diagnose()
    expect_root(outcome)
    body = outcome.last()
    headers = [d for m in outcome.markers for d in deliveries(body, m)]
    assert all(d.route in ("client", "hook") for d in headers), summary(body, outcome.markers)


def test_a_failing_hook_leaves_opencode_and_its_output_alone(opencode: OpenCodeHarness) -> None:
    """A plugin whose command cannot run: the session still finishes, the read's output is OpenCode's
    own (its nested file, nothing of jitctx's), and the system prompt has no jitctx text."""
    from jitctx.clients.opencode.plugin import render

    plugin = opencode.root / ".opencode/plugins/jitctx.js"
    plugin.write_text(render(f"{opencode.root}/no-such/jitctx hook opencode"), encoding="utf-8")
    outcome = opencode.run("Read the footer.", [Script([[read(opencode, "src/ui/Footer.tsx")]])])
    expect(outcome, "JX-UI-CLAUDE", "client")
    expect(outcome, "JX-ROOT-AGENTS", "client")
    for marker in ("JX-ROOT-CLAUDE", "JX-RULE-COMPONENTS"):
        expect(outcome, marker, times=0)


def test_d_a_shell_read_then_a_read_in_the_same_folder(opencode: OpenCodeHarness) -> None:
    """(d) `cat src/api/users.ts`, then read src/api/users.ts: jitctx sends src/api/AGENTS.md after the
    shell read (OpenCode would not), and OpenCode, which does not know that, attaches its own copy after
    its read; jitctx adds no further copy of anything."""
    steps = [[bash("cat src/api/users.ts")], [read(opencode, "src/api/users.ts")]]
    outcome = opencode.run("Look at the API.", [Script(steps)])
    found = [str(d) for d in deliveries(outcome.last(), "JX-API-AGENTS")]
    assert found == ["hook(after bash)", "client(after read)"], f"{found}\n{outcome.diagnose()}"
    expect(outcome, "JX-RULE-API", "hook")
    expect_root(outcome)


def test_g_a_resumed_session_gets_the_start_files_again_and_nothing_else_twice(
    opencode: OpenCodeHarness,
) -> None:
    """(g) `opencode run --continue`: the system prompt is rebuilt without jitctx's start answer, so the
    root CLAUDE.md is sent again (once); what jitctx added to the first run's `cat` output is still in
    the history and is not sent again when the resumed run touches the same file."""
    cat = bash("cat src/api/users.ts")
    first = opencode.run("First.", [Script([[cat]])])
    resumed = opencode.run("Again.", [Script([[cat]], name="again")], "--continue")
    assert resumed.session_id == first.session_id, resumed.diagnose()
    body = resumed.last("again")
    assert "call_main_s0_0" in str(body), "the resumed request lacks the first run"
    for marker, route in (
        ("JX-ROOT-CLAUDE", "hook"),
        ("JX-ROOT-AGENTS", "client"),
        ("JX-API-AGENTS", "hook"),
    ):
        found = deliveries(body, marker)
        assert len(found) == 1 and found[0].route == route, f"{marker}: {found}\n{resumed.diagnose(body)}"
