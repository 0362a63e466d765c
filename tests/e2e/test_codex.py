"""The real Codex (`codex exec`) with jitctx's hooks, against a scripted model (Responses API).

Codex loads AGENTS.md itself only from the root to the cwd, at start; everything else (nested AGENTS.md,
CLAUDE.md files, scoped rules) can only reach the model through jitctx's hooks.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.clients import Clients
from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import CodexHarness

pytestmark = pytest.mark.e2e

NEW_UI_FILE = """\
*** Begin Patch
*** Add File: src/ui/New.tsx
+export const New = () => null;
*** End Patch
"""


def test_h_exec_cat_brings_the_nested_agents_md(codex: CodexHarness) -> None:
    """(h) exec `cat src/api/users.ts`: Codex itself loaded only the root AGENTS.md; src/api/AGENTS.md and
    the src/api/** rule arrive through jitctx's PostToolUse hook, once. The root CLAUDE.md, which Codex
    does not read, comes from jitctx at session start."""
    outcome = codex.run("Show the users.", [Script([[Call("shell", {"command": "cat src/api/users.ts"})]])])
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-ROOT-CLAUDE", "hook")
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API", "hook")
    outcome.expect("JX-UI-CLAUDE", times=0)


@pytest.mark.hold_off
def test_i_apply_patch_adding_a_file(codex: CodexHarness) -> None:
    """(i) apply_patch adds src/ui/New.tsx: src/ui/CLAUDE.md and the src/ui/**/*.tsx rule arrive once."""
    outcome = codex.run("Add a component.", [Script([[Call("apply_patch", {"input": NEW_UI_FILE})]])])
    assert (codex.root / "src/ui/New.tsx").exists(), outcome.diagnose()
    outcome.expect("JX-UI-CLAUDE", "hook")
    outcome.expect("JX-RULE-COMPONENTS", "hook")
    outcome.expect("JX-ROOT-AGENTS", "client")


def test_j_exec_with_a_workdir_in_a_subdirectory(codex: CodexHarness) -> None:
    """(j) exec `cat users.ts` with `workdir` src/api: the session started at the root, so Codex holds
    only the root AGENTS.md; src/api/AGENTS.md must come through the hook (Codex reports the workdir as
    the event's cwd, and a later command back at the root must not bring it again)."""
    in_api = Call("shell", {"command": "cat users.ts", "workdir": str(codex.root / "src/api")})
    again = Call("shell", {"command": "cat src/api/users.ts", "workdir": str(codex.root)})
    outcome = codex.run("Show the users.", [Script([[in_api], [again]])])
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API", "hook")


OVERRIDE = "# API override\n\nJX-API-OVERRIDE: handlers are frozen this week.\n"


def test_k_an_override_stands_in_for_agents_md_beside_it(codex: CodexHarness) -> None:
    """(k) src/api holds AGENTS.override.md beside AGENTS.md: Codex reads the override alone in that
    directory, and so does jitctx: a touch there sends the override, never the AGENTS.md it replaces."""
    (codex.root / "src/api/AGENTS.override.md").write_text(OVERRIDE, encoding="utf-8")
    outcome = codex.run("Show the users.", [Script([[Call("shell", {"command": "cat src/api/users.ts"})]])])
    assert "JX-API-OVERRIDE" in str(outcome.last()), outcome.diagnose(outcome.last())
    assert len([d for d in _deliveries(outcome, "JX-API-OVERRIDE") if d.route == "hook"]) == 1
    outcome.expect("JX-API-AGENTS", times=0)
    outcome.expect("JX-RULE-API", "hook")


def test_k_started_where_an_override_is_codex_holds_it_itself(codex: CodexHarness) -> None:
    """(k) Started in src/api, Codex loads the root AGENTS.md and src/api's override itself (not the
    AGENTS.md beside it); jitctx sends neither, nor the AGENTS.md the override stands in for."""
    (codex.root / "src/api/AGENTS.override.md").write_text(OVERRIDE, encoding="utf-8")
    outcome = codex.run(
        "Show the users.",
        [Script([[Call("shell", {"command": "cat users.ts"})]])],
        cwd=codex.root / "src/api",
    )
    assert [d.route for d in _deliveries(outcome, "JX-API-OVERRIDE")] == ["client"], outcome.diagnose()
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-API-AGENTS", times=0)


def test_l_what_codex_cuts_past_project_doc_max_bytes_comes_from_jitctx(codex: CodexHarness) -> None:
    """(l) `project_doc_max_bytes = 20`: Codex keeps the first 20 bytes of the root AGENTS.md and cuts
    the rest (its rule among them); jitctx sends the whole file, so the rule arrives once."""
    codex.config = "project_doc_max_bytes = 20"
    outcome = codex.run("Hello.", [Script([])])
    assert "# Agents" in str(outcome.last())  # Codex's own cut head is there
    outcome.expect("JX-ROOT-AGENTS", "hook")


def _deliveries(outcome: object, marker: str) -> list[Any]:
    from tests.e2e.evidence import deliveries

    return deliveries(outcome.last(), marker)  # type: ignore[attr-defined]


@pytest.mark.hold_off
def test_parallel_calls_never_send_a_file_twice(codex: CodexHarness) -> None:
    """Several calls in one response (Codex runs them in parallel): each file arrives once."""
    batch = [
        Call("shell", {"command": "cat src/api/users.ts"}),
        Call("shell", {"command": "head -n 1 src/api/users.ts"}),
        Call("apply_patch", {"input": NEW_UI_FILE}),
    ]
    outcome = codex.run("All at once.", [Script([batch])])
    for marker in ("JX-API-AGENTS", "JX-RULE-API", "JX-UI-CLAUDE", "JX-RULE-COMPONENTS", "JX-ROOT-CLAUDE"):
        outcome.expect(marker, "hook")


def test_warm_hooks_send_the_same_files_once_and_leave_a_daemon_that_holds_no_pipe(
    clients: Clients, tmp_path: Path
) -> None:
    """`install codex --warm`: the first hook starts the warm daemon and answers by itself, those after it
    are answered by the daemon once it listens (tests/hook/test_hook_warm.py proves who answers); the
    files arrive as without --warm, once each, and Codex ends on time although a daemon started through
    its hook lives on: the daemon holds none of Codex's pipes."""
    codex = CodexHarness(clients, tmp_path, "--warm", hold=False)
    first = Call("shell", {"command": "cat src/api/users.ts"})
    again = Call("shell", {"command": "head -n 1 src/api/users.ts"})
    outcome = codex.run(
        "Show the users.", [Script([[first], [again], [Call("apply_patch", {"input": NEW_UI_FILE})]])]
    )
    outcome.expect("JX-ROOT-AGENTS", "client")
    outcome.expect("JX-ROOT-CLAUDE", "hook")
    outcome.expect("JX-API-AGENTS", "hook")
    outcome.expect("JX-RULE-API", "hook")
    outcome.expect("JX-UI-CLAUDE", "hook")
    pids = list((codex.state_dir / "warm").glob("*.pid"))
    try:
        assert len(pids) == 1, outcome.diagnose()
        assert Path(f"/proc/{int(pids[0].read_text())}").exists(), "the daemon should still be serving"
    finally:
        for pid_file in pids:
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGTERM)
