"""What keeps a project's hooks in a headless Gemini CLI run (0.61), as `jitctx doctor` advises: a trust
record in ~/.gemini/trustedFolders.json (or GEMINI_CLI_TRUST_WORKSPACE=true), not --skip-trust. The flag
trusts the folder for the run only after the project's settings were read, untrusted, and dropped with
their hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e import clients as cl
from tests.e2e.fake_api import Script
from tests.e2e.harness import GeminiHarness, jitctx

pytestmark = pytest.mark.e2e


@pytest.fixture
def gemini(clients: cl.Clients, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GeminiHarness:
    """Gemini CLI in the fixture repository, with no trust from the environment."""
    harness = GeminiHarness(clients, tmp_path)
    made = cl.gemini_env

    def untrusting(home: Path, state_dir: Path, base_url: str) -> dict[str, str]:
        env = made(home, state_dir, base_url)
        del env["GEMINI_CLI_TRUST_WORKSPACE"]
        return env

    monkeypatch.setattr(cl, "gemini_env", untrusting)
    return harness


def trust_check(harness: GeminiHarness) -> dict[str, str]:
    done = jitctx(cl.base_env(harness.home, harness.state_dir), "doctor", "--json", cwd=harness.root)
    [check] = [
        c
        for c in json.loads(done.stdout)["checks"]
        if (c["client"], c["check"]) == ("gemini-cli", "trust (folder)")
    ]
    return {str(key): str(value) for key, value in check.items()}


def test_skip_trust_runs_without_the_projects_hooks_and_doctor_says_what_keeps_them(
    gemini: GeminiHarness,
) -> None:
    check = trust_check(gemini)
    assert check["status"] == "warn" and "--skip-trust" in check["detail"]
    assert "trustedFolders.json" in check["fix"] and "GEMINI_CLI_TRUST_WORKSPACE=true" in check["fix"]
    outcome = gemini.run("Say hello.", [Script([])], "--skip-trust")
    outcome.expect("JX-ROOT-GEMINI", "client")  # the client ran in the folder ...
    outcome.expect("JX-ROOT-CLAUDE", times=0)  # ... without jitctx's hooks


def test_the_trust_record_doctor_advises_keeps_the_hooks_in_a_headless_run(gemini: GeminiHarness) -> None:
    record = gemini.home / ".gemini" / "trustedFolders.json"
    record.write_text(json.dumps({str(gemini.root): "TRUST_FOLDER"}), encoding="utf-8")
    assert trust_check(gemini)["status"] == "ok"
    outcome = gemini.run("Say hello.", [Script([])])
    outcome.expect("JX-ROOT-CLAUDE", "hook")  # jitctx's SessionStart hook ran
