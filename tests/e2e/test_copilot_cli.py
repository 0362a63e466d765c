"""The real GitHub Copilot CLI (`copilot -p ... --allow-all`) with jitctx's hooks (`jitctx install
copilot-cli`), against a scripted model (Chat Completions).

Copilot CLI loads at start `.github/copilot-instructions.md` and the AGENTS.md, CLAUDE.md and GEMINI.md
from the git root to the cwd; a scoped rule (`.claude/rules` with `paths:`, `.github/instructions` with
`applyTo:`) it only lists. After its own `view` of a file it adds the directory files above that file and
the scoped rules matching it; after a shell command, a search or a write it adds nothing. So those files
must arrive from the client after a view and from jitctx after anything else, once either way; the
files it never reads (CLAUDE.local.md) come from jitctx, and nothing above the project root arrives.
Each test asserts, on the last request the model received, how often each marker arrived and how.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import PATCH_MODEL, CopilotHarness, CopilotOutcome
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import holds

pytestmark = pytest.mark.e2e

# The root's files and the file the root CLAUDE.md imports (`@docs/RELEASE.md`, inlined by the client).
ROOT_FROM_CLIENT = (
    "JX-COPILOT-REPO", "JX-ROOT-AGENTS", "JX-ROOT-CLAUDE", "JX-ROOT-GEMINI", "JX-IMPORTED-RELEASE",
)  # fmt: skip
UI_FILES = ("JX-UI-AGENTS", "JX-UI-CLAUDE", "JX-UI-GEMINI")


@pytest.fixture
def copilot(clients: cl.Clients, tmp_path: Path, request: pytest.FixtureRequest) -> CopilotHarness:
    return CopilotHarness(clients, tmp_path, hold=holds(request))


def view(harness: CopilotHarness, rel: str) -> Call:
    return Call("view", {"path": str(harness.root / rel)})


def shell(command: str) -> Call:
    return Call("bash", {"command": command, "description": "e2e"})


def expect_start(outcome: CopilotOutcome) -> None:
    """The root's files from the client's own load, CLAUDE.local.md from jitctx, each once; nothing from
    above the root."""
    for marker in ROOT_FROM_CLIENT:
        outcome.expect(marker, "client")
    outcome.expect("JX-ROOT-LOCAL", "hook")
    outcome.expect("JX-OUTSIDE", times=0)


def test_the_hooks_are_installed_in_the_repository_settings(copilot: CopilotHarness) -> None:
    settings = json.loads((copilot.root / ".github/copilot/settings.json").read_text(encoding="utf-8"))
    hooks = settings["hooks"]
    assert set(hooks) == {
        "sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "preCompact", "subagentStart",
    }, hooks  # fmt: skip
    handlers = [h for groups in hooks.values() for group in groups for h in group["hooks"]]
    assert all("jitctx hook copilot-cli" in h["command"] for h in handlers), handlers
    assert all(1 <= h["timeout"] <= 600 for h in handlers), "timeouts are in seconds"


def test_startup_the_client_loads_the_root_and_jitctx_what_it_does_not_read(copilot: CopilotHarness) -> None:
    """(e) At start Copilot CLI has the root's own files; jitctx adds only CLAUDE.local.md, and nothing
    scoped to a subdirectory or a pattern arrives before it is touched."""
    outcome = copilot.run("Say hello.", [Script([])])
    expect_start(outcome)
    for marker in (*UI_FILES, "JX-API-AGENTS", "JX-RULE-COMPONENTS", "JX-RULE-API", "JX-COPILOT-TS"):
        outcome.expect(marker, times=0)
    assert outcome.session_id, outcome.diagnose()


def test_a_view_the_client_loads_the_nested_files_and_jitctx_sends_none(copilot: CopilotHarness) -> None:
    """(a) view src/ui/Footer.tsx: Copilot CLI adds src/ui's AGENTS.md, CLAUDE.md, GEMINI.md and the
    src/ui/**/*.tsx rule itself; jitctx, which knows it does, must not send them a second time."""
    outcome = copilot.run("Read the footer.", [Script([[view(copilot, "src/ui/Footer.tsx")]])])
    for marker in (*UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "client")
    expect_start(outcome)
    outcome.expect("JX-API-AGENTS", times=0)


def test_b_a_shell_read_brings_the_nested_files_from_jitctx(copilot: CopilotHarness) -> None:
    """(b) bash `cat src/api/users.ts`: the client loads nothing after a shell command, so src/api's
    files, the src/api/** rule and the src/**/*.ts Copilot instruction all come from jitctx, once."""
    outcome = copilot.run("Show the users.", [Script([[shell("cat src/api/users.ts")]])])
    for marker in ("JX-API-AGENTS", "JX-API-GEMINI", "JX-RULE-API", "JX-COPILOT-TS"):
        outcome.expect(marker, "hook")
    expect_start(outcome)
    outcome.expect("JX-UI-CLAUDE", times=0)


@pytest.mark.hold_off
def test_c_a_new_file_brings_its_folder_and_matching_rule_from_jitctx(copilot: CopilotHarness) -> None:
    """(c) create tools/new.py: nothing from the client after a write; tools/CLAUDE.md, tools/GEMINI.md
    and the **/*.py rule from jitctx, once."""
    create = Call("create", {"path": str(copilot.root / "tools/new.py"), "file_text": "X = 1\n"})
    outcome = copilot.run("Add a tool.", [Script([[create]])])
    assert (copilot.root / "tools/new.py").read_text(encoding="utf-8") == "X = 1\n"
    for marker in ("JX-TOOLS-CLAUDE", "JX-TOOLS-GEMINI", "JX-RULE-PYTHON"):
        outcome.expect(marker, "hook")
    expect_start(outcome)


@pytest.mark.hold_off
def test_d_a_scoped_rule_arrives_after_an_edit(copilot: CopilotHarness) -> None:
    """(d) edit src/ui/Header.tsx: the client does not follow an edit, so the src/ui/**/*.tsx rule
    (`paths:` in .claude/rules, which the client only lists) and src/ui's files come from jitctx, once."""
    edit = Call(
        "edit",
        {"path": str(copilot.root / "src/ui/Header.tsx"), "old_str": "null", "new_str": "undefined"},
    )
    outcome = copilot.run("Fix the header.", [Script([[edit]])])
    assert "undefined" in (copilot.root / "src/ui/Header.tsx").read_text(encoding="utf-8")
    for marker in ("JX-RULE-COMPONENTS", *UI_FILES):
        outcome.expect(marker, "hook")
    expect_start(outcome)


@pytest.mark.hold_off
def test_an_apply_patch_adds_a_file_and_its_rules_come_from_jitctx(copilot: CopilotHarness) -> None:
    """apply_patch (offered to the gpt-5 models, its patch arriving as the raw text of `toolArgs`): the
    added src/api/extra.ts brings src/api's files and both matching rules from jitctx."""
    patch = "*** Begin Patch\n*** Add File: src/api/extra.ts\n+export const x = 1;\n*** End Patch\n"
    outcome = copilot.run(
        "Add a constant.", [Script([[Call("apply_patch", {"input": patch})]])], model=PATCH_MODEL
    )
    assert (copilot.root / "src/api/extra.ts").is_file(), outcome.diagnose()
    for marker in ("JX-API-AGENTS", "JX-RULE-API", "JX-COPILOT-TS"):
        outcome.expect(marker, "hook")
    expect_start(outcome)


def test_started_in_a_subfolder_the_client_has_its_files_at_start(copilot: CopilotHarness) -> None:
    """Started in src/ui, Copilot CLI loads src/ui's files with the root's (the repository's settings,
    and jitctx's hooks, are found from there too); jitctx adds CLAUDE.local.md only, and the
    src/ui/**/*.tsx rule once Footer.tsx is read by a shell."""
    outcome = copilot.run(
        "Read the footer.", [Script([[shell("cat Footer.tsx")]])], cwd=copilot.root / "src/ui"
    )
    for marker in UI_FILES:
        outcome.expect(marker, "client")
    outcome.expect("JX-RULE-COMPONENTS", "hook")
    expect_start(outcome)


def test_user_scope_hooks_run_without_folder_trust(copilot: CopilotHarness) -> None:
    """`jitctx install copilot-cli --scope user` (~/.copilot/settings.json): user hooks need no trust, so
    with no trust given jitctx still answers."""
    copilot.jitctx("uninstall", "copilot-cli", "--scope", "project")
    installed = copilot.jitctx("install", "copilot-cli", "--scope", "user")
    assert installed["settings_path"] == str(copilot.home / ".copilot" / "settings.json")
    assert not (copilot.root / ".github/copilot/settings.json").exists()
    outcome = copilot.run("Show the users.", [Script([[shell("cat src/api/users.ts")]])], trusted=False)
    for marker in ("JX-API-AGENTS", "JX-RULE-API"):
        outcome.expect(marker, "hook")
    expect_start(outcome)


def test_a_resumed_session_gets_its_start_files_again_and_nothing_twice(copilot: CopilotHarness) -> None:
    """`--resume=ID`: Copilot CLI rebuilds the conversation without the first start's hook context and
    without its own loads after a view (it makes them again on its next view), keeping the hooks' tool
    contexts. So jitctx sends CLAUDE.local.md again at the resumed start, src/ui's files come back from
    the client's second view, and src/api's from jitctx after the shell read, each once."""
    steps = [
        [view(copilot, "src/ui/Footer.tsx")],
        [shell("cat src/api/users.ts")],
        [view(copilot, "src/ui/Footer.tsx")],
    ]
    first = copilot.run("Read the footer.", [Script(steps[:1])])
    assert first.session_id, first.diagnose()
    outcome = copilot.run("Now the users.", [Script(steps)], f"--resume={first.session_id}")
    for marker in (*UI_FILES, "JX-RULE-COMPONENTS"):
        outcome.expect(marker, "client")
    for marker in ("JX-API-AGENTS", "JX-RULE-API"):
        outcome.expect(marker, "hook")
    expect_start(outcome)
