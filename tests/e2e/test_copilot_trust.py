"""Copilot CLI 1.0.102's `--trust-folder` serves a new prompt-mode session only: it refuses the flag with
`--resume` (and `--continue`), so `jitctx doctor` and the README offer GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS
for resumed runs (tests/e2e/test_copilot_cli.py resumes a session with it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.copilot_cli_harness import CopilotHarness, copilot_env
from tests.e2e.harness import jitctx

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("resuming", ["--resume=00000000-0000-4000-8000-000000000000", "--continue"])
def test_trust_folder_is_refused_with_a_resume_and_doctor_offers_what_works(
    clients: cl.Clients, tmp_path: Path, resuming: str
) -> None:
    copilot = CopilotHarness(clients, tmp_path)
    env = copilot_env(copilot.home, copilot.state_dir, "http://127.0.0.1:9", trusted=False)
    command = [
        str(clients.copilot),
        "-p",
        "hi",
        "--trust-folder",
        resuming,
        "--allow-all",
        "--no-auto-update",
    ]
    run = cl.run_client(command, copilot.root, env)
    assert run.returncode != 0 and "'--trust-folder' cannot be used with" in run.stderr, run.describe()
    done = jitctx(cl.base_env(copilot.home, copilot.state_dir), "doctor", "--json", cwd=copilot.root)
    [check] = [
        c
        for c in json.loads(done.stdout)["checks"]
        if (c["client"], c["check"]) == ("copilot-cli", "trust (folder)")
    ]
    assert "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true" in check["detail"]
    assert "new session only" in check["detail"] and "--resume" in check["detail"]
