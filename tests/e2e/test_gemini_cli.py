"""The real Gemini CLI (`gemini -p ... --yolo`) with jitctx's hooks (`jitctx install gemini-cli`, project
scope), against a scripted model (the Gemini API's streamGenerateContent).

Gemini CLI loads GEMINI.md itself: from the cwd up to the `.git` root at start (into the first user turn),
and just in time after its own file tools (read_file, write_file, replace, list_directory), appended to
the tool's output, once per session; never after run_shell_command. It reads no AGENTS.md, CLAUDE.md or
`.claude/rules`. So every GEMINI.md must arrive from the client and never from jitctx, except after a
shell read, where only jitctx can bring it; everything else can only come from jitctx's hooks. Each test
asserts, on the last request the model received, how often each marker arrived and by which route.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.evidence import deliveries
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import GeminiHarness, Outcome

pytestmark = pytest.mark.e2e

# What jitctx sends at session start: the root files Gemini CLI does not read.
ROOT_FROM_JITCTX = ("JX-ROOT-CLAUDE", "JX-ROOT-AGENTS")


def read(harness: GeminiHarness, rel: str) -> Call:
    return Call("read_file", {"file_path": str(harness.root / rel)})


def shell(command: str) -> Call:
    return Call("run_shell_command", {"command": command, "description": "e2e"})


def expect_root(outcome: Outcome, script: str = "main") -> None:
    """(f) The root GEMINI.md from the client's own load only; the other root files from jitctx, once."""
    outcome.expect("JX-ROOT-GEMINI", "client", script=script)
    for marker in ROOT_FROM_JITCTX:
        outcome.expect(marker, "hook", script=script)


def test_the_hooks_are_installed_with_millisecond_timeouts(gemini: GeminiHarness) -> None:
    settings = json.loads((gemini.root / ".gemini/settings.json").read_text())
    hooks = settings["hooks"]
    assert set(hooks) >= {"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool"}, hooks
    handlers = [h for groups in hooks.values() for group in groups for h in group["hooks"]]
    assert all("jitctx hook gemini-cli" in h["command"] for h in handlers), handlers
    assert all(1000 <= h["timeout"] <= 600_000 for h in handlers), "timeouts are in milliseconds"


def test_startup_client_loads_the_root_gemini_md_and_jitctx_the_rest(gemini: GeminiHarness) -> None:
    """At start Gemini CLI loads the root GEMINI.md itself; jitctx adds the root CLAUDE.md and AGENTS.md
    (which the client does not read), and nothing scoped to a subdirectory arrives before it is touched."""
    outcome = gemini.run("Say hello.", [Script([])])
    expect_root(outcome)
    for marker in ("JX-UI-GEMINI", "JX-UI-CLAUDE", "JX-API-AGENTS", "JX-RULE-COMPONENTS", "JX-RULE-API"):
        outcome.expect(marker, times=0)


def test_a_read_file_nested_gemini_md_from_the_client_the_rest_from_jitctx(gemini: GeminiHarness) -> None:
    """(a) read_file src/ui/Footer.tsx: Gemini CLI appends src/ui/GEMINI.md to the result itself (jitctx
    must not send it again); src/ui/AGENTS.md, src/ui/CLAUDE.md and the src/ui/**/*.tsx rule arrive once,
    from jitctx's AfterTool hook."""
    outcome = gemini.run("Read the footer.", [Script([[read(gemini, "src/ui/Footer.tsx")]])])
    outcome.expect("JX-UI-GEMINI", "client")
    for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "hook")
    expect_root(outcome)
    outcome.expect("JX-API-AGENTS", times=0)


def test_b_a_shell_read_brings_the_nested_gemini_md_from_jitctx(gemini: GeminiHarness) -> None:
    """(b) run_shell_command `cat src/api/users.ts`: Gemini CLI loads nothing after a shell command, so
    src/api/GEMINI.md, src/api/AGENTS.md and the src/api/** rule all come from jitctx, once."""
    outcome = gemini.run("Show the users.", [Script([[shell("cat src/api/users.ts")]])])
    for marker in ("JX-API-GEMINI", "JX-API-AGENTS", "JX-RULE-API"):
        outcome.expect(marker, "hook")
    expect_root(outcome)
    outcome.expect("JX-UI-GEMINI", times=0)


@pytest.mark.hold_off
def test_c_write_file_creating_a_file_brings_the_rules_once(gemini: GeminiHarness) -> None:
    """(c) write_file creates tools/made.py: tools/CLAUDE.md and the **/*.py rule arrive once, from
    jitctx; tools/GEMINI.md from the client's own load after write_file, not from jitctx."""
    target = gemini.root / "tools/made.py"
    write = Call("write_file", {"file_path": str(target), "content": "X = 1\n"})
    outcome = gemini.run("Add a tool.", [Script([[write]])])
    assert target.read_text() == "X = 1\n", outcome.diagnose()
    outcome.expect("JX-TOOLS-GEMINI", "client")
    outcome.expect("JX-TOOLS-CLAUDE", "hook")
    outcome.expect("JX-RULE-PYTHON", "hook")
    expect_root(outcome)


def test_d_nothing_arrives_twice_in_a_multi_step_session(gemini: GeminiHarness) -> None:
    """(d) read_file src/ui/Footer.tsx, read_file src/ui/Header.tsx (the same directory), then `cat
    src/ui/Header.tsx` there: every file arrives once in the whole conversation, by the route that owns
    it (src/ui/GEMINI.md from the client's first load; jitctx does not add it after the shell read)."""
    steps = [
        [read(gemini, "src/ui/Footer.tsx")],
        [read(gemini, "src/ui/Header.tsx")],
        [shell("cat src/ui/Header.tsx")],
    ]
    outcome = gemini.run("Look around.", [Script(steps)])
    assert len(outcome.model.model_requests()) == len(steps) + 1, outcome.diagnose()
    outcome.expect("JX-UI-GEMINI", "client")
    for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "hook")
    expect_root(outcome)


def test_d_a_shell_read_then_a_read_file_in_the_same_directory(gemini: GeminiHarness) -> None:
    """(d) `cat src/api/users.ts`, then read_file src/api/users.ts: jitctx sends src/api/GEMINI.md after
    the shell read (the client would not), and the client, which does not know that, appends its own copy
    after its read_file; jitctx adds no further copy of anything."""
    steps = [[shell("cat src/api/users.ts")], [read(gemini, "src/api/users.ts")]]
    outcome = gemini.run("Look at the API.", [Script(steps)])
    found = [str(d) for d in deliveries(outcome.last(), "JX-API-GEMINI")]
    assert found == ["hook(AfterTool:run_shell_command)", "client(context after read_file)"], (
        f"{found}\n{outcome.diagnose(outcome.last())}"
    )
    for marker in ("JX-API-AGENTS", "JX-RULE-API"):
        outcome.expect(marker, "hook")
    expect_root(outcome)


def resume(gemini: GeminiHarness, first_steps: list[list[Call]], again: list[list[Call]]) -> Outcome:
    """A run of `first_steps`, then `-r latest` running `again` (script "again"), checked to be the same
    session, with the first run's conversation in it."""
    first = gemini.run("First.", [Script(first_steps)])
    assert first.session_id, first.diagnose()
    resumed = gemini.run("Again.", [Script(again, name="again")], "-r", "latest")
    assert resumed.session_id == first.session_id, resumed.diagnose()
    assert "call_main_s0_0" in json.dumps(resumed.last("again")), "the resumed request lacks the first run"
    return resumed


def test_e_resume_does_not_resend(gemini: GeminiHarness) -> None:
    """(e) `-r latest` resumes the conversation (SessionStart with source `resume`, the same session id):
    what jitctx sent after `cat src/api/users.ts` in the first run is still in it and is not sent again
    when the resumed run touches the same file; the run does not fail."""
    cat = shell("cat src/api/users.ts")
    resumed = resume(gemini, [[cat]], [[cat]])
    for marker in ("JX-API-GEMINI", "JX-API-AGENTS", "JX-RULE-API"):
        resumed.expect(marker, "hook", script="again")
    resumed.expect("JX-ROOT-GEMINI", "client", script="again")


def test_e_resume_after_a_read_file_sends_no_hook_file_twice(gemini: GeminiHarness) -> None:
    """(e) The first run reads src/ui/Footer.tsx, the resumed one reads it again. Gemini CLI keeps the
    context files it loaded in memory only, so after a resume it appends src/ui/GEMINI.md once more (the
    client's own repeat, never jitctx's); what jitctx sent (src/ui/AGENTS.md, src/ui/CLAUDE.md, the rule)
    arrives once."""
    footer = read(gemini, "src/ui/Footer.tsx")
    resumed = resume(gemini, [[footer]], [[footer]])
    body = resumed.last("again")
    own = deliveries(body, "JX-UI-GEMINI")
    assert own and all(d.route == "client" for d in own), f"{own}\n{resumed.diagnose(body)}"
    for marker in ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS"):
        resumed.expect(marker, "hook", script="again")


def test_e_resume_keeps_what_jitctx_sent_at_session_start(gemini: GeminiHarness) -> None:
    """(e) The root CLAUDE.md and AGENTS.md, which jitctx sent at the first run's SessionStart, are in the
    resumed conversation exactly once: Gemini CLI 0.61 rebuilds a resumed conversation without the first
    run's opening prompt (where that SessionStart context was), so they are jitctx's to send again."""
    resumed = resume(gemini, [[shell("cat src/api/users.ts")]], [])
    expect_root(resumed, script="again")


def test_f_the_root_gemini_md_only_ever_comes_from_the_client(gemini: GeminiHarness) -> None:
    """(f) Touching the root itself, by every route (read_file, list_directory, a shell read, write_file),
    never makes jitctx send the root GEMINI.md, which the client loaded at start."""
    steps = [
        [read(gemini, "README.md")],
        [Call("list_directory", {"dir_path": str(gemini.root)})],
        [shell("cat README.md")],
        [Call("write_file", {"file_path": str(gemini.root / "NOTES.md"), "content": "notes\n"})],
    ]
    outcome = gemini.run("Look at the root.", [Script(steps)])
    assert (gemini.root / "NOTES.md").exists(), outcome.diagnose()
    expect_root(outcome)
